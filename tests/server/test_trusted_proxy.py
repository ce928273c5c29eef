"""The client's address behind a reverse proxy (`serve --trusted-proxy`, docs/server.md and
docs/cluster.md): a WebSocket from a trusted proxy counts against `--max-per-ip` and is logged
under the client that the last element of its X-Forwarded-For names (the one HAProxy's
`option forwardfor` appends: elements before it, and earlier header lines, came from the
client); from any other peer the header is ignored, so a client cannot spoof its way past the
limit; a malformed header from the proxy is logged and the proxy's own address used. One
server with --max-per-ip 2 trusting 127.0.0.1 only; connections from 127.0.0.2 (also the
loopback) play the untrusted peer. Bad --trusted-proxy values are refused with exit 2."""

import asyncio
import subprocess

import websockets

from rsclient import Checks, Client, Server, arguments, raw_upgrade

PROXY, STRANGER = "127.0.0.1", "127.0.0.2"
LIMIT = 2


async def open_ws(server, source, forwarded=()):
    return await raw_upgrade(server.port, source, forwarded)


async def limit_is_per_address(checks, server, source, header_sets, what):
    """Opens LIMIT sockets with the first header sets and expects each later set refused with
    429: they all count under one address. Returns the sockets to close."""
    opened = []
    for i, forwarded in enumerate(header_sets):
        ws = await open_ws(server, source, forwarded)
        if i < LIMIT:
            checks.ok(not isinstance(ws, int), f"{what}: connection {i + 1} {forwarded} is let "
                      f"in (got {ws})")
            opened.append(ws)
        else:
            checks.eq(ws, 429, f"{what}: {forwarded} counts under the same address")
            if not isinstance(ws, int):
                opened.append(ws)
    return opened


async def scenarios(checks, server):
    sockets = []
    # Through the trusted proxy: the forwarded client's address counts, in every spelling.
    sockets += await limit_is_per_address(checks, server, PROXY, [
        ["203.0.113.7"], ["198.51.100.9, 203.0.113.7"],   # a client's own element is not it
        ["198.51.100.9", "203.0.113.7"],                   # nor is an earlier header line
        [" ::ffff:203.0.113.7 "]], "the forwarded client 203.0.113.7")
    checks.ok("refused a WebSocket from 203.0.113.7: 2 connections already" in server.log(),
              "the refusal is logged under the forwarded client's address")
    other = await open_ws(server, PROXY, ["203.0.113.8"])
    checks.ok(not isinstance(other, int),
              f"another client through the same proxy has a limit of its own (got {other})")
    sockets.append(other)
    v6 = await open_ws(server, PROXY, ["2001:db8::1"])
    checks.ok(not isinstance(v6, int), f"an IPv6 client is let in (got {v6})")
    sockets.append(v6)

    # From an untrusted peer the header is ignored: each spoofed value counts as the peer.
    sockets += await limit_is_per_address(checks, server, STRANGER, [
        ["203.0.113.20"], ["203.0.113.21"], ["203.0.113.22"]],
        "an untrusted peer spoofing X-Forwarded-For")
    checks.ok(f"refused a WebSocket from {STRANGER}: 2 connections already" in server.log(),
              "the spoofing peer is refused under its own address")

    # Malformed headers from the proxy: logged, counted under the proxy's own address.
    bad = ["not-an-address", "203.0.113.7:4000", "203.0.113.7,", "x" * 700]
    sockets += await limit_is_per_address(checks, server, PROXY, [[b] for b in bad[:3]],
                                          "malformed X-Forwarded-For values")
    log = server.log()
    checks.ok(f"ignored X-Forwarded-For 'not-an-address' (14 bytes) from proxy {PROXY}" in log,
              "a malformed header is logged with the proxy's address")
    checks.ok(f"refused a WebSocket from {PROXY}: 2 connections already" in log,
              "malformed headers count under the proxy's address")
    checks.eq(await open_ws(server, PROXY, [bad[3]]), 429,
              "an overlong header counts under the proxy's address too")

    # The core's logs use the client's address as well: a flood through the proxy.
    for ws in sockets:
        ws.close()
    flood = Client(server, "flood")
    flood.ws = await websockets.connect(server.ws_url, local_addr=(PROXY, 0),
                                        extra_headers=[("X-Forwarded-For", "203.0.113.9")])
    for i in range(15):
        await flood.send({"t": "lobby", "watch": False, "id": i})
    await flood.expect(lambda m: m.get("code") == "rate-limited", "the rate limit")
    checks.ok("(203.0.113.9): rate limited" in server.log(),
              "the rate limit's log line names the forwarded client")
    await flood.close()


def bad_values(checks, binary):
    for value in ["", "proxy.example.org", "10.0.0.0/8", "10.0.0.2:8080", "10.0.0.2,", "1.2.3"]:
        r = subprocess.run([binary, "serve", "--trusted-proxy", value, "--db", "/nonexistent/x"],
                           capture_output=True, text=True, timeout=60)
        checks.eq(r.returncode, 2, f"--trusted-proxy {value!r} is a usage error")
        checks.ok("--trusted-proxy" in r.stderr and "not an IP address" in r.stderr,
                  f"--trusted-proxy {value!r} is explained: {r.stderr.strip()!r}")


def main():
    args = arguments()
    checks = Checks()
    bad_values(checks, args.ramparts)
    server = Server(args.ramparts, extra=["--trusted-proxy", f"::1,{PROXY}", "--max-per-ip",
                                          str(LIMIT), "--rate", "10"]).start()
    try:
        asyncio.run(scenarios(checks, server))
    finally:
        checks.eq(server.stop(), 0, "the server exits 0 on SIGTERM")
    checks.finish()


main()
