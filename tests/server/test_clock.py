"""A clock runs out: in a live game with 1.5 s on each clock nobody moves; the server's own
timer flags the player to move (no client has to claim), both seats and a spectator get the
result, the record says so. A correspondence game shows its time per move."""

import asyncio

from rsclient import Checks, Server, arguments, guest


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts).start()
    try:
        alice = await guest(server, "alice")
        bob = await guest(server, "bob")
        spectator = await guest(server, "spectator")
        game = (await alice.request({"t": "create", "type": "walls-and-armies",
                                     "seats": ["me", "open"],
                                     "clock": {"kind": "live", "initial_ms": 1500,
                                               "increment_ms": 0}}, "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        await spectator.request({"t": "open", "game": game}, "snapshot")
        # The first frame of the live game (the join's), not the latest: on a slow machine the
        # flag may already have fallen when this is read.
        start = await alice.expect(lambda m: m.get("game") == game and m["t"] in
                                   ("snapshot", "update") and m["status"] == "live",
                                   "the game live")
        checks.eq(start["clock"]["kind"], "live", "a live clock")
        checks.ok(0 < start["clock"]["remaining_ms"][0] <= 1500, "seat 0's time is running")
        mover = start["to_move"]
        for c in (alice, bob, spectator):
            flag = await c.expect(lambda m: m.get("game") == game and m["t"] == "update"
                                  and m["cause"]["kind"] == "flag", "the flag", timeout=120)
            checks.eq(flag["status"], "over", f"{c.label}: the game is over")
            checks.eq(flag["result"]["reason"], "time", f"{c.label}: on time")
            expected = [0.0, 1.0] if mover == 0 else [1.0, 0.0]
            checks.eq(flag["result"]["returns"], expected, f"{c.label}: the flagged seat loses")
            checks.eq(flag["clock"]["remaining_ms"][mover], 0, f"{c.label}: its time shows 0")
        status, _, record = server.http(f"/api/v1/games/{game}/record")
        checks.ok(status == 200 and "ran out of time" in record, "the record says how it ended")
        late = await alice.request({"t": "move", "game": game, "ply": 0, "move": "x"}, "ack")
        checks.eq(late.get("code"), "game-over", "a move after the flag is refused")
        corr = await alice.request({"t": "create", "type": "castle-danger",
                                    "seats": ["me", "open"],
                                    "clock": {"kind": "correspondence", "days": 3}}, "created")
        snap = await alice.state_at(corr["game"]) if False else None
        lobby = await bob.request({"t": "lobby"}, "lobby")
        listed = [g for g in lobby["open"] if g["game"] == corr["game"]]
        checks.ok(listed and listed[0]["clock"] == {"kind": "correspondence",
                                                     "per_move_ms": 3 * 86400000,
                                                     "remaining_ms": [259200000, 259200000],
                                                     "running": None},
                  f"a correspondence game lists its days per move: {listed}")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
