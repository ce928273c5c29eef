"""`ramparts serve` as a cluster (docs/cluster.md): three servers on one PostgreSQL database
this test starts itself (pgserver.py), clients connected to different servers.

- Every game of the registry played in full with its two players and a spectator on three
  different servers, a chat line crossing servers, every frame each of them received checked
  against the referee (server_frames_check); the Danger at the Walls game's review, made on
  one server, is answered by another and served over HTTP by the third from the store.
- Catching up by moves: a spectator on a third server gets one `update` per move, version by
  version (never a snapshot), its server reading only the new moves (its /healthz counts
  them), the last move, which ends the game, included; every frame checked.
- A move server c fails to catch up (a failure injected, as when the store cannot be read)
  is caught up once it can read again, though no later move is announced.
- The concurrent-move race: one player's two connections, on two servers, send different
  moves for the same ply at once, again and again: exactly one is acknowledged, the other is
  refused as `stale`; the stored game holds each ply once.
- A clock runs out with both servers holding the game: the flag falls once.
- The server holding an AI game's lease is stopped with SIGSTOP: another takes the lease over
  (a higher fencing token) and the AI plays on; after SIGCONT the paused server acts on the
  game no more, and the game plays out with every frame checked.
- Servers hold only the games their clients watch: a game played on server a is not held by
  b (its /healthz), which catches up none of its moves, yet every server's lobby lists it,
  ply by ply; once its players leave, no server holds it and every lobby still lists it; a
  client opening it on b has b read it again, and b unloads it when the client leaves.
- Games nobody watches still progress, once: with the server holding them stopped
  (SIGSTOP), an AI game whose AI is to move and a game whose clock runs are loaded by
  another server's sweep, which takes the lease (the lobbies list the AI game meanwhile):
  the AI moves once, the flag falls once; after SIGCONT the stopped server acts on neither.

Skips (exit 77) only where PostgreSQL is not installed."""

import asyncio
import json
import os
import random
import signal
import time

from pgserver import server_or_skip
from rsclient import Checks, Server, arguments, guest, play_out, registry_games, run_checker

# As in test_full_games.py: random players get a turn limit in Castle Danger (CD-16).
OPTIONS = {"castle-danger": {"turn-limit": 60}}
LEASE_S = 2


# Server a's hard AI thinks long, so that it can be stopped (SIGSTOP) while it searches; the
# others' think briefly. No expiry: a game without a clock or an AI seat needs no lease, so
# no server but those its clients use ever holds it.
AI_HARD_MS = {"a": "8000", "b": "200", "c": "200"}
# Each server reviews at its own budget, so a review tells which server made it.
REVIEW_BUDGET = {"a": "iters=40", "b": "iters=50", "c": "iters=60"}


def start_node(args, pg, name, env=None):
    return Server(args.ramparts, extra=["--rate", "100000", "--store", pg.address, "--node", name,
                                        "--lease", str(LEASE_S), "--expire", "0",
                                        "--ai-hard-ms", AI_HARD_MS[name],
                                        "--review-budget", REVIEW_BUDGET[name]], env=env).start()


