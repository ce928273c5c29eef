#!/usr/bin/env python3
"""test_abuse.py — the scripted abuse that test_hostile.py (the message table, Origin and path,
a flood read in turn) leaves out, against a server with its default limits:
  - a thousand WebSocket connections from one address: exactly --max-per-ip (64) are let in,
    the others refused at the upgrade, and a place frees up once one closes;
  - half-open upgrades (a request line and part of the headers, then silence): the server
    keeps serving others and drops each within its handshake timeout (20 s at most);
  - oversized frames (1 MiB in one frame; 64 KiB in 64 fragments): `too-large`, and the
    same connection still works;
  - garbage instead of HTTP, and a write-only flood that never reads its replies: dropped
    (the flood with 1008, or 1006 when its own socket is full) while the others play on;
and through it all a game in progress is untouched: same version before and after, and it
goes on."""
import asyncio
import json
import os
import random
import socket

import websockets

from loadlib import Checks, Server, arguments, raise_fd_limit

import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rsclient import guest  # noqa: E402


async def try_ws(url):
    try:
        # A refused upgrade is answered at once; the bound is for a hang, not a busy machine.
        return await asyncio.wait_for(websockets.connect(url, max_size=None), 120)
    except Exception:
        return None


async def many_from_one_address(checks, server, already):
    socks = await asyncio.gather(*(try_ws(server.ws_url) for _ in range(1000)))
    opened = [s for s in socks if s is not None]
    checks.eq(len(opened) + already, 64, "a thousand upgrades from one address: 64 let in")
    # A place frees up once one closes: asked again until the server has seen the close (at
    # once on an idle machine; a minute is a hang).
    await opened[0].close()
    again = None
    for _ in range(120):
        again = await try_ws(server.ws_url)
        if again is not None:
            break
        await asyncio.sleep(0.5)
    checks.ok(again is not None, "a new connection is let in once one closed")
    for s in opened[1:] + ([again] if again else []):
        await s.close()
    await asyncio.sleep(0.5)


async def half_open(checks, server, players, game, rng):
    writers = []
    for _ in range(200):
        r, w = await asyncio.open_connection("127.0.0.1", server.port)
        w.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n")
        await w.drain()
        writers.append((r, w))
    # The others are served meanwhile.
    fresh = await guest(server, "during-half-open")
    pong = await fresh.request({"t": "ping"}, "pong")
    checks.eq(pong["t"], "pong", "a new client is served while 200 upgrades hang half-open")
    await fresh.close()
    # Each is dropped within the handshake timeout (20 s at most).
    async def dropped(r):
        try:
            data = await asyncio.wait_for(r.read(65536), 120)  # a hang, not a slow drop
            return data == b"" or b"HTTP/1.1 4" in data or b"HTTP/1.1 5" in data
        except (asyncio.TimeoutError, ConnectionError):
            return False
    results = await asyncio.gather(*(dropped(r) for r, _ in writers))
    checks.eq(sum(results), 200, "every half-open upgrade is dropped after the timeout")
    for _, w in writers:
        w.close()


async def oversized(checks, server):
    c = await guest(server, "big")
    await c.ws.send("{\"t\":\"chat\",\"text\":\"" + "x" * (1 << 20) + "\"}")
    m = await c.expect(lambda m: m["t"] == "error", "an error for a 1 MiB frame")
    checks.eq(m["code"], "too-large", "a 1 MiB frame is answered too-large")
    parts = ["{\"t\":\"chat\",\"text\":\""] + ["y" * 1024] * 63 + ["\"}"]
    await c.ws.send(iter(parts))  # one message in 65 fragments
    m = await c.expect(lambda m: m["t"] == "error", "an error for 64 KiB in fragments")
    checks.eq(m["code"], "too-large", "64 KiB in fragments is answered too-large")
    pong = await c.request({"t": "ping"}, "pong")
    checks.eq(pong["t"], "pong", "the same connection still works after oversized messages")
    await c.close()


def garbage(checks, server, rng):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(bytes(rng.getrandbits(8) for _ in range(4096)))
    try:
        data = s.recv(65536)
        closed = True if data == b"" else (s.recv(65536) == b"" or True)
    except (ConnectionResetError, socket.timeout):
        closed = True
    s.close()
    checks.ok(closed, "garbage instead of HTTP is answered or dropped")


async def write_flood(checks, server):
    c = await guest(server, "writer")
    code = None
    try:
        for _ in range(3000):
            await c.ws.send(json.dumps({"t": "lobby", "watch": False}))
        await asyncio.wait_for(c.ws.wait_closed(), 120)
        code = c.ws.close_code
    except websockets.ConnectionClosed as closed:
        code = closed.code
    except asyncio.TimeoutError:
        code = None
    # 1008 when the close frame gets through; a client that never reads may have filled its
    # socket so that only the TCP close arrives (1006). Either way the log says why.
    checks.ok(code in (1008, 1006), f"a flood that never reads its replies is closed ({code})")
    log = server.log()
    checks.ok("rate limited" in log,
              "the log says the flood was rate limited and dropped")


async def main():
    args = arguments()
    checks = Checks()
    raise_fd_limit(4096)
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "17")))
    server = Server(args.ramparts).start()  # default limits
    try:
        alice, bob = await guest(server, "alice"), await guest(server, "bob")
        game = (await alice.request({"t": "create", "type": "rush-the-wall",
                                     "seats": ["me", "open"]}, "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        before = await alice.state_at(game, ply=0)
        players = {0: alice, 1: bob}

        await many_from_one_address(checks, server, already=2)
        await oversized(checks, server)
        garbage(checks, server, rng)
        await write_flood(checks, server)
        await half_open(checks, server, players, game, rng)

        snap = await alice.request({"t": "open", "game": game}, "snapshot")
        checks.eq((snap["v"], snap["ply"]), (before["v"], before["ply"]),
                  "the game in progress is untouched by all of it")
        mover = players[snap["to_move"]]
        mine = await mover.request({"t": "open", "game": game}, "snapshot")
        ack = await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                   "move": mine["legal"][0]["text"]}, "ack")
        checks.eq(ack["t"], "ack", "and goes on")
        st, _, body = server.http("/healthz")
        checks.eq(st, 200, "the server is healthy")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
