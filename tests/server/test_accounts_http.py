"""Accounts, the HTTP API and operations: a guest claims an account with a password, logs in
from another connection, logout revokes the token; a rated game between two accounts moves
their Glicko-2 ratings and shows on their profiles; draws are agreed in Castle Danger and a
rematch swaps the seats; the HTTP API serves /healthz, the game types, the lists of games,
a finished game's record (never a live one's), profiles and the page at / (its files
compressed with Brotli or gzip as the client allows, hashed ones cached as immutable, the game
types revalidated by ETag); options come from
environment variables; TLS serves the same over HTTPS/WSS; SIGTERM drains (clients get a
1001 close) and the process exits 0."""

import asyncio
import gzip
import json
import os
import re
import ssl
import subprocess
import urllib.error
import urllib.request

import websockets

from rsclient import (NEW_PASSWORD, PASSWORD, TIMEOUT, Checks, Client, Server, arguments, guest,
                      registry_games)


async def accounts(checks, server):
    alice = await guest(server, "alice")
    old_token = alice.token
    reply = await alice.request({"t": "register", "name": "Alice", "password": PASSWORD},
                                "registered")
    checks.eq(reply["t"], "registered", "a guest claims an account")
    checks.eq(reply["user"], {"id": alice.user["id"], "name": "Alice", "guest": False},
              "the account keeps the guest's id")
    again = Client(server, "alice-phone")
    await again.connect()
    w = await again.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
    checks.eq(w["user"], None, "hello without a token and without a guest")
    bad = await again.request({"t": "login", "name": "alice", "password": "wrong-one!"},
                              "welcome")
    checks.eq(bad.get("code"), "bad-login", "a wrong password is refused")
    w = await again.request({"t": "login", "name": "ALICE", "password": PASSWORD},
                            "welcome")
    checks.eq((w["t"], w["user"]["name"]), ("welcome", "Alice"), "login by name, any case")
    checks.ok(len(w.get("token", "")) >= 40 and w["token"] != old_token, "with a new token")
    out = await again.request({"t": "logout"}, "logged-out")
    checks.eq(out["t"], "logged-out", "logout")
    revoked = Client(server, "revoked")
    await revoked.connect()
    r = await revoked.request({"t": "hello", "proto": 1, "token": w["token"]}, "welcome")
    checks.eq(r.get("code"), "bad-token", "a logged-out token no longer works")
    r = await revoked.request({"t": "hello", "proto": 1, "token": old_token}, "welcome")
    checks.eq(r.get("user", {}).get("name"), "Alice", "the other device's token still does")
    for c in (again, revoked):
        await c.close()
    return alice


