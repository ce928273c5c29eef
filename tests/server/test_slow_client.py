"""A client that stops reading (a slow spectator, a frozen tab) cannot make the server buffer
without bound: once its queue passes the cap it is dropped and the client gets a fresh
snapshot of its game when its socket drains; falling behind again soon after closes it with
1008. Everyone else goes on. The slow client watches a game, asks for its snapshot twenty
times without reading a reply (the server reads no more than sixteen of those until their
replies are out), and another spectator chats in it until its queue overflows. Every step
waits for what the server says it did (its log, the messages), never for a time."""

import asyncio
import socket
import time

import websockets

from rsclient import TIMEOUT, Checks, Client, Server, arguments, guest

LINE = "x" * 300  # the longest chat line: fewer lines fill the socket's buffers


async def chat_until(owner, slow, game, done, what):
    """Chat lines in `game`, twenty at a time without waiting in between, until done()
    holds: each is pushed to everyone watching, the slow client too. False if it never does
    (a bound for a hang, not for speed). The slow client sends a ping each round: read while
    its socket still takes what it is sent, so the keepalive counts it quiet only from when
    its queue grows, a few rounds before the queue overflows however slow the machine."""
    deadline = time.monotonic() + TIMEOUT
    while not done():
        if time.monotonic() > deadline:
            return False
        await slow.send({"t": "ping"})
        ids = []
        for _ in range(20):
            owner.next_id += 1
            ids.append(f"chat-{owner.next_id}")
            await owner.send({"t": "chat", "game": game, "text": LINE, "id": ids[-1]})
        for rid in ids:
            reply = await owner.expect(lambda m, rid=rid: m.get("id") == rid, f"{what}: {rid}")
            assert reply["t"] == "done", reply
        owner.messages.clear()  # keep the test's own memory small
        owner.frames.clear()
        owner.cursor = 0
    return True


async def ask_without_reading(slow, game):
    """Twenty requests whose replies it will not read, each a whole snapshot: the server reads
    sixteen until their replies are out, and those fill the socket's buffers at once."""
    for i in range(20):
        await slow.send({"t": "open", "game": game, "id": f"unread-{i}"})


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
        # The lines come from another spectator: spectators and players chat apart (issue 49).
        talker = await guest(server, "talker")
        await talker.request({"t": "open", "game": game}, "snapshot")
        for i in range(50):  # a snapshot holds the last 50 lines: some 17 kB each
            await talker.request({"t": "chat", "game": game, "text": f"{i} {LINE}"[:300]},
                                 "done")
        await ask_without_reading(slow, game)

        dropped = await chat_until(talker, slow, game, lambda: "too slow, its queue dropped"
                                   in server.log(), "until the queue is dropped")
        checks.ok(dropped, "the slow client's queue is dropped at the cap")
        pong = await owner.request({"t": "ping"}, "pong")
        checks.eq(pong["t"], "pong", "the other clients are answered meanwhile")

        # It reads again: what was already in the socket, then one fresh snapshot (not a
        # reply to one of its requests: those have an id).
        snap = await slow.expect(lambda m: m["t"] == "snapshot" and m.get("game") == game
                                 and "id" not in m, "the snapshot after the drop")
        checks.eq(snap["status"], "open", "it resynchronizes with a snapshot of its game")

        # It stops reading again within the minute: closed with 1008.
        await ask_without_reading(slow, game)
        closed_log = "too slow again, closed"
        again = await chat_until(talker, slow, game, lambda: closed_log in server.log(),
                                 "until it is closed")
        checks.ok(again, "falling behind again within a minute closes it")
        code = None
        try:
            while True:
                await slow._receive_one(TIMEOUT)
        except websockets.ConnectionClosed as closed:
            code = closed.code
        # The close frame (1008) waits behind what the client left unread, and libwebsockets
        # gives it 5 s to go out and be answered: a client that reads too slowly for that
        # sees the connection end without it (1006), as docs/server.md says.
        checks.ok(code in (1008, 1006), f"it is closed (1008, or 1006 if it read too slowly "
                  f"to get the close frame): {code}")
        pong = await owner.request({"t": "ping"}, "pong")
        checks.eq(pong["t"], "pong", "the others still are answered")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
