"""Cross-node correctness of a cluster (docs/cluster.md, issue 25): three servers on one
PostgreSQL database this test starts itself, the two players of each game on different servers.

- Presence: each player shows as connected in the seat list the other receives, though they
  are on different servers; a claim is refused while the opponent is connected to any server
  (watching the game, or only connected), and allowed once they have left every server.
- Offers: a takeback asked on one server is accepted on the other; a second accept is refused
  (`no-offer`); a draw offer withdrawn by a move cannot be accepted; a draw offered on one
  server is accepted on the other and ends the game.
- Rematch: the notice reaches the opponent's server, and a rematch asked there gives the same
  game, not a second one.
- `--expire`: a seek whose creator is connected to another server stays; a game against the
  AI its player left ends once, on one server (the holder of its lease), seen everywhere.
- A server killed with kill -9: its players stop counting as connected once its sign of life
  runs out, and the opponent's claim then wins.
- The whole cluster restarted (every server stopped, PostgreSQL kept): the game goes on,
  and its running clock charges nobody for the downtime on either server.
- Revoked tokens on every server: a password change on server a logs out the account's other
  devices on b and c (told `logged-out`, no identity left, their tokens refused), a page on b
  with the asking page's token stays; a logout on a then logs out that page on b too.

Every frame each player received is checked against the referee (server_frames_check).
Skips (exit 77) only where PostgreSQL is not installed."""

import asyncio
import time

from pgserver import server_or_skip
from rsclient import (NEW_PASSWORD, PASSWORD, Checks, Client, Server, arguments, claim_after_grace,
                      guest, identified, login, run_checker, told_logged_out)

LEASE_S = 2
GRACE_S = 1
EXPIRE_S = 2


def start_node(args, pg, name):
    return Server(args.ramparts, extra=["--rate", "100000", "--store", pg.address, "--node", name,
                                        "--lease", str(LEASE_S), "--grace", str(GRACE_S),
                                        "--expire", str(EXPIRE_S)]).start()


def seats_seen(client, game):
    """The seat list of the latest message about game that carries one."""
    for m in reversed(client.messages):
        if m.get("game") == game and isinstance(m.get("seats"), list):
            return m["seats"]
    return None


async def until_connected(client, game, seat, want, limit=60.0):
    """Wait until client's latest seat list shows seat connected (or not); False on timeout,
    a bound for a hang, never a measure of speed."""
    deadline = time.monotonic() + limit
    while True:
        seats = seats_seen(client, game)
        if seats and seats[seat].get("connected") == want:
            return True
        if time.monotonic() > deadline:
            return False
        await client.drain(0.1)


async def until_offers(client, game, pred, limit=60.0):
    """Wait for a snapshot or update of game whose offers satisfy pred."""
    return await client.expect(
        lambda m: m.get("game") == game and m["t"] in ("snapshot", "update")
        and isinstance(m.get("offers"), dict) and pred(m["offers"]), "the offers", limit)