async def rated_game(checks, server, alice):
    bob = await guest(server, "bob")
    await bob.request({"t": "register", "name": "Bob", "password": NEW_PASSWORD}, "registered")
    game = (await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"], "rated": True}, "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    state = await alice.state_at(game, ply=0)
    checks.eq(state["rated"], True, "a rated game")
    checks.eq(state["allowed"], {"draw": True, "takeback": False},
              "draws allowed, takebacks not, in rated Castle Danger")
    # Both sides move before Bob resigns: a game resigned before that changes no rating
    # (issue 49, finding 4).
    ply, moved = 0, set()
    while moved != {0, 1}:
        mover, seat = (alice, 0) if state["to_move"] == 0 else (bob, 1)
        state = await mover.state_at(game, ply=ply)
        await mover.request({"t": "move", "game": game, "ply": ply,
                             "move": state["legal"][0]["text"]}, "ack")
        moved.add(seat)
        ply += 1
        state = await alice.state_at(game, ply=ply)
    r = await bob.request({"t": "resign", "game": game}, "done")
    checks.eq(r["t"], "done", "bob resigns")
    over = await alice.expect(lambda m: m.get("game") == game and m["t"] == "update"
                              and m["cause"]["kind"] == "resign", "the resignation")
    checks.eq(over["result"]["returns"], [1.0, 0.0], "alice wins")
    checks.ok("seed" in over, "the seed is revealed once the game is over")
    status, prof_a = server.http_json("/api/v1/players/Alice")
    status_b, prof_b = server.http_json("/api/v1/players/bob")
    ra = prof_a.get("ratings", {}).get("castle-danger", {})
    rb = prof_b.get("ratings", {}).get("castle-danger", {})
    checks.ok(ra.get("rating", 0) > 1500 > rb.get("rating", 9999),
              f"Glicko-2 ratings move: {ra} {rb}")
    checks.eq((ra.get("games"), len(prof_a.get("rating_history", []))), (1, 1),
              "the profile shows the rating history")
    checks.eq(prof_a["games"][0]["id"], game, "and the game")
    # rematch: the seats swap, the other player is invited
    rm = await bob.request({"t": "rematch", "game": game}, "created")
    note = await alice.expect(lambda m: m["t"] == "rematch", "the rematch offer")
    checks.eq(note["rematch"], rm["game"], "alice hears of the rematch")
    j = await alice.request({"t": "join", "game": rm["game"]}, "joined")
    checks.eq(j.get("seat"), 1, "alice takes the other side")
    # an agreed draw
    nxt = await alice.state_at(rm["game"], ply=0)
    checks.eq(nxt["status"], "live", "the rematch starts")
    await bob.request({"t": "draw", "game": rm["game"], "op": "offer"}, "done")
    offer = await alice.expect(lambda m: m.get("game") == rm["game"] and m["t"] == "update"
                               and m["cause"]["kind"] == "draw-offer", "the draw offer")
    checks.eq(offer["offers"]["draw"], [0], "the offer is shown")
    await alice.request({"t": "draw", "game": rm["game"], "op": "accept"}, "done")
    drawn = await bob.expect(lambda m: m.get("game") == rm["game"] and m["t"] == "update"
                             and m["status"] == "over", "the draw")
    checks.eq((drawn["result"]["reason"], drawn["result"]["returns"]),
              ("agreement", [0.5, 0.5]), "a draw by agreement")
    await bob.close()
    return game


def http_checks(checks, server, finished):
    status, ctype, body = server.http("/healthz")
    health = json.loads(body)
    checks.eq((status, health.get("ok")), (200, True), "/healthz")
    status, types = server.http_json("/api/v1/types")
    checks.eq(sorted(t["type"] for t in types), sorted(registry_games(server.binary)),
              "/api/v1/types lists every game of the registry")
    rtw = next(t for t in types if t["type"] == "rush-the-wall")
    checks.ok(all(o["name"] != "cards" for o in rtw["options"]),
              "options that read files are not offered over the network")
    status, ctype, record = server.http(f"/api/v1/games/{finished}/record")
    checks.ok(status == 200 and ctype.startswith("text/plain") and "[game castle-danger]"
              in record, "a finished game's record downloads as text")
    path = os.path.join(server.dir, "rated.rec")
    with open(path, "w") as f:
        f.write(record)
    r = subprocess.run([server.binary, "replay", path], capture_output=True, text=True)
    checks.ok(r.returncode == 0, f"ramparts replay verifies it: {r.stderr}")
    status, games = server.http_json("/api/v1/games?status=finished")
    checks.ok(any(g["id"] == finished for g in games.get("finished", [])),
              "/api/v1/games lists finished games")
    status, _, page = server.http("/")
    scripts = re.findall(r'<script type="module" src="(/[^"]+\.js)"></script>', page)
    if scripts:
        # The browser client is embedded (web/client/ built): its page loads one script file
        # and one style sheet, both served from the binary, and runs nothing inline (the CSP
        # below forbids it).
        styles = re.findall(r'<link rel="stylesheet" href="(/[^"]+\.css)">', page)
        checks.ok(status == 200 and len(scripts) == 1 and len(styles) == 1
                  and "<script>" not in page and "<style" not in page,
                  "/ is the browser client's page: one script file, one style sheet, nothing inline")
        for asset, kind in ((scripts[0], "text/javascript"), (styles[0], "text/css")):
            st, ctype, body = server.http(asset)
            checks.ok(st == 200 and (ctype or "").startswith(kind) and len(body) > 1000,
                      f"GET {asset} serves the embedded {kind} ({st}, {ctype}, {len(body)} bytes)")
            compression_checks(checks, server, asset, body.encode())
        types_cached(checks, server)
    else:
        checks.ok(status == 200 and "not built" in page and "/api/v1/" in page,
                  "/ says honestly that the client is not built, with the API's links")
    with urllib.request.urlopen(server.url + "/") as resp:
        csp = resp.headers.get("content-security-policy", "")
        others = {k: resp.headers.get(k, "") for k in
                  ("x-content-type-options", "x-frame-options", "referrer-policy",
                   "strict-transport-security")}
    checks.ok("default-src 'none'" in csp and "script-src 'self' 'wasm-unsafe-eval';" in csp
              and "'unsafe-eval'" not in csp and "'unsafe-inline'" not in csp
              and "connect-src 'self';" in csp and "ws:" not in csp,
              f"pages carry a strict Content-Security-Policy, WebAssembly compiling only: {csp}")
    checks.ok(others == {"x-content-type-options": "nosniff", "x-frame-options": "deny",
                         "referrer-policy": "no-referrer", "strict-transport-security": ""},
              f"and the other security headers (no HSTS without TLS): {others}")
    for path, code in (("/nothing-here", 404), ("/api/v1/games/abc", 404),
                       ("/api/v1/players/nobody-here", 404), ("/api/v1/games/99999", 404)):
        checks.eq(server.http(path)[0], code, f"GET {path}")


def raw_get(server, path, headers):
    """(status, headers, body bytes as sent): urllib does not decompress."""
    req = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def compression_checks(checks, server, asset, plain):
    """A hashed file is sent Brotli- or gzip-compressed as the client allows, cached for
    ever; the gzipped bytes are the file."""
    st, h, body = raw_get(server, asset, {"Accept-Encoding": "gzip, deflate, br"})
    checks.ok(st == 200 and h.get("content-encoding") == "br" and len(body) < len(plain) / 2
              and h.get("vary") == "Accept-Encoding",
              f"GET {asset} with br allowed sends Brotli ({h.get('content-encoding')}, "
              f"{len(body)} of {len(plain)} bytes)")
    checks.eq(h.get("cache-control"), "public, max-age=31536000, immutable",
              f"{asset} (a hashed name) is cached as immutable")
    st, h, body = raw_get(server, asset, {"Accept-Encoding": "gzip"})
    checks.ok(st == 200 and h.get("content-encoding") == "gzip" and gzip.decompress(body) == plain,
              f"GET {asset} with gzip allowed sends gzip that inflates to the file")
    st, h, body = raw_get(server, asset, {"Accept-Encoding": "br;q=0, gzip;q=0"})
    checks.ok(st == 200 and h.get("content-encoding") is None and body == plain,
              f"GET {asset} refusing both codings sends the file as it is")
    st, h, page = raw_get(server, "/", {"Accept-Encoding": "gzip"})
    checks.ok(h.get("content-encoding") == "gzip" and h.get("cache-control") == "no-cache"
              and asset.encode() in gzip.decompress(page),
              "the page is compressed too and checked on every visit, so it names new builds")
    st, h, _ = raw_get(server, "/favicon.svg", {})
    checks.eq((st, h.get("cache-control")), (200, "public, max-age=86400"),
              "a file without a hash in its name (the favicon) is cached for a day, not for ever")


def types_cached(checks, server):
    """The game types are reused by the browser for an hour and revalidated by ETag."""
    st, h, body = raw_get(server, "/api/v1/types", {})
    etag = h.get("etag") or ""
    checks.ok(st == 200 and h.get("cache-control") == "public, max-age=3600"
              and re.fullmatch(r'"[0-9a-f]{16}"', etag),
              f"/api/v1/types is cacheable with an ETag ({h.get('cache-control')}, {etag})")
    st, h, body = raw_get(server, "/api/v1/types", {"If-None-Match": etag})
    checks.ok(st == 304 and body == b"", f"/api/v1/types with its ETag is 304 Not Modified ({st})")
    st, h, body = raw_get(server, "/api/v1/types", {"If-None-Match": '"0000000000000000"'})
    checks.ok(st == 200 and json.loads(body), "/api/v1/types with another ETag is sent again")


async def live_record_refused(checks, server):
    a = await guest(server, "a")
    game = (await a.request({"t": "create", "type": "danger-at-the-walls",
                             "seats": ["me", "ai:random"]}, "created"))["game"]
    status, _, body = server.http(f"/api/v1/games/{game}/record")
    checks.eq(status, 409, "a live game's record is refused (it would carry the seed)")
    status, summary = server.http_json(f"/api/v1/games/{game}")
    checks.ok(status == 200 and "view" not in summary and "seed" not in summary,
              "a live game's summary has no view and no seed")
    await a.close()


async def tls(checks, args):
    """HTTPS and WSS through libwebsockets' TLS with a self-signed certificate."""
    workdir = Server(args.ramparts).dir
    cert, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
                       capture_output=True)
    if r.returncode != 0:
        checks.ok(False, "openssl could not make a test certificate")
        return
    server = Server(args.ramparts, workdir=workdir,
                    extra=["--tls-cert", cert, "--tls-key", key]).start()
    ctx = ssl.create_default_context(cafile=cert)
    ctx.check_hostname = False
    try:
        with urllib.request.urlopen(f"https://127.0.0.1:{server.port}/healthz", context=ctx) as resp:
            checks.eq(resp.status, 200, "/healthz over HTTPS")
            checks.eq(resp.headers.get("strict-transport-security"),
                      "max-age=15768000 ; includeSubDomains", "HTTPS replies carry HSTS")
        ws = await websockets.connect(f"wss://127.0.0.1:{server.port}/ws", ssl=ctx,
                                      origin=f"https://127.0.0.1:{server.port}")
        await ws.send(json.dumps({"t": "hello", "proto": 1}))
        checks.eq(json.loads(await ws.recv())["t"], "welcome", "the protocol over WSS")
        await ws.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the TLS server exits 0")


