"""A client that stops reading (a slow spectator, a frozen tab) cannot make the server buffer
without bound: once its queue passes the cap it is dropped and the client gets a fresh
snapshot of its game when its socket drains; falling behind again soon after closes it with
1008. Everyone else goes on. The slow client watches a game and the lobby while ten other
players create and leave games as fast as they can (lobby changes are pushed at most four
times a second), and asks for the whole lobby twenty times a round without reading a reply
(the server reads no more than a few of those until their replies are out: the lobby pushes
are what overflow its queue)."""

import asyncio
import socket
import time

import websockets

from rsclient import Checks, Client, Server, arguments, guest


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        slow = Client(server, "slow")
        # A tiny read buffer and queue, and a socket with a small receive window: the client
        # stops reading almost at once, and the server's writes to it stall soon after.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        slow.ws = await websockets.connect(server.ws_url, sock=sock, max_queue=1,
                                           read_limit=1024, max_size=2 ** 24)
        await slow.hello()
        owner = await guest(server, "owner")
        game = (await owner.request({"t": "create", "type": "castle-danger",
                                     "seats": ["me", "open"]}, "created"))["game"]
        await slow.request({"t": "open", "game": game}, "snapshot")
        await slow.send({"t": "lobby"})
        makers = [await guest(server, f"maker{i}") for i in range(10)]
        # Lobby changes are pushed at most four times a second: go on until the queue of
        # sixty-four overflows (some sixteen seconds of pushes), or 25 s have passed.
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline:
            created = []
            for m in makers:
                for _ in range(10):
                    r = await m.request({"t": "create", "type": "king-of-danger",
                                         "seats": ["me", "open", "open", "open", "open"]},
                                        "created")
                    created.append((m, r["game"]))
            for _ in range(20):  # replies it will not read, each the whole lobby
                await slow.send({"t": "lobby"})
            for m, g in created:
                await m.request({"t": "leave", "game": g}, "left")
            for m in makers:  # keep the test's own memory small
                m.messages.clear()
                m.frames.clear()
                m.cursor = 0
            # Stop soon after the first drop: a client silent for 30 s is hung up as dead
            # (the ping policy), which is not what this test is about.
            if "too slow" in server.log():
                break
        log = server.log()
        checks.ok("too slow, its queue dropped" in log,
                  "the slow client's queue is dropped at the cap")
        pong = await owner.request({"t": "ping"}, "pong")
        checks.eq(pong["t"], "pong", "the other clients are answered meanwhile")
        snapshots, code = 0, None
        try:
            while True:
                msg = await slow._receive_one(5)
                snapshots += msg["t"] == "snapshot"
        except websockets.ConnectionClosed as closed:
            code = closed.code
        except asyncio.TimeoutError:
            pass
        # Either it drained and got a fresh snapshot, or it fell behind again first and was
        # closed: never left silently with a gap.
        checks.ok(snapshots >= 1 or code == 1008,
                  f"resynchronized with a snapshot ({snapshots}) or closed with 1008 ({code})")
        if code == 1008:
            checks.ok("too slow again, closed" in server.log(), "closed for falling behind again")
    finally:
        checks.eq(server.stop(), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
