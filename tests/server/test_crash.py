"""kill -9 mid-game, then a restart on the same database: no acknowledged move is lost (the
server commits before it acknowledges), both players resume their seats, the clock of the
player to move is not charged for the time the server was down, and the game then finishes
with every frame (before and after the crash) matching the referee."""

import asyncio
import os
import random
import time

from rsclient import Checks, Client, Server, arguments, play_out, run_checker, guest


async def play_fast(game, players, rng, acked):
    """Both players move as fast as acks come back, recording (ply, text) of each ack."""
    try:
        state = await players[0].state_at(game, ply=0)
        while state["status"] == "live":
            mover = players[state["to_move"]]
            mine = await mover.state_at(game, ply=state["ply"])
            text = rng.choice(mine["legal"])["text"]
            ack = await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                       "move": text}, "ack")
            if ack["t"] != "ack":
                return
            acked.append((mine["ply"], text, state["to_move"]))
            state = await players[0].state_at(game, ply=mine["ply"] + 1)
    except Exception:
        return  # the server died under us


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "21")))
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    alice = await guest(server, "alice")
    bob = await guest(server, "bob")
    game = (await alice.request({"t": "create", "type": "king-of-danger", "seats": ["me", "open"],
                                 "clock": {"kind": "live", "initial_ms": 3600000,
                                           "increment_ms": 0}},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    watcher = await guest(server, "watcher")
    acked = []
    player = asyncio.ensure_future(play_fast(game, {0: alice, 1: bob}, rng, acked))
    # Kill while moves are in flight: after a random number of acks, with the next move
    # already on its way.
    target = rng.randint(5, 40)
    while len(acked) < target and not player.done():
        await asyncio.sleep(0.002)
    # The clocks as the server sends them (remaining_ms at the moment of sending), asked for
    # just before the kill: sent after asked_at, so at most killed_at - asked_at of anyone's
    # time ran before the crash, however slowly the frames travelled. Moves may still land
    # in between: without increments the seats' times summed lose exactly the time a clock
    # ran, whoever's turn it was.
    asked_at = time.monotonic()
    last = await watcher.request({"t": "open", "game": game, "v": 0}, "snapshot")
    server.kill9()
    killed_at = time.monotonic()
    await player
    checks.ok(len(acked) >= target, f"moves were acknowledged before the kill ({len(acked)})")
    if not checks.eq(last["status"], "live", "the game was in progress when the server died"):
        checks.finish()
    left_before = sum(last["clock"]["remaining_ms"])
    await asyncio.sleep(3.0)  # the server is down for 3 s
    restarted_at = time.monotonic()
    server.start()
    a2, b2 = Client(server, "alice-2"), Client(server, "bob-2")
    for old, new in ((alice, a2), (bob, b2)):
        await new.connect()
        welcome = await new.hello(old.token)
        checks.eq(welcome["t"], "welcome", f"{old.label} comes back with the token")
    snap_a = await a2.request({"t": "open", "game": game, "v": 0}, "snapshot")
    snapped_at = time.monotonic()
    snap_b = await b2.request({"t": "open", "game": game, "v": 0}, "snapshot")
    checks.eq((snap_a["you"], snap_b["you"]), (0, 1), "both seats resume")
    checks.ok(snap_a["ply"] >= len(acked),
              f"no acknowledged move is lost: {len(acked)} acked, {snap_a['ply']} stored")
    texts = {}
    for snap, seat in ((snap_a, 0), (snap_b, 1)):
        for m in snap.get("missed", []):
            if m["seat"] == seat:
                texts[m["ply"]] = m["move"]
    lost = [(ply, text) for ply, text, seat in acked if texts.get(ply) != text]
    checks.eq(lost, [], "every acknowledged move is stored as it was played")
    if checks.eq(snap_a["status"], "live", "the game is still live after the restart"):
        left_after = sum(snap_a["clock"]["remaining_ms"])
        up_before = (killed_at - asked_at) * 1000
        up_after = (snapped_at - restarted_at) * 1000
        # 1000 ms for rounding to whole milliseconds and the two clocks (monotonic and wall)
        # the server charges with; the 3 s of downtime stand well outside it.
        checks.ok(left_after >= left_before - up_before - up_after - 1000,
                  f"the 3 s the server was down are not charged: {left_before} ms before, "
                  f"{left_after} ms after ({up_before:.0f} + {up_after:.0f} ms of uptime)")
        checks.ok(left_after <= left_before, "the clocks did not gain time")
    final = await play_out(checks, game, {0: a2, 1: b2}, rng, label="after restart")
    checks.eq(final["status"], "over", "the game finishes after the restart")
    await a2.drain(0.1)
    await b2.drain(0.1)
    run_checker(checks, args.checker, server, game, [(alice, 0), (bob, 1), (a2, 0), (b2, 1)],
                server.dir, "crash")
    checks.eq(await asyncio.to_thread(server.stop), 0, "the restarted server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
