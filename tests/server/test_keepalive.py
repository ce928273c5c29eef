"""Keepalive (docs/server-protocol.md: "The server pings a connection quiet for 15 s ... and
closes one quiet for 30 s", both set by `serve --keepalive SECONDS`, K below): two raw
WebSocket connections stay silent; the server pings both after K s of silence or more; the one
that answers each ping with a pong is pinged again K s or more after its pong and is still open
past 2K s, the one that never answers is closed after 2K s or more, and the server logs why,
with the silence it measured: under 2K + K/3 + 5 s (its sweep sees each connection every K/3 s;
5 s for a busy machine). `make test` runs with K = 3 s; `make soak` (RAMPARTS_SOAK=1) with the
defaults, 15 s and 30 s. Each connection's clock starts before its upgrade is sent, so the
lower bounds hold however late the test's threads run; each side waits for what it expects
(with a bound for a hang only), never for a fixed time. Raw sockets, so the test sees the ping
frames and decides whether to answer them."""

import base64
import os
import re
import socket
import threading
import time

from rsclient import Checks, Server, arguments

SOAK = os.environ.get("RAMPARTS_SOAK", "0") not in ("", "0")
PING_S = 15 if SOAK else 3  # K: the server's default, or a short one passed to it
HANGUP_S = 2 * PING_S
SEEN_EVERY_S = PING_S / 3  # how often the server's sweep looks at each connection
HANG_S = 120  # a bound for a hang, not for speed


def pings_seen(log):
    return [t for t, what in log if what == "opcode 9"]


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


def watch(port, answer, done, log):
    """Stay silent on a new connection until done(log) holds, the connection closes, or a
    bound for a hang passes; log (time, event) pairs, timed from before the upgrade."""
    start = time.monotonic()
    s, status, buf = upgrade(port)
    log.append((time.monotonic() - start, status.decode()))
    s.settimeout(1.0)
    while not done(log) and time.monotonic() - start < HANG_S:
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
    server = Server(args.ramparts, extra=[] if SOAK else ["--keepalive", str(PING_S)]).start()
    try:
        answering, silent = [], []
        # The answering one watches until its second ping; the silent one until it is closed.
        threads = [threading.Thread(target=watch, args=(server.port, True,
                                                        lambda log: len(pings_seen(log)) >= 2,
                                                        answering)),
                   threading.Thread(target=watch, args=(server.port, False, lambda log: False,
                                                        silent))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for label, log in (("answering", answering), ("silent", silent)):
            checks.ok(log and "101" in log[0][1], f"{label}: upgraded ({log[:1]})")
            pings = pings_seen(log)
            checks.ok(pings and pings[0] >= PING_S,
                      f"{label}: pinged after {PING_S} s of silence ({pings})")
        pings = pings_seen(answering)
        checks.ok(len(pings) >= 2 and pings[1] - pings[0] >= PING_S,
                  f"answering: pinged again {PING_S} s or more after its pong ({pings})")
        checks.ok(answering[-1][1] == "still open" and pings[-1:] and pings[-1] >= HANGUP_S,
                  f"answering: still open past {HANGUP_S} s ({answering[-2:]})")
        closed = [t for t, what in silent if what == "closed"]
        checks.ok(closed and closed[0] >= HANGUP_S,
                  f"silent: closed after {HANGUP_S} s ({silent[-2:]})")
        said = re.findall(r"no answer for (\d+) s, dropped", server.log())
        latest = HANGUP_S + SEEN_EVERY_S + 5
        checks.ok(said and HANGUP_S <= int(said[0]) < latest,
                  f"the server logs the drop and why, after {HANGUP_S} to {latest:g} s of "
                  f"silence ({said})")
        if not SOAK:
            checks.ok(f"quiet for {PING_S} s is pinged, for {HANGUP_S} s dropped" in server.log(),
                      f"the server logs the keepalive it was given ({PING_S} s)")
    finally:
        checks.eq(server.stop(), 0, "the server stops cleanly")
    checks.finish()


if __name__ == "__main__":
    main()
