"""Keepalive (docs/server-protocol.md: "The server pings quiet connections every 15 s and
closes those that do not answer within 30 s"): two raw WebSocket connections stay silent; the
server pings both between 15 and 25 s (its sweep sees each connection every 5 s; 5 s more for
a busy machine); the one that answers each ping with a pong is still open and pinged again
after 50 s, the one that never answers is closed between 30 and 40 s, and the server logs why.
The lower bounds are the protocol's; the upper ones only allow for a late sweep. Raw sockets,
so the test sees the ping frames and decides whether to answer them."""

import base64
import os
import socket
import threading
import time

from rsclient import Checks, Server, arguments


def upgrade(port):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError("closed during the upgrade")
        head += chunk
    return s, head.split(b"\r\n")[0], head.split(b"\r\n\r\n", 1)[1]


def frames(buf):
    """Complete unmasked server frames in buf: ([(opcode, payload)], rest)."""
    out = []
    while len(buf) >= 2:
        length = buf[1] & 0x7F
        at = 2
        if length == 126:
            if len(buf) < 4:
                break
            length, at = int.from_bytes(buf[2:4], "big"), 4
        if len(buf) < at + length:
            break
        out.append((buf[0] & 0x0F, buf[at:at + length]))
        buf = buf[at + length:]
    return out, buf


def pong(payload):
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x8A, 0x80 | len(payload)]) + mask + body


def watch(port, answer, seconds, log):
    """Stay silent on a new connection for up to `seconds`; log (time, event) pairs."""
    s, status, buf = upgrade(port)
    log.append((0.0, status.decode()))
    start = time.monotonic()
    s.settimeout(1.0)
    while time.monotonic() - start < seconds:
        try:
            data = s.recv(4096)
        except socket.timeout:
            continue
        if not data:
            log.append((time.monotonic() - start, "closed"))
            return
        got, buf = frames(buf + data)
        for opcode, payload in got:
            log.append((time.monotonic() - start, f"opcode {opcode}"))
            if opcode == 0x9 and answer:
                s.sendall(pong(payload))
    log.append((time.monotonic() - start, "still open"))
    s.close()


def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts).start()
    try:
        answering, silent = [], []
        threads = [threading.Thread(target=watch, args=(server.port, True, 50, answering)),
                   threading.Thread(target=watch, args=(server.port, False, 50, silent))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for label, log in (("answering", answering), ("silent", silent)):
            checks.ok(log and "101" in log[0][1], f"{label}: upgraded ({log[:1]})")
            pings = [t for t, what in log if what == "opcode 9"]
            checks.ok(pings and 15 <= pings[0] <= 25,
                      f"{label}: pinged between 15 and 25 s of silence ({pings})")
        pings = [t for t, what in answering if what == "opcode 9"]
        checks.ok(len(pings) >= 2 and pings[1] - pings[0] >= 15,
                  f"answering: pinged again 15 s or more after its pong ({pings})")
        checks.eq(answering[-1][1], "still open", "answering: still open after 50 s")
        closed = [t for t, what in silent if what == "closed"]
        checks.ok(closed and 30 <= closed[0] <= 40,
                  f"silent: closed between 30 and 40 s ({silent[-2:]})")
        checks.ok("no answer for" in server.log(), "the server logs the drop and why")
    finally:
        checks.eq(server.stop(), 0, "the server stops cleanly")
    checks.finish()


if __name__ == "__main__":
    main()