async def environment_and_drain(checks, args):
    """Options from the environment; SIGTERM closes clients with 1001 and exits 0."""
    server = Server(args.ramparts, env={"RAMPARTS_GRACE": "5", "RAMPARTS_RATE": "55"})
    server.start()
    c = await guest(server, "c")
    for _ in range(60):
        await c.ws.send(json.dumps({"t": "lobby", "watch": False}))
    limited = await c.expect(lambda m: m.get("code") == "rate-limited", "the rate limit")
    checks.ok("55 per 20 s" in limited["message"], "RAMPARTS_RATE sets the rate limit")
    rc_future = asyncio.get_event_loop().run_in_executor(None, server.stop)
    code = None
    try:
        while True:
            await c._receive_one(TIMEOUT)
    except websockets.ConnectionClosed as closed:
        code = closed.code
    except Exception:
        pass
    checks.eq(code, 1001, "SIGTERM closes connections with 1001 (going away)")
    checks.eq(await rc_future, 0, "and the server exits 0")
    r = subprocess.run([args.ramparts, "serve", "--listen", "nonsense"], capture_output=True,
                       text=True)
    checks.eq(r.returncode, 2, "a bad --listen is a usage error")
    r = subprocess.run([args.ramparts, "serve", "--help"], capture_output=True, text=True)
    checks.ok(r.returncode == 0 and "--tls-cert" in r.stdout, "serve --help lists the options")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts).start()
    try:
        alice = await accounts(checks, server)
        finished = await rated_game(checks, server, alice)
        http_checks(checks, server, finished)
        await live_record_refused(checks, server)
        await alice.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    await tls(checks, args)
    await environment_and_drain(checks, args)
    checks.finish()


asyncio.run(main())
