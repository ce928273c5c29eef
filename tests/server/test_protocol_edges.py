"""The promises of docs/server-protocol.md at their edges, each a defect a client written from
the documentation alone once found (issue 23): a burst of requests gets every reply; strings
holding U+0000, text frames that are not UTF-8 and JSON followed by more bytes are refused;
`logout` ends every connection on that token; the HTTP API reads every query parameter and
refuses unknown ones; "guest-" names in any case are refused; `claim` does not win against
an opponent who is online elsewhere; a refused upgrade gets its HTTP status; the seed of a
finished game is a decimal string that matches its commitment; and the error codes and
fields the documentation names for join, chat, create and the types list."""

import asyncio
import hashlib
import http.client
import json
import socket

import websockets

from rsclient import PASSWORD, TIMEOUT, Checks, Client, Server, arguments, claim_after_grace, guest


async def burst(checks, server):
    """More requests in one burst than the server's output queue holds: each is answered, in
    order (the server stops reading a connection until its replies are out)."""
    c = await guest(server, "burst")
    n = 300
    await asyncio.gather(*(c.send({"t": "ping", "id": i}) for i in range(n)))
    ids = []
    try:
        while len(ids) < n:
            m = await c._receive_one(TIMEOUT)
            if m["t"] == "pong":
                ids.append(m.get("id"))
    except (asyncio.TimeoutError, websockets.ConnectionClosed) as e:
        checks.ok(False, f"burst: only {len(ids)} of {n} pongs before {e!r}")
    checks.eq(ids, list(range(n)), "burst: one pong per ping, in order")
    await c.close()


async def nul_strings(checks, server):
    """A string cut at U+0000 would be another string: "<password>\\u0000x" logging in as
    "<password>". Every message with one is refused, whatever the field, and the refusal
    carries the request's id."""
    c = await guest(server, "nul")
    reg = await c.request({"t": "register", "name": "Nulla", "password": PASSWORD},
                          "registered")
    checks.eq(reg["t"], "registered", "nul: an account to log in to")
    # The refusal answers the request: a client waiting on the reply with its id would
    # otherwise hang (issue 47; docs/server-protocol.md, "id").
    for text in ('{"t":"login","name":"Nulla","password":"' + PASSWORD + '\\u0000x","id":"a"}',
                 '{"t":"login","name":"Nul\\u0000la","password":"' + PASSWORD + '","id":"b"}',
                 '{"t":"ping\\u0000x","id":"c"}',
                 '{"t":"login","name":"x","password":"a\\u0000b","id":7}',
                 '{"t":"chat","text":"raw\x00byte","id":"e"}'):
        await c.send(text)
        rid = json.loads(text.replace("\\u0000", "").replace("\x00", ""))["id"]
        reply = await c.expect(lambda m, rid=rid: m.get("t") in ("error", "welcome", "pong"))
        checks.eq((reply["t"], reply.get("code"), reply.get("id")), ("error", "bad-json", rid),
                  f"nul: {text!r} is refused with its id")
    other = await guest(server, "nul2")
    login = await other.request({"t": "login", "name": "Nulla", "password": PASSWORD},
                                "welcome")
    checks.eq(login["t"], "welcome", "nul: the real password still logs in")
    await c.close()
    await other.close()


async def bad_frames(checks, server):
    """A text frame that is not UTF-8 closes the connection with 1007 (RFC 6455 8.1); JSON
    followed by anything but white space is not one JSON value."""
    c = await guest(server, "frames")
    await c.send('{"t":"ping","id":1} {"t":"ping","id":2}')
    reply = await c.expect(lambda m: m["t"] in ("pong", "error"))
    checks.eq((reply["t"], reply.get("code")), ("error", "bad-json"),
              "frames: two JSON values in one message are refused")
    await c.send('{"t":"ping","id":3}garbage')
    reply = await c.expect(lambda m: m["t"] in ("pong", "error"))
    checks.eq((reply["t"], reply.get("code")), ("error", "bad-json"),
              "frames: bytes after the JSON are refused")
    await c.send('{"t":"ping","id":4} \r\n\t')
    reply = await c.expect(lambda m: m["t"] in ("pong", "error"))
    checks.eq((reply["t"], reply.get("id")), ("pong", 4), "frames: white space after is fine")
    # The library sends only valid text; write the frame itself.
    await c.ws.write_frame(True, websockets.frames.OP_TEXT, b'{"t":"chat","text":"\xff\xfe"}')
    code = None
    try:
        await c._receive_one(TIMEOUT)
    except websockets.ConnectionClosed as closed:
        code = closed.code
    checks.eq(code, 1007, "frames: a text frame that is not UTF-8 is closed with 1007")


