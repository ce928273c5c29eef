"""RFC 6455 5.1: "The server MUST close the connection upon receiving a frame that is not
masked", with status 1002 (issue 23: libwebsockets 4.1 read such frames like any other). Raw
sockets write the frames byte for byte: an unmasked message after a good start, one sent in
the same packet as the upgrade request, one whose header is split over two writes, an
unmasked ping, and one after a plain HTTP request on the same connection are each closed
with 1002, and what the frame asked for (a game) is never done. Masked frames of every
length form, an all-zero mask key and a header sent a byte at a time are read as before.
The same over TLS (--tls-cert), where libwebsockets reads through OpenSSL."""

import asyncio
import json
import os
import random
import ssl
import subprocess
import tempfile
import urllib.request

from rsclient import TIMEOUT, Checks, Server, arguments, guest

OP_TEXT, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x8, 0x9, 0xA
UPGRADE = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           "Sec-WebSocket-Version: 13\r\n\r\n").encode()
rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "5")))


def frame(opcode, payload, masked=True, key=None, length_form=None):
    """One final frame. length_form 126 or 127 forces the 16- or 64-bit length field."""
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    form = length_form or (n if n < 126 else 126 if n < 65536 else 127)
    out = bytearray([0x80 | opcode, (0x80 if masked else 0) | form])
    if form == 126:
        out += n.to_bytes(2, "big")
    elif form == 127:
        out += n.to_bytes(8, "big")
    if masked:
        key = key if key is not None else bytes(rng.randrange(256) for _ in range(4))
        out += key
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return bytes(out + payload)


class Raw:
    """A WebSocket spoken over a plain TCP stream."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, server, first=UPGRADE, expect_upgrade=True):
        tls = getattr(server, "tls", None)
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", server.port, ssl=tls, server_hostname="127.0.0.1" if tls else None)
        raw = cls(reader, writer)
        await raw.write(first)
        if expect_upgrade:
            await raw.http_head(101)
        return raw

    async def write(self, data):
        self.writer.write(data)
        await self.writer.drain()

    async def http_head(self, status):
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        line = head.split(b"\r\n", 1)[0].decode()
        assert line.split()[1] == str(status), line
        return head

    async def frame(self):
        """(opcode, payload) of the server's next frame (never masked)."""
        b0, b1 = await asyncio.wait_for(self.reader.readexactly(2), TIMEOUT)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        return b0 & 0x0F, await self.reader.readexactly(n)

    async def message(self, pred):
        """The next text message for which pred holds; pings are answered."""
        while True:
            op, payload = await self.frame()
            if op == OP_TEXT:
                msg = json.loads(payload)
                if pred(msg):
                    return msg
            elif op == OP_CLOSE:
                raise ConnectionError(f"closed: {payload!r}")

    async def close_code(self):
        """The code of the server's close frame (skipping messages before it), once the
        server has ended the connection too; None when it ends without one, -1 when more
        comes after it."""
        try:
            while True:
                op, payload = await self.frame()
                if op == OP_CLOSE:
                    break
        except (asyncio.IncompleteReadError, ConnectionResetError):
            return None
        try:
            # Answered as RFC 6455 5.5.1 asks: the server then ends the connection at once
            # (libwebsockets otherwise waits 5 s for the answer).
            self.writer.write(frame(OP_CLOSE, payload[:2]))
            rest = await asyncio.wait_for(self.reader.read(), TIMEOUT)
        except ConnectionResetError:
            rest = b""
        self.writer.close()
        return int.from_bytes(payload[:2], "big") if len(payload) >= 2 and not rest else -1


CREATE = json.dumps({"t": "create", "type": "castle-danger", "seats": ["me", "open"], "id": 1})


def open_games(server):
    """The games waiting for players (none unless a create was done)."""
    tls = getattr(server, "tls", None)
    scheme = "https" if tls else "http"
    url = f"{scheme}://127.0.0.1:{server.port}/api/v1/games?status=open"
    with urllib.request.urlopen(url, context=tls, timeout=TIMEOUT) as reply:
        return json.loads(reply.read())["open"]


async def hello(raw):
    await raw.write(frame(OP_TEXT, '{"t":"hello","proto":1,"id":"h"}'))
    return await raw.message(lambda m: m.get("id") == "h")


async def after_hello(checks, server):
    raw = await Raw.open(server)
    welcome = await hello(raw)
    checks.eq(welcome["t"], "welcome", "after hello: masked frames are read")
    await raw.write(frame(OP_TEXT, CREATE, masked=False))
    checks.eq(await raw.close_code(), 1002, "after hello: an unmasked message is closed 1002")
    checks.eq(open_games(server), [], "after hello: the unmasked create was not done")