async def wait_until(condition, what, limit=120.0):
    """Poll condition() until it holds; a bound for a hang, never a measure of speed."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {limit} s: {what}")
        await asyncio.sleep(0.05)


async def across_nodes(checks, args, nodes, kind, rng):
    a, b, c = nodes
    alice, bob, carol = await guest(a, "alice"), await guest(b, "bob"), await guest(c, "carol")
    created = await alice.request({"t": "create", "type": kind, "seats": ["me", "open"],
                                   "options": OPTIONS.get(kind, {})}, "created")
    if not checks.eq(created["t"], "created", f"{kind}: created on server a"):
        return
    game = created["game"]
    joined = await bob.request({"t": "join", "game": game}, "joined")
    checks.eq((joined["t"], joined.get("seat")), ("joined", 1), f"{kind}: joined on server b")
    opened = await carol.request({"t": "open", "game": game}, "snapshot")
    checks.eq(opened["t"], "snapshot", f"{kind}: watched from server c")
    await alice.state_at(game, ply=0)
    said = await bob.request({"t": "chat", "game": game, "text": "good luck"}, "done")
    checks.eq(said["t"], "done", f"{kind}: a chat line on server b")
    # The players' line reaches the player on server a; carol, a spectator, chats apart
    # (issue 49), and her line reaches her own connection only, never the players'.
    line = await alice.expect(lambda m: m["t"] == "chat" and m.get("game") == game,
                              "the chat line")
    checks.eq((line["text"], line.get("channel")), ("good luck", "players"),
              f"{kind}: the players' line reaches alice across servers")
    final = await play_out(checks, game, {0: alice, 1: bob}, rng, watchers=[carol], label=kind)
    checks.eq(final["status"], "over", f"{kind}: played to its end across three servers")
    for who in (alice, bob, carol):
        await who.drain(0.1)
    run_checker(checks, args.checker, b, game, [(alice, 0), (bob, 1), (carol, -2)], a.dir,
                f"{kind} across servers")
    if kind == "danger-at-the-walls":
        await review_across(checks, nodes, game, alice, bob)
    for who in (alice, bob, carol):
        await who.close()


async def review_across(checks, nodes, game, alice, bob):
    """A review made on server a (its budget) is what b answers and c serves over HTTP: read
    from the store, never made again (b's budget differs, and would show)."""
    made = await alice.request({"t": "review", "game": game, "seat": 0}, "review")
    review = made.get("review") or {}
    checks.eq(review.get("budget"), "iters=7000,bias=1," + REVIEW_BUDGET["a"],
              f"the review is made on server a: {str(made)[:160]}")
    again = await bob.request({"t": "review", "game": game, "seat": 0}, "review")
    checks.eq(again.get("review"), review, "server b answers the review a stored")
    status, served = nodes[2].http_json(f"/api/v1/games/{game}/review?seat=0")
    checks.eq((status, served), (200, review), "server c serves it over HTTP")


def catch_up_counts(node):
    _, health = node.http_json("/healthz")
    return health["caught_up_moves"], health["caught_up_whole"]


async def started_on_three(nodes, tag, kind):
    """Alice creates a game of `kind` on server a, Bob joins it on b, and once it has started
    Carol opens it on c: (alice, bob, carol, game, Carol's snapshot)."""
    a, b, c = nodes
    alice, bob = await guest(a, f"alice-{tag}"), await guest(b, f"bob-{tag}")
    carol = await guest(c, f"carol-{tag}")
    game = (await alice.request({"t": "create", "type": kind, "seats": ["me", "open"]},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await alice.state_at(game, ply=0)
    opened = await carol.request({"t": "open", "game": game}, "snapshot")
    return alice, bob, carol, game, opened


async def caught_up_by_moves(checks, args, nodes, rng, kind="king-of-danger"):
    """Players on servers a and b, a spectator on c who opens the game once it has started:
    from its snapshot on, every frame it gets is an update one version after the last, and
    server c caught up every move by reading only that move (none by a whole read)."""
    a, b, c = nodes
    alice, bob, carol, game, opened = await started_on_three(nodes, "m", kind)
    checks.eq((opened["t"], opened["status"]), ("snapshot", "live"), "catch-up: watched live on c")
    before = catch_up_counts(c)
    first = len(carol.frames)
    final = await play_out(checks, game, {0: alice, 1: bob}, rng, watchers=[carol],
                           label="catch-up")
    checks.eq(final["status"], "over", "catch-up: played to its end")
    await carol.drain(0.1)
    after = catch_up_counts(c)
    frames = [m for m in (json.loads(f) for f in carol.frames[first:]) if m.get("game") == game
              and m["t"] in ("snapshot", "update")]
    kinds = sorted({m["t"] for m in frames})
    checks.eq(kinds, ["update"], "catch-up: the spectator on c gets updates, no snapshot")
    versions = [m["v"] for m in frames]
    checks.eq(versions, list(range(opened["v"] + 1, opened["v"] + 1 + len(frames))),
              "catch-up: one update per version, in order")
    checks.eq([m["ply"] for m in frames], list(range(opened["ply"] + 1, final["ply"] + 1)),
              "catch-up: one update per move")
    checks.eq(frames[-1]["status"] if frames else None, "over",
              "catch-up: the last update ends the game")
    checks.eq(after[0] - before[0], final["ply"] - opened["ply"],
              "catch-up: server c read each move once, and only it")
    checks.eq(after[1] - before[1], 0, "catch-up: server c read the game whole never")
    run_checker(checks, args.checker, b, game, [(alice, 0), (bob, 1), (carol, -2)], a.dir,
                "catch-up by moves")
    for who in (alice, bob, carol):
        await who.close()


async def caught_up_after_failure(checks, args, nodes, rng, flag, kind="king-of-danger"):
    """Server c fails to catch up a move (a failure injected while the file `flag` exists, as
    when the store cannot be read): once it can read again it catches the game up by itself,
    with no later move announced (a game's last move has none after it); every frame
    checked."""
    a, b, c = nodes
    alice, bob, carol, game, _ = await started_on_three(nodes, "f", kind)
    players = {0: alice, 1: bob}
    state = await play_out(checks, game, players, rng, watchers=[carol], max_moves=3,
                           label="failed catch-up")
    ply = state["ply"]
    open(flag, "w").close()
    mover = players[state["to_move"]]
    mine = await mover.state_at(game, ply=ply)
    ack = await mover.request({"t": "move", "game": game, "ply": ply,
                               "move": rng.choice(mine["legal"])["text"]}, "ack")
    checks.eq(ack["t"], "ack", "failed catch-up: the move is acknowledged on a or b")
    failed = f"game {game}: cannot catch up: a failure injected by a test"
    await wait_until(lambda: failed in c.log(), "server c fails to catch the move up")
    await carol.drain(0.2)
    checks.eq(carol.latest(game)["ply"], ply,
              "failed catch-up: the spectator on c has not seen the move while c cannot read")
    os.remove(flag)
    after = await carol.state_at(game, ply=ply + 1)
    checks.eq(after["ply"], ply + 1,
              "failed catch-up: server c catches the move up once it can, with no new move")
    checks.ok(f"game {game}: catching up again to version" in c.log(),
              "failed catch-up: server c says it caught up again")
    for who in (alice, bob):
        await who.state_at(game, ply=ply + 1)
    final = await play_out(checks, game, players, rng, watchers=[carol], label="failed catch-up")
    checks.eq(final["status"], "over", "failed catch-up: played to its end")
    for who in (alice, bob, carol):
        await who.drain(0.1)
    run_checker(checks, args.checker, b, game, [(alice, 0), (bob, 1), (carol, -2)], a.dir,
                "failed catch-up")
    for who in (alice, bob, carol):
        await who.close()


async def race(checks, args, pg, nodes, rng, rounds=12):
    """Alice's two connections (servers a and b) send different moves for each ply at once."""
    a, b, _ = nodes
    alice = await guest(a, "alice-a")
    alice_b = await guest(b, "alice-b")
    alice_b.token = alice.token
    await alice_b.close()
    await alice_b.connect()
    await alice_b.hello(alice.token)
    bob = await guest(a, "bob")
    races = 0
    for _ in range(10):  # games until enough races were run
        if races >= rounds:
            break
        races += await race_game(checks, args, pg, a, alice, alice_b, bob, rounds - races, rng)
    checks.eq(races, rounds, "the races were run")
    for who in (alice, bob, alice_b):
        await who.close()


async def race_game(checks, args, pg, a, alice, alice_b, bob, rounds, rng):
    game = (await alice.request({"t": "create", "type": "walls-and-armies",
                                 "seats": ["me", "open"]}, "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await alice_b.request({"t": "open", "game": game}, "snapshot")
    players = {0: alice, 1: bob}
    races = 0
    state = await alice.state_at(game, ply=0)
    while races < rounds and state["status"] == "live":
        ply = state["ply"]
        if state["to_move"] == 0:
            mine_a = await alice.state_at(game, ply=ply)
            mine_b = await alice_b.state_at(game, ply=ply)
            legal = [m["text"] for m in mine_a["legal"]]
            if len(legal) >= 2 and [m["text"] for m in mine_b["legal"]] == legal:
                first, second = rng.sample(legal, 2)
                replies = await asyncio.gather(
                    alice.request({"t": "move", "game": game, "ply": ply, "move": first}, "ack"),
                    alice_b.request({"t": "move", "game": game, "ply": ply, "move": second},
                                    "ack"))
                kinds = sorted((r["t"], r.get("code", r.get("dup"))) for r in replies)
                checks.eq(kinds, [("ack", False), ("error", "stale")],
                          f"race at ply {ply}: one move applied, the other stale")
                races += 1
                state = await bob.state_at(game, ply=ply + 1)
                continue
        mover = players[state["to_move"]]
        mine = await mover.state_at(game, ply=ply)
        text = rng.choice(mine["legal"])["text"]
        ack = await mover.request({"t": "move", "game": game, "ply": ply, "move": text}, "ack")
        checks.eq(ack["t"], "ack", f"race game: move at ply {ply}")
        state = await bob.state_at(game, ply=ply + 1)
    rows = pg.query(f"SELECT count(*), count(DISTINCT ply), max(ply) FROM moves "
                    f"WHERE game_id = {game}")
    count, distinct, top = (int(x) for x in rows[0])
    checks.ok(count == distinct == top + 1, f"each ply stored once: {rows}")
    for who in (alice, alice_b):  # everyone where bob is, so play_out starts from there
        await who.state_at(game, v=state["v"])
    final = await play_out(checks, game, players, rng, watchers=[alice_b], label="race game")
    checks.eq(final["status"], "over", "the race game plays out")
    for who in (alice, bob, alice_b):
        await who.drain(0.1)
    run_checker(checks, args.checker, a, game, [(alice, 0), (bob, 1), (alice_b, 0)], a.dir,
                "race game")
    for who in (alice, bob, alice_b):  # the next game's frames only
        who.frames.clear()
    return races


async def flag_once(checks, pg, nodes):
    """A live clock of 2 s runs out while both servers hold the game: one flag, one result."""
    a, b, _ = nodes
    alice, bob = await guest(a, "alice-clock"), await guest(b, "bob-clock")
    game = (await alice.request({"t": "create", "type": "king-of-danger", "seats": ["me", "open"],
                                 "clock": {"kind": "live", "initial_ms": 2000}},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    ends = []
    for who in (alice, bob):
        over = await who.expect(lambda m: m.get("game") == game and m.get("status") == "over",
                                "the flag")
        checks.eq(over.get("result", {}).get("reason"), "time", f"{who.label}: out of time")
        ends.append(over["v"])
    # Both players' servers hold the game; the one holding its lease flags it (its log says so) and
    # the others catch up with a snapshot of that version.
    flagged = [n.extra[5] for n in nodes if f"game {game} over: time" in n.log()]
    checks.eq(len(flagged), 1, f"the flag falls once, on one server: {flagged}")
    checks.eq(ends[0], ends[1], "both servers show the same final version")
    row = pg.query(f"SELECT end_reason, v FROM games WHERE id = {game}")[0]
    checks.eq(row, ["time", str(ends[0])], "the store holds that one ending")
    for who in (alice, bob):
        await who.close()


async def lease_game(checks, pg, nodes, rng):
    """One AI game on server b, played until another server takes the AI's lease over from the
    paused holder. Returns (game, human, watcher, human_moves: the game's player, owner, token,
    taken), or None when the deal ends the game (the human's move wins it) before the AI has to
    move on the paused holder's lease: such a game cannot show a take-over, and the caller
    deals another."""
    a, b, _ = nodes
    human = await guest(b, "human")
    watcher = await guest(b, "watcher")
    game = (await human.request({"t": "create", "type": "walls-and-armies",
                                 "seats": ["me", "ai:easy"]}, "created"))["game"]
    await watcher.request({"t": "open", "game": game}, "snapshot")

    async def human_moves(count, followers=(watcher,)):
        """The human plays until the AI has answered `count` times (a turn may be several
        plies of one seat, and only the AI's moves need the lease); followers read along."""
        state = await human.state_at(game, ply=0)
        answered = 0
        while answered < count and state["status"] == "live":
            ai_to_move = state["to_move"] != 0
            if not ai_to_move:
                text = rng.choice(state["legal"])["text"]
                ack = await human.request({"t": "move", "game": game, "ply": state["ply"],
                                           "move": text}, "ack")
                checks.eq(ack["t"], "ack", f"lease game: move at ply {state['ply']}")
            state = await human.state_at(game, ply=state["ply"] + 1)  # or the AI's move
            answered += ai_to_move
            for f in followers:
                await f.state_at(game, ply=state["ply"])
        return state

    def lease():
        return pg.query(f"SELECT owner, lease_token FROM games WHERE id = {game}")[0]

    async def give_up(state, why):
        text = state.get("result", {}).get("text")
        print(f"lease game {game} ended ({text}) {why}: another deal")
        for who in (human, watcher):
            await who.close()

    state = await human_moves(2)
    # The lease is taken when the AI seat first has to move: the deal (random) may give the
    # human several moves before that.
    owner, token = lease()
    while not owner and state["status"] == "live":
        state = await human_moves(1)
        owner, token = lease()
    if not owner:
        await give_up(state, "before the AI had to move")
        return None
    checks.ok(owner in ("a", "b"), f"a server holds the AI game's lease: {owner}")
    holder = a if owner == "a" else b
    holder.proc.send_signal(signal.SIGSTOP)
    try:
        if holder is b:  # the human's own server is the one paused: play through a
            human2 = await guest(a, "human-again")
            await human2.close()
            human2.token = human.token
            await human2.connect()
            await human2.hello(human.token)
            await human2.request({"t": "open", "game": game}, "snapshot")
            human = human2
        state = await human_moves(3, followers=())
        taken = lease()
        while taken[0] in ("", owner) and state["status"] == "live":  # the AI's next turn
            state = await human_moves(1, followers=())
            taken = lease()
    finally:
        holder.proc.send_signal(signal.SIGCONT)
    if taken[0] in ("", owner) and state["status"] != "live":
        await give_up(state, "before the AI moved again")
        return None
    return game, human, watcher, human_moves, owner, token, taken


async def paused_past_lease(checks, args, pg, nodes, rng):
    # Walls and Armies ends when a player runs out of wall cards, which a deal with few walls
    # may bring about within a few moves: in 130 runs of this part, 2 games ended (at ply 4
    # and 8, the human winning) before the take-over, and CI once failed on such a deal.
    for _ in range(8):
        found = await lease_game(checks, pg, nodes, rng)
        if found:
            break
    if not checks.ok(found is not None, "an AI game lasts until the lease is taken over"):
        return
    game, human, watcher, human_moves, owner, token, taken = found
    checks.ok(taken[0] not in ("", owner), f"another server took the lease over: {taken}")
    checks.ok(int(taken[1]) > int(token), f"with a higher fencing token: {token} -> {taken[1]}")
    state = await human_moves(4)
    kept = pg.query(f"SELECT owner, lease_token FROM games WHERE id = {game}")[0]
    checks.eq(kept[0], taken[0], "the paused server did not take the lease back")
    checks.ok(f"game {game}: lease taken over from {owner}" in
              next(n for n in nodes if n.extra[5] == taken[0]).log(),
              "the new holder logs the take-over")
    rows = pg.query(f"SELECT count(*), count(DISTINCT ply), max(ply) FROM moves "
                    f"WHERE game_id = {game}")
    count, distinct, top = (int(x) for x in rows[0])
    checks.ok(count == distinct == top + 1, f"each ply stored once: {rows}")
    while state["status"] == "live":
        state = await human_moves(50)
    checks.eq(state["status"], "over", "the AI game plays out")
    await human.drain(0.1)
    await watcher.drain(0.1)
    viewers = [(watcher, -2)]
    run_checker(checks, args.checker, nodes[0], game, viewers, nodes[0].dir, "lease game")


def holds(node, game):
    _, health = node.http_json(f"/healthz?game={game}")
    return health["holds_game"]


async def lobby_entry(client, game):
    """The game as the client's server lists it in its lobby: (list name, summary) or None."""
    lobby = await client.request({"t": "lobby"}, "lobby")
    for kind in ("open", "live"):
        for summary in lobby[kind]:
            if summary["game"] == game:
                return kind, summary
    return None


async def until_listed(client, game, ply, what, limit=60.0):
    """Wait (bounded) until the client's server lists the game live at ply."""
    deadline = time.monotonic() + limit
    while True:
        entry = await lobby_entry(client, game)
        if entry and entry[0] == "live" and entry[1]["ply"] == ply:
            return entry
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {limit} s: {what} (last seen: {entry})")
        await asyncio.sleep(0.05)


async def play_plies(checks, game, players, rng, count, label):
    """Play `count` random moves (fewer if the game ends) with the players on their servers."""
    state = await players[0].state_at(game, ply=0)
    for _ in range(count):
        if state["status"] != "live":
            break
        mover = players[state["to_move"]]
        mine = await mover.state_at(game, ply=state["ply"])
        text = rng.choice(mine["legal"])["text"]
        ack = await mover.request({"t": "move", "game": game, "ply": state["ply"], "move": text},
                                  "ack")
        checks.eq(ack["t"], "ack", f"{label}: move at ply {state['ply']}")
        state = await players[0].state_at(game, ply=state["ply"] + 1)
    return state


async def unwatched_not_held(checks, nodes, rng):
    """A game played on server a only: b and c do not hold it but list it; once its players
    leave nobody holds it; opened on b, it is read again, and unloaded when its client goes."""
    a, b, c = nodes
    alice, bob = await guest(a, "alice-u"), await guest(a, "bob-u")
    readers = {b: await guest(b, "reader-b"), c: await guest(c, "reader-c")}
    before = catch_up_counts(b)
    # King of Danger, which lasts a whole hand: a Walls and Armies deal may end within 4 moves.
    game = (await alice.request({"t": "create", "type": "king-of-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    state = await play_plies(checks, game, {0: alice, 1: bob}, rng, 4, "unwatched")
    checks.eq(state["status"], "live", "unwatched: still live after four moves")
    ply = state["ply"]
    for node, reader in readers.items():
        await until_listed(reader, game, ply, f"server {node.extra[5]} lists the game at ply {ply}")
        checks.ok(not holds(node, game), f"server {node.extra[5]} does not hold the game its "
                                         f"clients do not watch")
    checks.eq(catch_up_counts(b), before, "server b caught up none of its moves")
    checks.ok(holds(a, game), "server a, where its players are, holds it")
    for who in (alice, bob):
        await who.close()
    await wait_until(lambda: not holds(a, game), "server a unloads the game its players left")
    for node, reader in list(readers.items()) + [(a, await guest(a, "reader-a"))]:
        entry = await until_listed(reader, game, ply, f"server {node.extra[5]} lists the game "
                                                      f"no server holds")
        checks.eq(entry[1]["ply"], ply, f"server {node.extra[5]} lists it held by no server")
        await reader.close()
    carol = await guest(b, "carol-u")
    opened = await carol.request({"t": "open", "game": game}, "snapshot")
    checks.eq((opened["status"], opened["ply"]), ("live", ply), "opened on b: read again")
    checks.ok(holds(b, game), "server b holds the game its client opened")
    unloaded = b.http_json("/healthz")[1]["unloaded"]
    await carol.close()
    await wait_until(lambda: not holds(b, game), "server b unloads it once its client left")
    checks.ok(b.http_json("/healthz")[1]["unloaded"] > unloaded, "server b counts the unload")


def stored_plies(pg, game):
    count, distinct, top = pg.query(f"SELECT count(*), count(DISTINCT ply), "
                                    f"coalesce(max(ply), -1) FROM moves WHERE game_id = {game}")[0]
    return int(count), int(distinct), int(top)


def statements_running(pg):
    """Whether a client connection other than this query's runs a statement now."""
    return int(pg.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND "
                        "backend_type = 'client backend' AND pid <> pg_backend_pid()")[0][0]) > 0


async def stop_while_ai_thinks(checks, pg, a, human, rng):
    """A new AI game of the human's on server a, played until the AI is to move, then server a
    stopped (SIGSTOP) before its AI answers. Returns (game, state, stopped); stopped is None
    when the deal ended the game first (the human's move won it), so another is needed."""
    game = (await human.request({"t": "create", "type": "walls-and-armies",
                                 "seats": ["me", "ai:hard"]}, "created"))["game"]
    state = await human.state_at(game, ply=0)
    for _ in range(40):  # until the AI is to move when server a is stopped
        if state["status"] != "live":
            return game, state, None
        if state["to_move"] != 0:
            state = await human.state_at(game, ply=state["ply"] + 1)
            continue
        text = rng.choice(state["legal"])["text"]
        ack = await human.request({"t": "move", "game": game, "ply": state["ply"], "move": text},
                                  "ack")
        checks.eq(ack["t"], "ack", f"AI game: move at ply {state['ply']}")
        after = await human.state_at(game, ply=state["ply"] + 1)
        if after["status"] == "live" and after["to_move"] != 0:
            a.proc.send_signal(signal.SIGSTOP)
            # A commit server a sent just before the stop goes on in PostgreSQL: wait until
            # no statement runs there (a moment; the other servers' ticks are short).
            await wait_until(lambda: not statements_running(pg),
                             "no statement running in PostgreSQL")
            if stored_plies(pg, game)[2] + 1 == after["ply"]:  # the AI had not answered yet
                return game, after, True
            a.proc.send_signal(signal.SIGCONT)
        state = after
    return game, state, None if state["status"] != "live" else False


async def unwatched_ai_moves(checks, pg, nodes, rng):
    """An AI game nobody watches, its AI to move and server a (its only holder, thinking for
    8 s) stopped: another server loads it and takes its lease, the AI moves once; server a,
    continued, drops its own result."""
    a, b, c = nodes
    human = await guest(a, "human-u")
    readers = [await guest(b, "lobby-b"), await guest(c, "lobby-c")]
    for _ in range(8):  # a deal that ends the game before the AI has to move: another one
        game, state, stopped = await stop_while_ai_thinks(checks, pg, a, human, rng)
        if stopped is not None:
            break
    checks.ok(stopped, "server a was stopped while its AI was to move")
    if not stopped:
        return
    try:
        for reader in readers:
            entry = await until_listed(reader, game, state["ply"], "the AI game is listed")
            checks.eq(entry[0], "live", f"{reader.label}: the lobby lists the AI game")
        await wait_until(lambda: stored_plies(pg, game)[2] >= state["ply"],
                         "another server plays the AI's move")
        owner, token = pg.query(f"SELECT owner, lease_token FROM games WHERE id = {game}")[0]
        checks.ok(owner in ("b", "c"), f"a server not stopped holds the lease: {owner}")
        taker = b if owner == "b" else c
        checks.ok(f"game {game}: loaded to hold its lease" in taker.log(),
                  "it loaded the game nobody held to take its lease")
    finally:
        a.proc.send_signal(signal.SIGCONT)
    await wait_until(lambda: f"game {game}: AI move at ply {state['ply']} dropped" in a.log(),
                     "server a drops its late AI move")
    count, distinct, top = stored_plies(pg, game)
    checks.ok(count == distinct == top + 1, f"each ply stored once: {count} {distinct} {top}")
    await human.state_at(game, ply=state["ply"] + 1)  # server a caught up with it
    for who in readers + [human]:
        await who.close()


async def unwatched_flag(checks, pg, nodes):
    """A clocked game whose players left server a, which is then stopped: another server
    loads it, the flag falls once, there; server a, continued, does not flag it. The clock
    (8 s) runs out after a's lease and the wait for it (2 + 2 s): a stopped long before."""
    a, b, c = nodes
    alice, bob = await guest(a, "alice-t"), await guest(a, "bob-t")
    game = (await alice.request({"t": "create", "type": "king-of-danger", "seats": ["me", "open"],
                                 "clock": {"kind": "live", "initial_ms": 8000}},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await alice.state_at(game, ply=0)
    for who in (alice, bob):
        await who.close()
    a.proc.send_signal(signal.SIGSTOP)
    try:
        await wait_until(lambda: pg.query(f"SELECT status FROM games WHERE id = {game}")[0][0]
                         == "2", "the flag falls with server a stopped")
        row = pg.query(f"SELECT end_reason, owner FROM games WHERE id = {game}")[0]
        checks.eq(row[0], "time", "the unwatched game ended on time")
        checks.ok(row[1] in ("b", "c"), f"under the lease of a server not stopped: {row[1]}")
    finally:
        a.proc.send_signal(signal.SIGCONT)
    await wait_until(lambda: not holds(a, game) or f"game {game}: lease lost" in a.log(),
                     "server a lets the game go")
    flagged = [n.extra[5] for n in nodes if f"game {game} over: time" in n.log()]
    checks.eq(len(flagged), 1, f"the flag falls once, on one server: {flagged}")
    checks.ok("a" not in flagged, "not on the stopped server")


async def main():
    args = arguments()
    pg = server_or_skip()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "25")))
    nodes = []
    try:
        pg.init()
        # Server c fails to catch up while this file exists (a Debug build's fault injection).
        flag = os.path.join(pg.dir, "catch-up-fails")
        nodes = [start_node(args, pg, name, {"RAMPARTS_TEST_CATCH_UP_FAIL": flag} if name == "c"
                            else None) for name in ("a", "b", "c")]
        for kind in registry_games(args.ramparts):
            await across_nodes(checks, args, nodes, kind, rng)
        await caught_up_by_moves(checks, args, nodes, rng)
        await caught_up_after_failure(checks, args, nodes, rng, flag)
        await race(checks, args, pg, nodes, rng)
        await flag_once(checks, pg, nodes)
        await paused_past_lease(checks, args, pg, nodes, rng)
        await unwatched_not_held(checks, nodes, rng)
        await unwatched_ai_moves(checks, pg, nodes, rng)
        await unwatched_flag(checks, pg, nodes)
        for node in nodes:
            checks.eq(await asyncio.to_thread(node.stop), 0, f"server {node.extra[5]} exits 0 on SIGTERM")
    finally:
        for node in nodes:
            if node.proc:
                node.kill9()
        pg.destroy()
    checks.finish()


asyncio.run(main())