async def logout_everywhere(checks, server):
    """`logout` revokes the token: every connection that said hello with it loses its
    identity and is told so."""
    a = await guest(server, "phone")
    b = Client(server, "laptop")
    await b.connect()
    await b.hello(a.token)
    game = (await b.request({"t": "create", "type": "castle-danger",
                             "seats": ["me", "ai:random"]}, "created"))["game"]
    out = await a.request({"t": "logout"}, "logged-out")
    checks.eq(out["t"], "logged-out", "logout: the asking connection is logged out")
    told = await b.expect(lambda m: m["t"] == "logged-out", "logged-out on the other device")
    checks.ok("id" not in told, "logout: the other connection is told, unasked")
    for msg in ({"t": "chat", "game": game, "text": "still here?"},
                {"t": "resign", "game": game}):
        r = await b.request(msg, "done")
        checks.eq(r.get("code"), "no-identity", f"logout: {msg['t']} on the other connection")
    again = Client(server, "again")
    await again.connect()
    r = await again.hello(a.token)
    checks.eq(r.get("code"), "bad-token", "logout: the token is revoked")
    for c in (a, b, again):
        await c.close()


def http_status(server, path, headers):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", path, headers=headers)
    status = conn.getresponse().status
    conn.close()
    return status


def refused_upgrades(checks, server):
    """An upgrade the server refuses is answered with its HTTP status, not a bare close."""
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    checks.eq(http_status(server, "/ws", dict(upgrade, Origin="https://evil.example")), 403,
              "upgrade: a foreign Origin gets 403")
    checks.eq(http_status(server, "/socket", upgrade), 404, "upgrade: another path gets 404")
    forged_log_lines(checks, server, upgrade)