async def same_packet(checks, server):
    raw = await Raw.open(server, UPGRADE + frame(OP_TEXT, '{"t":"hello","proto":1}',
                                                 masked=False))
    checks.eq(await raw.close_code(), 1002,
              "same packet: an unmasked frame right behind the upgrade request is closed 1002")


async def split_header(checks, server):
    raw = await Raw.open(server)
    await hello(raw)
    data = frame(OP_TEXT, CREATE, masked=False)
    await raw.write(data[:1])
    await asyncio.sleep(0.05)  # two reads more likely; either way the frame is refused
    await raw.write(data[1:])
    checks.eq(await raw.close_code(), 1002, "split header: closed 1002")
    checks.eq(open_games(server), [], "split header: the create was not done")


async def lengths_and_keys(checks, server):
    """Masked frames in every form keep the reader in step; then an unmasked ping ends it."""
    raw = await Raw.open(server)
    await hello(raw)
    cases = [("7-bit", {}), ("16-bit", {"length_form": 126}), ("64-bit", {"length_form": 127}),
             ("zero key", {"key": bytes(4)})]
    for label, kwargs in cases:
        pad = "x" * (400 if label == "16-bit" else 300 if label == "64-bit" else 10)
        await raw.write(frame(OP_TEXT, json.dumps({"t": "ping", "id": label, "pad": pad}),
                              **kwargs))
        pong = await raw.message(lambda m, label=label: m.get("id") == label)
        checks.eq(pong["t"], "pong", f"lengths: a masked {label} frame is answered: {pong}")
    await raw.write(frame(OP_TEXT, json.dumps({"t": "ping", "id": "y" * 70000})))
    reply = await raw.message(lambda m: True)
    checks.eq(reply["t"], "error", "lengths: a masked 70,000-byte frame is skipped whole")
    data = frame(OP_TEXT, '{"t":"ping","id":"bytewise"}')
    for i in range(len(data)):
        await raw.write(data[i:i + 1])
        await asyncio.sleep(0.002)
    pong = await raw.message(lambda m: m.get("id") == "bytewise")
    checks.eq(pong["t"], "pong", "lengths: a frame sent a byte at a time is answered")
    await raw.write(frame(OP_PING, b"k"))
    op, payload = await raw.frame()
    checks.eq((op, payload), (OP_PONG, b"k"), "lengths: a masked ping gets its pong")
    await raw.write(frame(OP_PING, b"k", masked=False))
    checks.eq(await raw.close_code(), 1002, "lengths: an unmasked ping is closed 1002")


async def after_http(checks, server):
    """A plain request, then the upgrade, on one kept-alive connection."""
    get = b"GET /api/v1/types HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    raw = await Raw.open(server, get, expect_upgrade=False)
    head = await raw.http_head(200)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    await raw.reader.readexactly(length)
    await raw.write(UPGRADE)
    await raw.http_head(101)
    await hello(raw)
    await raw.write(frame(OP_TEXT, CREATE, masked=False))
    checks.eq(await raw.close_code(), 1002, "after HTTP: closed 1002")
    checks.eq(open_games(server), [], "after HTTP: the create was not done")


async def over_tls(checks, args):
    """The same through TLS, where libwebsockets reads through OpenSSL."""
    workdir = tempfile.mkdtemp(prefix="ramparts-mask-tls-")
    cert, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                           "2", "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
                          capture_output=True)
    if not checks.ok(made.returncode == 0, "tls: openssl made a test certificate"):
        return
    server = Server(args.ramparts, workdir=workdir,
                    extra=["--rate", "100000", "--tls-cert", cert, "--tls-key", key]).start()
    server.tls = ssl.create_default_context(cafile=cert)
    server.tls.check_hostname = False  # the certificate names 127.0.0.1 as CN only
    try:
        await after_hello(checks, server)
        await lengths_and_keys(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "tls: the server exits 0 on SIGTERM")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await after_hello(checks, server)
        await same_packet(checks, server)
        await split_header(checks, server)
        await lengths_and_keys(checks, server)
        await after_http(checks, server)
        c = await guest(server, "still")
        pong = await c.request({"t": "ping"}, "pong")
        checks.eq(pong["t"], "pong", "the server still serves others")
        await c.close()
        checks.ok("a frame without a mask, closed (1002)" in server.log(),
                  "the log says why each was closed")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    await over_tls(checks, args)
    checks.finish()


asyncio.run(main())
