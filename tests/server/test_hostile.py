"""Malformed and hostile input: a table of messages (bad JSON, wrong types, unknown types,
oversized and deeply nested messages, binary frames, moves for a seat not yours or in a game
you are not in, joining a full game, forged tokens, file paths and SQL in fields...) sent
each on its own connection, each answered with the expected error, and nothing changed: the
games in progress show the same version, position and view before and after, and go on.
Then the transport's own defences: Origin and path checks on the WebSocket upgrade, and the
default rate limit closing a flooding connection with 1008 while others are unaffected."""

import asyncio
import json

import websockets

from rsclient import PASSWORD, Checks, Client, Server, arguments, guest

STABLE = ("v", "ply", "status", "view", "legal", "to_move", "offers", "you")


def stable(state):
    return {k: state.get(k) for k in STABLE}


async def snapshot(client, game):
    return await client.request({"t": "open", "game": game}, "snapshot")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts).start()  # default limits
    try:
        alice = await guest(server, "alice")
        bob = await guest(server, "bob")
        mallory = await guest(server, "mallory")
        carol = await guest(server, "carol")
        dave = await guest(server, "dave")
        game = (await alice.request({"t": "create", "type": "walls-and-armies",
                                     "seats": ["me", "open"]}, "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        other = (await carol.request({"t": "create", "type": "castle-danger",
                                      "seats": ["me", "open"]}, "created"))["game"]
        await dave.request({"t": "join", "game": other}, "joined")
        waiting = (await carol.request({"t": "create", "type": "king-of-danger",
                                        "seats": ["me", "invite", "open"]}, "created"))
        waiting_game = waiting["game"]
        await dave.request({"t": "join", "game": waiting_game}, "joined")  # only the invite left
        start = await alice.state_at(game, ply=0)
        mover_seat = start["to_move"]
        mover, idle = (alice, bob) if mover_seat == 0 else (bob, alice)
        legal_text = (await mover.state_at(game, ply=0))["legal"][0]["text"]
        before = {c.label: stable(await snapshot(c, g))
                  for c, g in ((alice, game), (bob, game), (carol, other), (dave, other))}
        games_before = server.http_json("/api/v1/games")[1]

        A, B, M = alice.token, bob.token, mallory.token
        mine = {"alice": A, "bob": B}
        mover_token, idle_token = mine[mover.label], mine[idle.label]
        long_move = "x" * 200
        deep = "[" * 60 + "]" * 60
        big = json.dumps({"t": "chat", "game": game, "text": "y" * 10000})
        cases = [
            # (token or None for no hello, payload, expected code)
            (M, "not json", "bad-json"),
            (M, "{", "bad-json"),
            (M, "", "bad-json"),
            (M, "{\"t\":\"ping\",}", "bad-json"),
            (M, "[]", "bad-message"),
            (M, "42", "bad-message"),
            (M, "\"hello\"", "bad-message"),
            (M, "null", "bad-message"),
            (M, {"type": "hello"}, "bad-message"),
            (M, {"t": 5}, "bad-message"),
            (M, {"t": "fly"}, "unknown-type"),
            (M, {"t": "MOVE"}, "unknown-type"),
            (M, deep, "bad-json"),
            (M, big, "too-large"),
            (M, b"\x00\x01binary", "bad-json"),
            (M, {"t": "hello", "proto": 1}, "already-identified"),
            (None, {"t": "move", "game": game, "ply": 0, "move": legal_text}, "no-identity"),
            (None, {"t": "hello", "proto": 2}, "version"),
            (None, {"t": "hello", "proto": "1"}, "bad-message"),
            (None, {"t": "hello", "proto": 1, "token": "forged-token"}, "bad-token"),
            (None, {"t": "hello", "proto": 1, "token": A + "x"}, "bad-token"),
            (None, {"t": "hello", "proto": 1, "token": 12345}, "bad-message"),
            (M, {"t": "move", "game": game, "ply": 0, "move": legal_text}, "not-seated"),
            (M, {"t": "resign", "game": game}, "not-seated"),
            (M, {"t": "draw", "game": game, "op": "offer"}, "not-seated"),
            (M, {"t": "takeback", "game": game, "op": "accept"}, "not-seated"),
            (M, {"t": "claim", "game": game}, "not-seated"),
            (mover_token, {"t": "move", "game": game, "ply": "0", "move": legal_text},
             "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": 0.5, "move": legal_text},
             "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": -1, "move": legal_text},
             "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": 10 ** 20, "move": legal_text},
             "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": 0}, "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": 0, "move": 123}, "bad-message"),
            # A string holding U+0000 would be cut there (issue 23): refused before reading.
            (mover_token, {"t": "move", "game": game, "ply": 0, "move": "\u0000\u0001 ;--"},
             "bad-json"),
            (mover_token, {"t": "move", "game": game, "ply": 0, "move": "\u0001 ;--"},
             "illegal"),
            (mover_token, {"t": "move", "game": game, "ply": 0, "move": long_move},
             "bad-message"),
            (mover_token, {"t": "move", "game": game, "ply": 7, "move": legal_text}, "stale"),
            (idle_token, {"t": "move", "game": game, "ply": 0, "move": legal_text},
             "not-your-turn"),
            (mover_token, {"t": "move", "game": 999999, "ply": 0, "move": legal_text},
             "not-found"),
            (mover_token, {"t": "move", "game": "1; DROP TABLE games", "ply": 0,
                           "move": legal_text}, "bad-message"),
            (mover_token, {"t": "move", "id": {"x": 1}, "game": game, "ply": 0,
                           "move": legal_text}, "bad-message"),
            (M, {"t": "join", "game": game}, "not-open"),
            (M, {"t": "join", "game": waiting_game}, "full"),
            (M, {"t": "join", "game": waiting_game, "invite": "guessed-invite-code"},
             "bad-invite"),
            (M, {"t": "join", "game": waiting_game, "seat": 9}, "bad-seat"),
            (M, {"t": "join", "game": waiting_game, "seat": "9"}, "bad-message"),
            (M, {"t": "leave", "game": waiting_game}, "not-seated"),
            (mover_token, {"t": "leave", "game": game}, "not-open"),
            (M, {"t": "create", "type": "../../etc/passwd", "seats": ["me", "open"]},
             "bad-game"),
            (M, {"t": "create", "type": "rush-the-wall", "seats": ["me", "open"],
                 "options": {"cards": "/etc/passwd"}}, "bad-option"),
            (M, {"t": "create", "type": "rush-the-wall", "seats": ["me", "open"],
                 "options": {"cards": "@/etc/passwd"}}, "bad-option"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "options": {"seed": 1}}, "bad-option"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "options": {"players": 9}}, "bad-option"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "options": ["turn-cap=5"]}, "bad-message"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "options": {"turn-cap": "1 OR 1=1"}}, "bad-option"),
            (M, {"t": "create", "type": "walls-and-armies",
                 "seats": ["me", "ai:ismcts:threads=999,ms=99999999"]}, "bad-seats"),
            (M, {"t": "create", "type": "king-of-danger", "seats": ["open"] * 7}, "bad-seats"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": "me,open"}, "bad-message"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "ai:easy"],
                 "rated": True}, "not-allowed"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "rated": "yes"}, "bad-message"),
            (M, {"t": "create", "type": "walls-and-armies", "seats": ["me", "open"],
                 "clock": {"kind": "live", "initial_ms": 1}}, "bad-clock"),
            (M, {"t": "chat", "game": game, "text": "ring \u0007 bell"}, "bad-text"),
            (M, {"t": "chat", "game": game, "text": "z" * 1000}, "bad-text"),
            (M, {"t": "chat", "game": game, "text": 1000}, "bad-message"),
            (M, {"t": "chat", "game": game, "text": "hi"}, "not-watching"),
            (M, {"t": "register", "name": "Robert'); DROP TABLE users;--",
                 "password": PASSWORD}, "bad-name"),
            (M, {"t": "register", "name": "Mallory", "password": "short"}, "bad-password"),
            (M, {"t": "login", "name": "nobody-at-all", "password": PASSWORD}, "bad-login"),
            (mover_token, {"t": "draw", "game": game, "op": "offer"}, "not-allowed"),
            (mover_token, {"t": "takeback", "game": game, "op": "please"}, "bad-message"),
            (mover_token, {"t": "rematch", "game": game}, "not-over"),
            (mover_token, {"t": "claim", "game": game}, "not-allowed"),
            (M, {"t": "open", "game": 424242}, "not-found"),
            (M, {"t": "close", "game": game}, "not-watching"),
            (M, {"t": "lobby", "watch": "yes"}, "bad-message"),
        ]
        checks.ok(len(cases) >= 40, f"the table has {len(cases)} hostile messages")
        for i, (token, payload, code) in enumerate(cases):
            c = Client(server, f"case{i}")
            await c.connect()
            if token:
                w = await c.hello(token)
                if w["t"] != "welcome":
                    checks.ok(False, f"case {i}: hello failed: {w}")
                    await c.close()
                    continue
            if isinstance(payload, (dict, list)):
                payload = json.dumps(payload)
            await c.ws.send(payload)
            try:
                reply = await c.expect(lambda m: m["t"] == "error", f"error for case {i}",
                                       timeout=120)
                checks.eq(reply["code"], code, f"case {i} {str(payload)[:60]!r}")
                checks.ok(len(reply.get("message", "")) > 5,
                          f"case {i}: the error says what was wrong")
            except Exception as exc:
                checks.ok(False, f"case {i} {str(payload)[:60]!r}: no error: {exc}")
            await c.close()

        after = {c.label: stable(await snapshot(c, g))
                 for c, g in ((alice, game), (bob, game), (carol, other), (dave, other))}
        for label in before:
            checks.eq(after[label], before[label], f"{label}'s game is unchanged")
        games_after = server.http_json("/api/v1/games")[1]
        checks.eq(games_after, games_before, "no game was created, joined or changed")
        status, profile = server.http_json(f"/api/v1/players/{mallory.user['name']}")
        checks.eq((status, profile.get("guest")), (200, True), "mallory is still a guest")

        # The games go on.
        ack = await mover.request({"t": "move", "game": game, "ply": 0, "move": legal_text},
                                  "ack")
        checks.eq(ack["t"], "ack", "the game goes on after the hostile table")

        # The upgrade itself: a foreign Origin and a wrong path are refused.
        for origin, path in (("http://evil.example", "/ws"), (None, "/not-the-socket")):
            url = f"ws://127.0.0.1:{server.port}{path}"
            try:
                ws = await websockets.connect(url, origin=origin) if origin else \
                    await websockets.connect(url)
                await ws.close()
                checks.ok(False, f"upgrade from {origin} to {path} was accepted")
            except Exception:
                checks.ok(True, "refused")
        good = await websockets.connect(server.ws_url, origin=server.url)
        await good.send(json.dumps({"t": "ping"}))
        checks.eq(json.loads(await good.recv())["t"], "pong", "the server's own origin is fine")
        await good.close()

        # Flooding: the default 100 messages per 20 s, then errors, then a 1008 close. Eight
        # messages, then their eight replies, in turn (a client that never reads would only
        # lose its replies at its queue's cap: test_slow_client.py). Eight at a time, not one:
        # the credit comes back at 5 a second, so one message per reply would outpace it only
        # while a reply takes under 0.13 s, which a busy machine need not give.
        flood = await guest(server, "flood")
        limited, code = 0, None
        try:
            for _ in range(300 // 8):
                for _ in range(8):
                    await flood.ws.send(json.dumps({"t": "lobby", "watch": False}))
                for _ in range(8):
                    msg = await flood._receive_one(60)
                    limited += msg.get("code") == "rate-limited"
        except websockets.ConnectionClosed as closed:
            code = closed.code
        checks.ok(limited >= 25, f"a flood is refused with rate-limited errors ({limited})")
        checks.eq(code, 1008, "and then closed with 1008")
        checks.ok("refused within 20 s, closed (1008)" in server.log(),
                  "the server logs the close and why")
        pong = await alice.request({"t": "ping"}, "pong")
        checks.eq(pong["t"], "pong", "other connections are unaffected")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