def forged_log_lines(checks, server, upgrade):
    """Issue 49: the Origin of a refused upgrade reached the log raw, so a client could colour
    or clear an operator's terminal, or ring its bell. Every control character of a logged
    value is written escaped."""
    origin = "https://evil.example\x1b[2J\x1b[31mforged\x07\x7f\u0085"
    raw = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: {origin}\r\n" +
           "".join(f"{k}: {v}\r\n" for k, v in upgrade.items()) + "\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(raw)
        answer = s.recv(4096).decode("latin-1")
    checks.ok(answer.split(" ")[1:2] == ["403"], f"upgrade: the forged Origin gets 403: {answer[:40]!r}")
    with open(server.log_path, "rb") as f:
        log = f.read()
    line = next((x for x in log.split(b"\n") if b"evil.example" in x and b"forged" in x), b"")
    checks.ok(line != b"", "log: the refused Origin is logged")
    checks.ok(not any(b < 0x20 or b == 0x7F for b in line) and b"\xc2\x85" not in line,
              f"log: no control character reaches the log raw: {line!r}")
    checks.ok(b"\\x1b[2J" in line and b"\\x07" in line and b"\\xc2\\x85" in line,
              f"log: the control characters are written escaped: {line!r}")
    # The upgrade's path is logged too (refused: not /ws), through the same escaping.
    raw = (f"GET /sock\x1b[2Jet\x07 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n" +
           "".join(f"{k}: {v}\r\n" for k, v in upgrade.items()) + "\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(raw)
        answer = s.recv(4096).decode("latin-1")
    checks.ok(answer.split(" ")[1:2] == ["404"],
              f"upgrade: the forged path gets 404: {answer[:40]!r}")
    with open(server.log_path, "rb") as f:
        log = f.read()
    line = next((x for x in log.split(b"\n") if b"/sock\\x1b" in x or b"/sock\x1b" in x), b"")
    checks.ok(line != b"" and not any(b < 0x20 or b == 0x7F for b in line) and
              b"/sock\\x1b[2Jet\\x07" in line, f"log: the path's controls are escaped: {line!r}")


async def http_queries(checks, server):
    """Every parameter of a query is read; a parameter or value the API does not know is a
    400, not an answer to another question."""
    owner = await guest(server, "queries")
    ids = []
    for _ in range(3):
        g = (await owner.request({"t": "create", "type": "danger-at-the-walls",
                                  "seats": ["me", "ai:random"]}, "created"))["game"]
        await owner.request({"t": "resign", "game": g}, "done")
        ids.append(g)
    status, body = server.http_json(f"/api/v1/games?status=finished&before={ids[2]}")
    checks.eq((status, sorted(body)), (200, ["finished", "more"]), "query: status is read")
    checks.eq(sorted(g["id"] for g in body["finished"]), ids[:2], "query: before is read too")
    for path in ("/api/v1/games?status=closed", "/api/v1/games?before=x",
                 "/api/v1/games?status=open&status=live", "/api/v1/games?sort=new",
                 f"/api/v1/games/{ids[0]}/replay?viewer=5", f"/api/v1/games/{ids[0]}?v=1",
                 "/api/v1/types?all=1", "/healthz?x", "/healthz?game=x", "/healthz?game=0",
                 "/api/v1/players/nobody/games?before=-1",
                 "/api/v1/games?status=finished%26before=3"):
        status, body = server.http_json(path)
        checks.eq((status, body.get("error")), (400, "bad-query"), f"query: {path}")
    for path, key in (("/api/v1/games?before=x", "before"), ("/healthz?game=0", "game"),
                      ("/api/v1/players/nobody/games?before=-1", "before")):
        _, body = server.http_json(path)
        checks.eq(body.get("message"), f"{key} is a game id (a whole number from 1)",
                  f"query: {path} names the parameter")
    await owner.close()


async def names_and_claims(checks, server):
    """"guest-" is for guests in any case, and the computer's names are nobody's (issue 49); a
    claim does not win against someone online elsewhere, only against someone gone from the
    server for the grace period."""
    c = await guest(server, "namer")
    for name in ("GUEST-abc", "Guest-x1", "Computer", "easy", "RANDOM", "Hard", "admin"):
        r = await c.request({"t": "register", "name": name, "password": PASSWORD},
                            "registered")
        checks.eq(r.get("code"), "bad-name", f"names: {name} is refused")
    alice = await guest(server, "alice")
    bob = await guest(server, "bob")
    game = (await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await bob.request({"t": "close", "game": game}, "closed")
    await asyncio.sleep(1.5)  # past the one-second grace of this server
    r = await alice.request({"t": "claim", "game": game}, "done")
    checks.eq(r.get("code"), "not-allowed", "claim: bob is online, only not watching")
    await bob.close()
    r = await claim_after_grace(alice, game)
    checks.eq(r["t"], "done", "claim: bob gone from the server for the grace period")
    await alice.close()
    await c.close()


async def seed_as_text(checks, server):
    """A finished game's seed is a decimal string that matches its commitment."""
    c = await guest(server, "seed")
    game = (await c.request({"t": "create", "type": "rush-the-wall",
                             "seats": ["me", "ai:random"]}, "created"))["game"]
    await c.request({"t": "resign", "game": game}, "done")
    snap = await c.request({"t": "open", "game": game}, "snapshot")
    seed = snap.get("seed")
    checks.ok(isinstance(seed, str) and seed.isdigit() and int(seed) < 2 ** 64,
              f"seed: a string of decimal digits: {seed!r}")
    if isinstance(seed, str) and seed.isdigit():
        digest = hashlib.blake2b(int(seed).to_bytes(8, "little"), digest_size=32).hexdigest()
        checks.eq(digest, snap.get("seed_hash"), "seed: it matches seed_hash")
    await c.close()


async def documented_codes(checks, server):
    """What the error table and the message sections promise for join, chat and create."""
    alice = await guest(server, "doc-a")
    bob = await guest(server, "doc-b")
    game = (await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    r = await bob.request({"t": "join", "game": game, "seat": 9}, "joined")
    checks.eq(r.get("code"), "bad-seat", "join: a seat out of range is bad-seat")
    r = await bob.request({"t": "join", "game": game}, "joined")
    checks.eq(r["t"], "joined", "join: bob joins")
    start = await alice.expect(lambda m: m["t"] == "update" and m["cause"]["kind"] == "join")
    checks.eq(start["seats"][1].get("connected"), True,
              "join: the joining player is connected in the join update")
    for text, what in (("x" * 301, "over 300 bytes"), ("a\u0085b", "U+0085 (a C1 control)"),
                       ("a\u0007b", "a bell")):
        r = await alice.request({"t": "chat", "game": game, "text": text}, "done")
        checks.eq(r.get("code"), "bad-text", f"chat: a line with {what} is bad-text")
    r = await alice.request({"t": "chat", "game": game, "text": "x" * 300}, "done")
    checks.eq(r["t"], "done", "chat: 300 bytes are fine")
    # issue 49: bidi overrides and zero-width characters hide or reorder what is said: they
    # are left out of the line everyone gets (and a line of nothing else is no line)
    r = await alice.request({"t": "chat", "game": game,
                             "text": "gg\u202e\u2066 well\u200b pla\ufeffyed\u200f"}, "done")
    checks.eq(r["t"], "done", "chat: a line with invisible controls is taken")
    said = await bob.expect(lambda m: m["t"] == "chat" and "gg" in m["text"], "the chat line")
    checks.eq(said.get("text"), "gg well played", "chat: bidi and zero-width controls removed")
    r = await alice.request({"t": "chat", "game": game, "text": "\u200b\u202e"}, "done")
    checks.eq(r.get("code"), "bad-text", "chat: a line of invisible controls alone is bad-text")
    status, types = server.http_json("/api/v1/types")
    for t in types:  # issue 31: every game says how much the AI level matters (docs/ai.md)
        note = t.get("ai_level_note")
        checks.ok(isinstance(note, str) and "%" in note,
                  f"types: {t['type']} has an ai_level_note with a measured figure: {note!r}")
    for t in types:
        for o in t["options"]:
            if o["kind"] == "choice":
                checks.ok(o["default"] in o["choices"].split("|"),
                          f"types: {t['type']} {o['name']} default is a word: {o['default']!r}")
                r = await alice.request({"t": "create", "type": t["type"],
                                         "seats": ["me", "ai:random"],
                                         "options": {o["name"]: o["default"]}}, "created")
                checks.eq(r["t"], "created", f"create takes {t['type']} {o['name']} default")
                if r["t"] == "created":
                    await alice.request({"t": "resign", "game": r["game"]}, "done")
    for options, what in (({"turn-limit": "25"}, "a number given as a string"),
                          ({"seed": 5}, "the seed"), ({"colour": "red"}, "an unknown option")):
        r = await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "ai:random"], "options": options}, "created")
        checks.eq(r.get("code"), "bad-option", f"create: {what} is bad-option")
        if "colour" in options:
            checks.ok("seed" not in r.get("message", ""),
                      f"create: the options listed are those a create takes: {r.get('message')}")
    lone = (await alice.request({"t": "create", "type": "castle-danger",
                                 "seats": ["me", "open"]}, "created"))["game"]
    await alice.request({"t": "leave", "game": lone}, "left")
    r = await bob.request({"t": "join", "game": lone}, "joined")
    checks.eq(r.get("code"), "not-open", "join: an aborted game is not open")
    checks.ok("aborted" in r.get("message", ""), f"join: it says aborted: {r.get('message')}")
    await alice.close()
    await bob.close()


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000", "--grace", "1"]).start()
    try:
        await burst(checks, server)
        await nul_strings(checks, server)
        await bad_frames(checks, server)
        await logout_everywhere(checks, server)
        refused_upgrades(checks, server)
        await http_queries(checks, server)
        await names_and_claims(checks, server)
        await seed_as_text(checks, server)
        await documented_codes(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
