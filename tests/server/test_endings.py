"""Every way an online game ends is in its record (issue 40): for every game of the registry a
game ended by its rules, by a resignation (against the AI, as a new user would try it), on
time, abandoned (claimed by the one who stayed, and left against the AI until it expires) and,
where the game can end drawn, by an agreed draw. Each record is downloaded from the HTTP API
and read back by the engine's record parser through `ramparts replay`:

- it replays and verifies (exit 0), its [result] is the match's (`replay --json` status) and
  names the ending (`over resigned 1 ...`, `over time 0 ...`, `over abandoned ...`,
  `over agreed ...`), and its history closes with that ending's line ([resign 1],
  [end time 0]...);
- the result's shares are the ones the server sent its players;
- `replay --seat N --show` tells the whole game from every seat and the spectator's, and its
  last line says how it ended;
- every frame each player and the spectator received matches the referee (the frames
  checker reads the same record)."""

import asyncio
import json
import os
import random
import subprocess
import tempfile

from rsclient import (Checks, Server, arguments, claim_after_grace, guest, play_out,
                      registry_games, run_checker)

GRACE_S = 1
EXPIRE_S = 2
# Options that make a game end soon by its rules (a turn limit), where it would run long.
SHORT = {"castle-danger": {"turn-limit": 2}, "walls-and-armies": {"turn-cap": 3}}
# What `replay --show`'s last line says for each stored reason.
SAYS = {"resign": "resigns", "time": "ran out of time", "abandoned": "left the game",
        "agreement": "agreed a draw"}


def tag(kind):
    """A short name for a game in labels and request ids: its initials ("kd")."""
    return "".join(word[0] for word in kind.split("-") if word not in ("at", "the", "of"))


