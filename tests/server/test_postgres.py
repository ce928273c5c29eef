"""The server on PostgreSQL (--store postgres://..., docs/cluster.md), against a PostgreSQL
server this test starts itself (pgserver.py): the store test suite (test_server_store) over
PostgreSQL; games played through the real server, which is killed with kill -9 mid-game and
restarted, losing no acknowledged move, every frame matching the referee; PostgreSQL
stopped under the running server: moves are refused with an error naming the store
unavailable, never acknowledged, and accepted again once it is back; and a server started
while PostgreSQL is down waits, answering /healthz 503 with why and refusing WebSocket
upgrades with 503, then starts once PostgreSQL is up (issue 47). Skips (exit 77) only where
PostgreSQL is not installed."""

import asyncio
import os
import random
import subprocess
import sys
import threading
import time

from pgserver import server_or_skip
from rsclient import (Checks, Client, Server, arguments, guest, play_out, raw_upgrade,
                      run_checker, restartable_port)


async def play_fast(game, players, rng, acked):
    """Both players move as fast as acks come back, recording (ply, text, seat) of each ack."""
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


def store_suite(checks, binary, pg):
    suite = os.path.join(os.path.dirname(os.path.abspath(binary)), "test_server_store")
    if not os.access(suite, os.X_OK):
        checks.ok(False, f"the store test suite is built next to ramparts: {suite}")
        return
    result = subprocess.run([suite], capture_output=True, text=True,
                            env=dict(os.environ, RAMPARTS_TEST_STORE=pg.address))
    checks.eq(result.returncode, 0, "the store test suite passes over PostgreSQL")
    if result.returncode != 0:
        print(result.stdout, result.stderr, file=sys.stderr)


async def new_game(alice, bob, kind="king-of-danger"):
    game = (await alice.request({"t": "create", "type": kind, "seats": ["me", "open"],
                                 "clock": {"kind": "live", "initial_ms": 3600000}},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    return game


async def kill_and_restart(checks, args, server, rng):
    alice = await guest(server, "alice")
    bob = await guest(server, "bob")
    game = await new_game(alice, bob)
    acked = []
    player = asyncio.ensure_future(play_fast(game, {0: alice, 1: bob}, rng, acked))
    target = rng.randint(5, 30)
    while len(acked) < target and not player.done():
        await asyncio.sleep(0.002)
    server.kill9()
    await player
    checks.ok(len(acked) >= target, f"moves were acknowledged before the kill ({len(acked)})")
    server.start()
    a2, b2 = Client(server, "alice-2"), Client(server, "bob-2")
    for old, new in ((alice, a2), (bob, b2)):
        await new.connect()
        welcome = await new.hello(old.token)
        checks.eq(welcome["t"], "welcome", f"{old.label} comes back with the token")
    snap_a = await a2.request({"t": "open", "game": game, "v": 0}, "snapshot")
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
    final = await play_out(checks, game, {0: a2, 1: b2}, rng, label="after restart")
    checks.eq(final["status"], "over", "the game finishes after the restart")
    await a2.drain(0.1)
    await b2.drain(0.1)
    run_checker(checks, args.checker, server, game, [(alice, 0), (bob, 1), (a2, 0), (b2, 1)],
                server.dir, "postgres-crash")
    return a2, b2


async def postgres_down(checks, args, server, pg, alice, bob, rng):
    game = await new_game(alice, bob, "walls-and-armies")
    players = {0: alice, 1: bob}
    state = await alice.state_at(game, ply=0)
    pg.stop("immediate")
    mover = players[state["to_move"]]
    mine = await mover.state_at(game, ply=state["ply"])
    text = rng.choice(mine["legal"])["text"]
    move = {"t": "move", "game": game, "ply": mine["ply"], "move": text}
    refused = await mover.request(move, "ack")
    checks.eq(refused["t"], "error", "a move while PostgreSQL is down is not acknowledged")
    checks.eq(refused.get("code"), "unavailable", f"the error says so: {refused}")
    pg.start()
    deadline = time.monotonic() + 60
    reply = refused
    while reply["t"] != "ack" and time.monotonic() < deadline:
        await asyncio.sleep(0.3)
        reply = await mover.request(move, "ack")
    checks.eq(reply["t"], "ack", "the move is accepted once PostgreSQL is back")
    for c in players.values():  # both have the move before the game goes on
        await c.state_at(game, ply=mine["ply"] + 1)
    final = await play_out(checks, game, players, rng, label="after PostgreSQL restart")
    checks.eq(final["status"], "over", "the game finishes after PostgreSQL's restart")
    await alice.drain(0.1)
    await bob.drain(0.1)
    run_checker(checks, args.checker, server, game, [(alice, 0), (bob, 1)], server.dir,
                "postgres-down")


async def waits_for_postgres(checks, args, pg):
    """Issue 47: a server that cannot reach PostgreSQL at start does not exit: it waits and
    tries again, answering /healthz with 503 and why (so HAProxy sends it nothing) and
    refusing WebSocket upgrades with 503, and starts once PostgreSQL is up."""
    pg.stop()
    port = restartable_port()
    server = Server(args.ramparts, extra=["--rate", "100000", "--store", pg.address])
    started = []
    starter = threading.Thread(target=lambda: started.append(server.start(port)), daemon=True)
    starter.start()
    server.port = port
    deadline = time.monotonic() + 120
    status, health = None, {}
    while time.monotonic() < deadline and starter.is_alive():
        try:
            status, health = server.http_json("/healthz")
            if status == 503:
                break
        except OSError:
            pass  # not listening yet
        await asyncio.sleep(0.2)
    checks.eq(status, 503, f"/healthz answers 503 while the database is out of reach: {health}")
    checks.ok("waiting for the database" in health.get("starting", ""),
              f"/healthz says what the server waits for: {health}")
    checks.eq(health.get("ok"), False, "/healthz says not ok")
    checks.eq(await raw_upgrade(port, "127.0.0.1"), 503,
              "a WebSocket upgrade is refused with 503 while starting")
    pg.start()
    starter.join(180)
    checks.ok(bool(started), "the server started once PostgreSQL was back")
    if started:
        status, health = server.http_json("/healthz")
        checks.eq((status, health.get("ok")), (200, True), "/healthz is 200 and ok once started")
        c = await guest(server, "late")
        checks.ok(c.user is not None, "a client is served once started")
        await c.close()
        checks.ok("trying again in" in server.log(), "the log says it waits and tries again")
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")


async def main():
    args = arguments()
    pg = server_or_skip()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "25")))
    try:
        pg.init()
        store_suite(checks, args.ramparts, pg)
        server = Server(args.ramparts, extra=["--rate", "100000", "--store", pg.address]).start()
        alice, bob = await kill_and_restart(checks, args, server, rng)
        await postgres_down(checks, args, server, pg, alice, bob, rng)
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
        checks.ok(not os.path.exists(server.db), "nothing was written to the SQLite default")
        await waits_for_postgres(checks, args, pg)
    finally:
        pg.destroy()
    checks.finish()


asyncio.run(main())
