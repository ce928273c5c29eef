"""Two people play a full game of every game the server offers (/api/v1/types) while a
spectator watches; afterwards every frame each seat and the spectator received is checked
against the referee (the finished game's record replayed through the engine: views, events,
legal lists, notation, seed, and no secret name ever sent), and the record verifies with
`ramparts replay`."""

import asyncio
import json
import os
import random
import subprocess

from rsclient import (Checks, Server, arguments, checker_catches_leaks, guest, play_out,
                      registry_games, run_checker)

# Castle Danger has no turn limit outside tournaments (CD-16): random players get one, so
# the game is sure to end.
OPTIONS = {"castle-danger": {"turn-limit": 60}}


async def one_game(checks, server, args, game_type, rng, hidden):
    label = game_type
    alice = await guest(server, "alice")
    bob = await guest(server, "bob")
    spectator = await guest(server, "spectator")
    created = await alice.request({"t": "create", "type": game_type, "seats": ["me", "open"],
                                   "options": OPTIONS.get(game_type, {})}, "created")
    if not checks.eq(created["t"], "created", f"{label}: game created"):
        print(created)
        return
    game = created["game"]
    joined = await bob.request({"t": "join", "game": game}, "joined")
    checks.eq((joined["t"], joined.get("seat")), ("joined", 1), f"{label}: bob joins seat 1")
    opened = await spectator.request({"t": "open", "game": game}, "snapshot")
    checks.eq(opened.get("you"), None, f"{label}: the spectator sits in no seat")
    start = await alice.state_at(game, ply=0)
    checks.eq(start["status"], "live", f"{label}: the game starts when both seats are taken")
    chat = await bob.request({"t": "chat", "game": game, "text": "good luck"}, "done")
    checks.eq(chat["t"], "done", f"{label}: a chat line is accepted")
    final = await play_out(checks, game, {0: alice, 1: bob}, rng, watchers=[spectator],
                           label=label)
    checks.eq(final["status"], "over", f"{label}: the game ends")
    checks.ok(final.get("result", {}).get("reason") == "rules",
              f"{label}: it ends by the rules: {final.get('result')}")
    returns = final.get("result", {}).get("returns", [])
    checks.ok(len(returns) == 2 and abs(sum(returns) - 1) < 1e-9,
              f"{label}: returns share one win: {returns}")
    for c in (alice, bob, spectator):
        await c.drain(0.1)
    workdir = server.dir
    record = run_checker(checks, args.checker, server, game,
                         [(alice, 0), (bob, 1), (spectator, -2)], workdir, label)
    checker_catches_leaks(checks, args.checker, game, alice, spectator, workdir, label,
                          hidden)
    r = subprocess.run([args.ramparts, "replay", record], capture_output=True, text=True)
    checks.ok(r.returncode == 0, f"{label}: ramparts replay verifies the record: {r.stderr}")
    status, summary = server.http_json(f"/api/v1/games/{game}")
    checks.eq((status, summary.get("status")), (200, "over"), f"{label}: the API shows it over")
    for c in (alice, bob, spectator):
        await c.close()


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "13")))
    # Random players answer at machine speed: lift the per-connection message rate (the
    # default is tested in test_hostile.py).
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        status, types = server.http_json("/api/v1/types")
        game_types = [t["type"] for t in types]
        checks.ok(len(game_types) > 0, "the server offers some games")
        listed = subprocess.run([args.ramparts, "list", "--json"], capture_output=True,
                                text=True, check=True).stdout
        hidden = {g["id"]: g["hidden_information"] for g in json.loads(listed)}
        for game_type in game_types:
            await one_game(checks, server, args, game_type, rng, hidden[game_type])
        status, games = server.http_json("/api/v1/games?status=finished")
        checks.eq(len(games.get("finished", [])), len(game_types),
                  "the API lists every finished game")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