def replay(binary, *args):
    r = subprocess.run([binary, "replay", *args], capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1"))
    return r.returncode, r.stdout, r.stderr


def history_lines(record):
    """The record's lines that are not comments nor headers of the start."""
    out = []
    for line in record.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.split()[0][1:] in (
                "game", "seed", "options", "seat", "position", "result"):
            continue
        out.append(line)
    return out


# (game, label, result as the players were sent it) of every finished game, for the restart.
FINISHED = []


def check_record(checks, server, binary, game, label, reason, result, players, workdir):
    """The stored record of a finished game, read back by the engine."""
    FINISHED.append((game, label, result))
    status, _, record = server.http(f"/api/v1/games/{game}/record")
    if not checks.eq(status, 200, f"{label}: the record downloads"):
        return
    path = os.path.join(workdir, f"{label.replace(' ', '-')}.rec")
    with open(path, "w") as f:
        f.write(record)
    stated = [line for line in record.splitlines() if line.startswith("[result ")]
    checks.eq(len(stated), 1, f"{label}: one [result] line")
    stated = stated[0][len("[result "):-1] if stated else ""
    checks.ok(stated.startswith("over "), f"{label}: the record is of a finished game: {stated}")
    word = {"resign": "resigned", "time": "time", "abandoned": "abandoned",
            "agreement": "agreed"}.get(reason)
    last = history_lines(record)[-1:]
    if word:
        checks.ok(stated.startswith(f"over {word}"), f"{label}: [result] names the ending "
                                                     f"'{word}': {stated}")
        line = "[resign " if reason == "resign" else f"[end {word}"
        checks.ok(last and last[0].startswith(line), f"{label}: the history ends with {line}...]:"
                                                     f" {last}")
    else:
        checks.ok(stated.startswith("over winner") or stated.startswith("over shared"),
                  f"{label}: a rules ending: {stated}")
    shares = [float(x) for x in stated.split(" returns ")[1].split()] if " returns " in stated \
        else []
    checks.eq(shares, [float(x) for x in result.get("returns", [])],
              f"{label}: the record's shares are the ones the players were sent")
    rc, out, err = replay(binary, path, "--json")
    checks.eq(rc, 0, f"{label}: ramparts replay verifies the record ({err.strip()})")
    if rc == 0:
        checks.eq(json.loads(out)["status"], stated, f"{label}: the replay ends as the record says")
    for viewer in [str(s) for s in range(players)] + ["spectator"]:
        rc, out, err = replay(binary, path, "--seat", viewer, "--show")
        checks.eq(rc, 0, f"{label}: replay --seat {viewer} --show ({err.strip()})")
        lines = [line for line in out.splitlines() if line.strip()]
        end = lines[-4:] if lines else []
        if reason in SAYS:
            checks.ok(any(SAYS[reason] in line for line in end),
                      f"{label}: seat {viewer}'s replay says the game ended ({reason}): {end}")
    return path


async def finished(client, game):
    """The update (or snapshot) that told client the game is over, already received (a reply
    waited for may have come after it) or waited for."""
    def over(m):
        return m.get("game") == game and m["t"] in ("update", "snapshot") and \
            m["status"] == "over"
    for m in client.messages:
        if over(m):
            return m
    return await client.expect(over, f"game {game} over")


async def two_people(server, kind, label, extra=None):
    """Two guests at a new game of `kind`, and a spectator watching it."""
    alice = await guest(server, f"{label}-alice")
    bob = await guest(server, f"{label}-bob")
    spectator = await guest(server, f"{label}-spectator")
    create = {"t": "create", "type": kind, "seats": ["me", "open"]}
    create.update(extra or {})
    created = await alice.request(create, "created")
    game = created["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await spectator.request({"t": "open", "game": game}, "snapshot")
    return game, {0: alice, 1: bob}, spectator


async def by_rules(checks, server, args, kind, rng, workdir):
    label = f"{tag(kind)} rules"
    extra = {"options": SHORT[kind]} if kind in SHORT else None
    game, players, spectator = await two_people(server, kind, label, extra)
    state = await play_out(checks, game, players, rng, watchers=[spectator], label=label)
    checks.eq(state["status"], "over", f"{label}: the game ends by its rules")
    check_record(checks, server, args.ramparts, game, label, "rules", state.get("result", {}), 2,
                 workdir)
    run_checker(checks, args.checker, server, game,
                [(players[0], 0), (players[1], 1), (spectator, -2)], workdir, label)


async def resigned(checks, server, args, kind, workdir):
    """The issue's example: a new user's game against the AI, then `resign`."""
    label = f"{tag(kind)} resign"
    me = await guest(server, label)
    created = await me.request({"t": "create", "type": kind, "seats": ["me", "ai:random"]},
                               "created")
    game = created["game"]
    await me.state_at(game, ply=0)
    reply = await me.request({"t": "resign", "game": game}, "done")
    checks.eq(reply["t"], "done", f"{label}: the resignation is accepted")
    over = await finished(me, game)
    checks.eq(over["result"]["reason"], "resign", f"{label}: over by resignation")
    check_record(checks, server, args.ramparts, game, label, "resign", over["result"], 2, workdir)
    run_checker(checks, args.checker, server, game, [(me, 0)], workdir, label)


async def on_time(checks, server, args, kind, workdir):
    label = f"{tag(kind)} time"
    game, players, spectator = await two_people(
        server, kind, label, {"clock": {"kind": "live", "initial_ms": 1500, "increment_ms": 0}})
    over = await finished(spectator, game)
    checks.eq(over["result"]["reason"], "time", f"{label}: the flag fell")
    check_record(checks, server, args.ramparts, game, label, "time", over["result"], 2, workdir)
    run_checker(checks, args.checker, server, game,
                [(players[0], 0), (players[1], 1), (spectator, -2)], workdir, label)


async def claimed(checks, server, args, kind, workdir):
    label = f"{tag(kind)} claim"
    game, players, spectator = await two_people(server, kind, label)
    await players[1].close()
    reply = await claim_after_grace(players[0], game)
    checks.eq(reply["t"], "done", f"{label}: the claim is granted ({reply})")
    over = await finished(spectator, game)
    checks.eq(over["result"]["reason"], "abandoned", f"{label}: abandoned")
    checks.eq(over["result"]["returns"], [1.0, 0.0], f"{label}: the one who left loses")
    check_record(checks, server, args.ramparts, game, label, "abandoned", over["result"], 2,
                 workdir)
    run_checker(checks, args.checker, server, game, [(players[0], 0), (spectator, -2)], workdir,
                label)


async def expired(checks, server, args, kind, workdir):
    label = f"{tag(kind)} expire"
    me = await guest(server, label)
    spectator = await guest(server, f"{label}-spectator")
    game = (await me.request({"t": "create", "type": kind, "seats": ["me", "ai:random"]},
                             "created"))["game"]
    await spectator.request({"t": "open", "game": game}, "snapshot")
    await me.close()
    over = await finished(spectator, game)
    checks.eq(over["result"]["reason"], "abandoned", f"{label}: left against the AI")
    check_record(checks, server, args.ramparts, game, label, "abandoned", over["result"], 2,
                 workdir)
    run_checker(checks, args.checker, server, game, [(spectator, -2)], workdir, label)


async def agreed(checks, server, args, kind, workdir):
    label = f"{tag(kind)} draw"
    game, players, spectator = await two_people(server, kind, label)
    snapshot = await players[0].state_at(game, ply=0)
    offer = await players[0].request({"t": "draw", "game": game, "op": "offer"}, "done")
    if not snapshot["allowed"]["draw"]:
        checks.eq(offer.get("code"), "not-allowed", f"{label}: no draw where the game has none")
        return
    checks.eq(offer["t"], "done", f"{label}: a draw is offered")
    await players[1].request({"t": "draw", "game": game, "op": "accept"}, "done")
    over = await finished(spectator, game)
    checks.eq(over["result"]["reason"], "agreement", f"{label}: drawn by agreement")
    check_record(checks, server, args.ramparts, game, label, "agreement", over["result"], 2,
                 workdir)
    run_checker(checks, args.checker, server, game,
                [(players[0], 0), (players[1], 1), (spectator, -2)], workdir, label)


async def main():
    args = arguments()
    checks = Checks()
    workdir = tempfile.mkdtemp(prefix="ramparts-endings-")
    server = Server(args.ramparts, extra=["--rate", "100000", "--max-per-ip", "1000", "--guests-per-ip", "100000", "--grace", str(GRACE_S),
                                          "--expire", str(EXPIRE_S)]).start()
    rng = random.Random(40)
    try:
        for kind in registry_games(args.ramparts):
            await by_rules(checks, server, args, kind, rng, workdir)
            await resigned(checks, server, args, kind, workdir)
            await on_time(checks, server, args, kind, workdir)
            await claimed(checks, server, args, kind, workdir)
            await expired(checks, server, args, kind, workdir)
            await agreed(checks, server, args, kind, workdir)
        # A restart: each finished game, read back from the store, ends again as it ended.
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
        server.start()
        for game, label, result in FINISHED:
            status, summary = server.http_json(f"/api/v1/games/{game}")
            checks.eq(status, 200, f"{label}: the finished game is served after a restart")
            checks.eq(summary.get("result"), result, f"{label}: with the result it had")
            status, replayed = server.http_json(f"/api/v1/games/{game}/replay?viewer=spectator")
            checks.eq(replayed.get("result"), result, f"{label}: and its replay too")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
