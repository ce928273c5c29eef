"""Reconnect mid-game: a player's connection drops, the opponent sees them gone and plays on;
the player comes back with the token on a new connection and gets the seat, the view and
the moves missed since the version they last saw, and the last move (also on an open without
a version, as a reloaded page does); the opponent sees them back. The game is
then finished and every frame of every connection is checked against the referee."""

import asyncio
import os
import random

from rsclient import Checks, Client, Server, arguments, guest, play_out, run_checker


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "8")))
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        alice = await guest(server, "alice")
        bob = await guest(server, "bob")
        game = (await alice.request({"t": "create", "type": "castle-danger",
                                     "seats": ["me", "open"], "options": {"turn-limit": 60}},
                                    "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        # A few moves with both connected, until it is alice's turn again.
        state = await alice.state_at(game, ply=0)
        while state["ply"] < 4 or state["to_move"] != 0:
            seat = state["to_move"]
            mover = alice if seat == 0 else bob
            mine = await mover.state_at(game, ply=state["ply"])
            await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                 "move": rng.choice(mine["legal"])["text"]}, "ack")
            state = await alice.state_at(game, ply=mine["ply"] + 1)
            await bob.state_at(game, ply=mine["ply"] + 1)
        seen_v = bob.latest(game)["v"]
        token = bob.token
        await bob.close()
        presence = await alice.expect(lambda m: m["t"] == "presence" and m["game"] == game
                                      and not m["seats"][1]["connected"], "bob gone")
        checks.ok(not presence["seats"][1]["connected"], "alice sees bob disconnected")
        # Alice plays on while Bob is away (her whole turns).
        played = 0
        state = alice.latest(game)
        while played < 12 and state["status"] == "live":
            if state["to_move"] != 0:
                break
            await alice.request({"t": "move", "game": game, "ply": state["ply"],
                                 "move": rng.choice(state["legal"])["text"]}, "ack")
            state = await alice.state_at(game, ply=state["ply"] + 1)
            played += 1
        checks.ok(played > 0, "alice moved while bob was away")
        back = Client(server, "bob-again")
        await back.connect()
        welcome = await back.hello(token)
        checks.eq(welcome["user"]["id"], bob.user["id"], "the token brings back the same user")
        snap = await back.request({"t": "open", "game": game, "v": seen_v}, "snapshot")
        checks.eq(snap["you"], 1, "the seat comes back")
        checks.eq(snap["ply"], state["ply"], "at the current ply")
        missed = snap.get("missed", [])
        checks.eq(len(missed), played, "with every move missed since the version last seen")
        checks.ok(all("move" not in m for m in missed),
                  "missed moves of the opponent do not show its notation")
        # The snapshot names the last move as this seat was told it (a page reloaded marks
        # it); the checker compares its events with the referee's for that viewer.
        last = snap.get("last")
        checks.eq(last and last["ply"], state["ply"] - 1, "the snapshot names the last move")
        checks.eq(last, missed[-1] if missed else None,
                  "the last move is the last missed move, told the same way")
        fresh = Client(server, "bob-reload")
        await fresh.connect()
        await fresh.hello(token)
        reloaded = await fresh.request({"t": "open", "game": game}, "snapshot")
        checks.ok("missed" not in reloaded, "an open without a version lists no missed moves")
        checks.eq(reloaded.get("last"), last, "but still names the last move")
        await fresh.close()
        presence = await alice.expect(lambda m: m["t"] == "presence" and m["game"] == game
                                      and m["seats"][1]["connected"], "bob back")
        checks.ok(presence["seats"][1]["connected"], "alice sees bob connected again")
        final = await play_out(checks, game, {0: alice, 1: back}, rng, label="after reconnect")
        checks.eq(final["status"], "over", "the game is finished after the reconnect")
        await alice.drain(0.1)
        await back.drain(0.1)
        run_checker(checks, args.checker, server, game,
                    [(alice, 0), (bob, 1), (back, 1), (fresh, 1)], server.dir, "reconnect")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