async def offers_and_rematch(checks, args, a, b):
    alice, bob = await guest(a, "alice"), await guest(b, "bob")
    game = (await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    joined = await bob.request({"t": "join", "game": game}, "joined")
    checks.eq(joined["t"], "joined", "bob joins on server b")
    checks.ok(await until_connected(alice, game, 1, True),
              "alice (server a) sees bob (server b) connected")
    checks.ok(await until_connected(bob, game, 0, True),
              "bob (server b) sees alice (server a) connected")
    refused = await alice.request({"t": "claim", "game": game}, "done")
    checks.eq(refused.get("code"), "not-allowed", "no claim against a player connected elsewhere")

    state = await alice.state_at(game, ply=0)
    seats = {0: alice, 1: bob}
    mover, waiter = seats[state["to_move"]], seats[1 - state["to_move"]]
    mine = await mover.state_at(game, ply=0)
    moved = await mover.request({"t": "move", "game": game, "ply": 0,
                                 "move": mine["legal"][0]["text"]}, "ack")
    checks.eq(moved["t"], "ack", "the first move")
    asked = await mover.request({"t": "takeback", "game": game, "op": "offer"}, "done")
    checks.eq(asked["t"], "done", f"{mover.label} asks for a takeback")
    await until_offers(waiter, game, lambda o: o.get("takeback") == state["to_move"])
    checks.ok(True, f"{waiter.label} sees the takeback asked on the other server")
    accepted = await waiter.request({"t": "takeback", "game": game, "op": "accept"}, "done")
    checks.eq(accepted["t"], "done", f"{waiter.label} accepts it on the other server")
    back = await mover.expect(lambda m: m.get("game") == game and m["t"] in ("snapshot", "update")
                              and m.get("ply") == 0 and m["v"] > moved.get("v", 0),
                              "the takeback")
    checks.eq(back["ply"], 0, "the move is taken back on the asker's server")
    again = await waiter.request({"t": "takeback", "game": game, "op": "accept"}, "done")
    checks.eq(again.get("code"), "no-offer", "an accept without a live offer is refused")

    offered = await alice.request({"t": "draw", "game": game, "op": "offer"}, "done")
    checks.eq(offered["t"], "done", "alice offers a draw on server a")
    await until_offers(bob, game, lambda o: o.get("draw") == [0])
    checks.ok(True, "bob sees the draw offer on server b")
    mine = await mover.state_at(game, v=offered.get("v", 0))
    replay = await mover.request({"t": "move", "game": game, "ply": 0,
                                  "move": mine["legal"][0]["text"]}, "ack")
    checks.eq(replay["t"], "ack", "a move (which withdraws the offer)")
    await bob.state_at(game, ply=1)
    late = await bob.request({"t": "draw", "game": game, "op": "accept"}, "done")
    checks.eq(late.get("code"), "no-offer", "an offer is gone after a move, across servers")
    await alice.request({"t": "draw", "game": game, "op": "offer"}, "done")
    await until_offers(bob, game, lambda o: o.get("draw") == [0])
    drawn = await bob.request({"t": "draw", "game": game, "op": "accept"}, "done")
    checks.eq(drawn["t"], "done", "bob accepts the draw on server b")
    over = await alice.state_at(game, ply=1 << 40)  # the end
    checks.eq(over.get("result", {}).get("reason"), "agreement", "drawn by agreement")

    re = await alice.request({"t": "rematch", "game": game}, "created")
    checks.eq(re["t"], "created", "alice asks for a rematch on server a")
    notice = await bob.expect(lambda m: m["t"] == "rematch" and m.get("game") == game,
                              "the rematch notice")
    checks.eq(notice.get("rematch"), re.get("game"), "the rematch notice reaches server b")
    same = await bob.request({"t": "rematch", "game": game}, "created")
    checks.eq(same.get("game"), re.get("game"), "a rematch asked on server b is the same game")
    await alice.drain(0.1)
    await bob.drain(0.1)
    run_checker(checks, args.checker, a, game, [(alice, 0), (bob, 1)], a.dir,
                "offers across servers")
    return alice, bob, re["game"]


async def claim_across(checks, args, a, b, alice, bob, game):
    """The rematch: bob (server b) sits in seat 0, alice (server a) in seat 1. Until he joins,
    bob watches it as a spectator (his seat is only reserved): his frames count from the join."""
    seated_from = len(bob.frames)
    joined = await bob.request({"t": "join", "game": game}, "joined")
    checks.eq(joined["t"], "joined", "bob takes his seat in the rematch")
    checks.ok(await until_connected(alice, game, 0, True), "alice sees bob connected")
    bob_lobby = Client(b, "bob-lobby")
    await bob_lobby.connect()
    hello = await bob_lobby.hello(bob.token)
    checks.eq(hello.get("user"), bob.user, "bob's second connection, not watching the game")
    await bob.close()
    checks.ok(await until_connected(alice, game, 0, False),
              "bob's seat shows disconnected once he closes the game's connection")
    await asyncio.sleep(GRACE_S + 1)  # past the grace period, on any clock
    refused = await alice.request({"t": "claim", "game": game}, "done")
    checks.eq(refused.get("code"), "not-allowed",
              "no claim while the opponent is still connected to another server")
    await bob_lobby.close()
    won = await claim_after_grace(alice, game)
    checks.eq(won["t"], "done", "the claim wins once the opponent has left every server")
    over = await alice.state_at(game, ply=1 << 40)  # the end
    checks.eq(over.get("result", {}).get("reason"), "abandoned", "won as abandoned")
    await alice.drain(0.1)
    bob_seated = Client(b, "bob-seated")
    bob_seated.frames = bob.frames[seated_from:]
    run_checker(checks, args.checker, a, game, [(alice, 1), (bob_seated, 0)], a.dir,
                "claim across servers")
    await alice.close()


def first_seen(client, pred):
    return next((m for m in client.messages if pred(m)), None)


async def until_seen(client, pred, what, limit=60.0):
    """The first message client received (at any time) that pred accepts, waited for."""
    deadline = time.monotonic() + limit
    while not first_seen(client, pred):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{client.label}: no {what} within {limit} s")
        await client.drain(0.1)
    return first_seen(client, pred)


def ended(game):
    """The end of game as any server tells it: an update where it was ended, a snapshot (with
    what was missed) where it was caught up with."""
    return lambda m: (m.get("game") == game and m["t"] in ("update", "snapshot")
                      and m["status"] in ("over", "aborted"))


async def expiry_once(checks, args, pg, nodes):
    """--expire on a cluster: a seek whose creator is connected to another server stays; a
    game against the AI its player left ends once, on one server; then the seek goes too."""
    a, b, c = nodes
    frank = await guest(a, "frank")
    seek = (await frank.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    frank_c = Client(c, "frank-c")
    await frank_c.connect()
    await frank_c.hello(frank.token)
    await frank.close()  # his seek's server has nobody of his; server c has him
    erin, gus = await guest(b, "erin"), await guest(a, "gus")
    ai_game = (await erin.request({"t": "create", "type": "castle-danger",
                                   "seats": ["me", "ai:random"]}, "created"))["game"]
    for g in (ai_game, seek):
        await gus.request({"t": "open", "game": g}, "snapshot")
    await erin.close()
    over = await until_seen(gus, ended(ai_game), "the AI game's end")
    checks.eq(over["status"], "over", "a game against the AI left on server b expires, seen on "
              "server a")
    checks.eq(over.get("result", {}).get("reason"), "abandoned", "as abandoned")
    await gus.drain(1.5)  # one more sweep of every server
    checks.eq(gus.latest(seek).get("status"), "open",
              "a seek stays while its creator is connected to another server")
    ended_on = [n.extra[5] for n in nodes if f"game {ai_game}: ended, left for" in n.log()]
    checks.eq(len(ended_on), 1, f"the game is ended once, on one server: {ended_on}")
    row = pg.query(f"SELECT end_reason, status FROM games WHERE id = {ai_game}")[0]
    checks.eq(row[0], "abandoned", "the store holds that one ending")
    await frank_c.close()
    gone = await until_seen(gus, ended(seek), "the seek's end")
    checks.eq(gone["status"], "aborted", "the seek goes once its creator left every server")
    await gus.drain(0.1)
    run_checker(checks, args.checker, a, ai_game, [(gus, -2)], a.dir, "expired on a cluster")
    await gus.close()


async def node_killed(checks, args, a, c):
    carol, dave = await guest(a, "carol"), await guest(c, "dave")
    game = (await carol.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    await dave.request({"t": "join", "game": game}, "joined")
    checks.ok(await until_connected(carol, game, 1, True), "carol sees dave (server c)")
    c.kill9()
    checks.ok(await until_connected(carol, game, 1, False),
              "a server killed with kill -9 leaves its players connected no longer")
    won = await claim_after_grace(carol, game)
    checks.eq(won["t"], "done", "the claim wins against the player of the dead server")
    await carol.drain(0.1)
    run_checker(checks, args.checker, a, game, [(carol, 0), (dave, 1)], a.dir, "server killed")
    await carol.close()


DOWN_S = 3  # how long every server stays stopped in the whole-cluster restart


def remaining(snapshot, seat):
    return snapshot["clock"]["remaining_ms"][seat]


async def whole_restart(checks, args, pg, a, b):
    """Every server stopped (SIGTERM; PostgreSQL kept), DOWN_S seconds of downtime,
    then the servers started again one after the other: the game goes on, and its running
    clock charges nobody for the downtime, on the first server started (which charges up to
    the last sign of life) as on the next (which joins a running cluster)."""
    hal, ivy = await guest(a, "hal"), await guest(b, "ivy")
    game = (await hal.request({"t": "create", "type": "castle-danger", "seats": ["me", "open"],
                               "clock": {"kind": "live", "initial_ms": 300000}},
                              "created"))["game"]
    await ivy.request({"t": "join", "game": game}, "joined")
    state = await hal.state_at(game, ply=0)
    players = {0: hal, 1: ivy}
    mover = state["to_move"]
    waiter = 1 - mover
    mine = await players[mover].state_at(game, ply=0)
    # The waiter's clock starts at the move, at its full 300 s, at a server instant after t0.
    t0 = time.monotonic()
    await players[mover].request({"t": "move", "game": game, "ply": 0,
                                  "move": mine["legal"][0]["text"]}, "ack")
    await players[waiter].state_at(game, ply=1)
    for node in (a, b):
        checks.eq(await asyncio.to_thread(node.stop), 0, f"server {node.extra[5]} stops (whole cluster)")
    await asyncio.sleep(DOWN_S)  # the downtime itself: what must be charged to nobody
    a.start()
    b.start()
    after = {}
    for seat, node in ((0, a), (1, b)):
        client = Client(node, f"{players[seat].label}-again")
        await client.connect()
        await client.hello(players[seat].token)
        snap = await client.request({"t": "open", "game": game}, "snapshot")
        elapsed_ms = (time.monotonic() - t0) * 1000
        charged = 300000 - remaining(snap, waiter)
        checks.ok(0 <= charged <= elapsed_ms - DOWN_S * 1000 + 50,
                  f"server {node.extra[5]}: {charged} ms charged of {elapsed_ms:.0f} ms, "
                  f"{DOWN_S} s of them with every server down")
        after[seat] = client
    mover_again = after[waiter]
    st = await mover_again.state_at(game, ply=1)
    moved = await mover_again.request({"t": "move", "game": game, "ply": 1,
                                       "move": st["legal"][0]["text"]}, "ack")
    checks.eq(moved["t"], "ack", "the game goes on after the whole cluster restarted")
    await after[mover].state_at(game, ply=2)
    resigned = await after[mover].request({"t": "resign", "game": game}, "done")
    checks.eq(resigned["t"], "done", "and ends")
    for who in after.values():
        await who.state_at(game, ply=1 << 40)
        await who.drain(0.1)
    viewers = [(hal, 0), (ivy, 1), (after[0], 0), (after[1], 1)]
    run_checker(checks, args.checker, a, game, viewers, a.dir, "whole cluster restarted")
    for who in after.values():
        await who.close()


async def revoked_across(checks, a, b, c):
    rita = await guest(a, "rita")
    await rita.request({"t": "register", "name": "Rita", "password": PASSWORD}, "registered")
    tab = Client(b, "rita-tab-b")  # another page of the same browser, on server b
    await tab.connect()
    await tab.hello(rita.token)
    phone, _ = await login(b, "rita-phone-b", "rita", PASSWORD)
    laptop, _ = await login(c, "rita-laptop-c", "rita", PASSWORD)
    for who in (rita, tab, phone, laptop):
        checks.ok(await identified(who), f"{who.label} is logged in")
    done = await rita.request({"t": "password", "old": PASSWORD, "new": NEW_PASSWORD},
                              "done")
    checks.eq((done["t"], done.get("logged_out")), ("done", 0),
              "a password change on server a: no other session of Rita's there")
    for who in (phone, laptop):
        await told_logged_out(checks, who, " (a password change on another server)")
    checks.ok(await identified(tab), "the page on b with the asking page's token stays in")
    checks.ok(await identified(rita), "the asking page stays in")
    await rita.request({"t": "logout"}, "logged-out")
    await told_logged_out(checks, tab, " (a logout with its token on server a)")
    for who, node in ((phone, c), (laptop, b), (tab, c)):
        again = Client(node, f"again-{who.label}")
        await again.connect()
        reply = await again.request({"t": "hello", "proto": 1, "token": who.token}, "welcome")
        checks.eq(reply["t"], "error", f"{who.label}'s token is refused on server "
                                       f"{node.extra[5]}")
        await again.close()
    for who in (rita, tab, phone, laptop):
        await who.close()


async def main():
    args = arguments()
    pg = server_or_skip()
    checks = Checks()
    nodes = []
    try:
        pg.init()
        nodes = [start_node(args, pg, name) for name in ("a", "b", "c")]
        a, b, c = nodes

        async def two_players():
            alice, bob, rematch = await offers_and_rematch(checks, args, a, b)
            await claim_across(checks, args, a, b, alice, bob, rematch)

        # Independent games and users: played at the same time (the waits overlap).
        await asyncio.gather(two_players(), expiry_once(checks, args, pg, nodes))
        await revoked_across(checks, a, b, c)
        await node_killed(checks, args, a, c)
        await whole_restart(checks, args, pg, a, b)
        for node in (a, b):
            checks.eq(await asyncio.to_thread(node.stop), 0, f"server {node.extra[5]} exits 0 on SIGTERM")
    finally:
        for node in nodes:
            if node.proc:
                node.kill9()
        pg.destroy()
    checks.finish()


asyncio.run(main())
