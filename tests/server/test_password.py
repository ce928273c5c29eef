"""A registered player's password change (`password`, docs/server-protocol.md): a refusal (a
guest, a new password too short, too long, unchanged or refused by the rule, a wrong old one)
changes nothing; a change makes the old password useless, revokes every other token of the
account (their connections are told `logged-out` and lose their identity, a seated player's
game going on), and keeps the asking connection's token and the other pages on that same
token."""

import asyncio

from rsclient import (NEW_PASSWORD, PASSWORD, Checks, Client, Server, arguments, guest, identified,
                      login, told_logged_out)


async def refused(checks, c, msg, code, what):
    reply = await c.request(dict(msg, t="password"), "done")
    checks.eq(reply.get("code"), code, what)
    checks.ok(reply.get("re") == "password" and reply.get("message"),
              f"{code}: the error names the message and says why ({reply.get('message')})")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts).start()
    try:
        stranger = await guest(server, "stranger")
        await refused(checks, stranger, {"old": "whatever1", "new": "whatever2"},
                      "not-registered", "a guest has no password to change")
        alice = await guest(server, "alice")
        await alice.request({"t": "register", "name": "Alice", "password": PASSWORD},
                            "registered")
        # A second page of the same browser (the same token), and two other devices.
        tab = Client(server, "alice-tab")
        await tab.connect()
        await tab.hello(alice.token)
        phone, _ = await login(server, "alice-phone", "alice", PASSWORD)
        laptop, _ = await login(server, "alice-laptop", "alice", PASSWORD)
        # The laptop plays: it is seated in a game against the computer.
        game = (await laptop.request({"t": "create", "type": "castle-danger",
                                      "seats": ["me", "ai:random"]}, "created"))["game"]
        await laptop.state_at(game, ply=0)

        for msg, code, what in (
                ({"old": PASSWORD, "new": "short"}, "bad-password",
                 "a new password under 8 bytes is refused"),
                ({"old": PASSWORD, "new": "x" * 129}, "bad-password",
                 "a new password over 128 bytes is refused"),
                ({"old": PASSWORD, "new": PASSWORD}, "bad-password",
                 "a new password equal to the old one is refused"),
                ({"old": PASSWORD, "new": "12345678"}, "bad-password",
                 "a new password the rule refuses (libpwquality: a sequence) is refused"),
                ({"old": "wonderland?", "new": NEW_PASSWORD}, "wrong-password",
                 "a wrong old password is refused"),
                ({"old": PASSWORD}, "bad-message", "a missing new password is refused"),
                ({"old": 5, "new": NEW_PASSWORD}, "bad-message",
                 "an old password that is not text is refused")):
            await refused(checks, alice, msg, code, what)
        # Nothing changed: the old password still logs in, every token still works.
        check, reply = await login(server, "check", "alice", PASSWORD)
        checks.eq(reply["t"], "welcome", "after the refusals the old password still logs in")
        await check.request({"t": "logout"}, "logged-out")
        await check.close()
        for c in (alice, tab, phone, laptop):
            checks.ok(await identified(c), f"after the refusals {c.label} is still logged in")

        done = await alice.request({"t": "password", "old": PASSWORD,
                                    "new": NEW_PASSWORD}, "done")
        checks.eq((done["t"], done.get("re"), done.get("logged_out")), ("done", "password", 2),
                  "the change is done, and logs out the two other devices")
        for c in (phone, laptop):
            await told_logged_out(checks, c)
        for c in (alice, tab):
            checks.ok(await identified(c), f"{c.label} (the same token) is still logged in")
        for c, label in ((phone, "the phone's"), (laptop, "the laptop's"),
                         (alice, "the asking page's")):
            again = Client(server, f"again-{c.label}")
            await again.connect()
            reply = await again.request({"t": "hello", "proto": 1, "token": c.token}, "welcome")
            want = "welcome" if c is alice else "error"
            checks.eq(reply["t"], want, f"{label} token {'still works' if c is alice else 'is revoked'}")
            await again.close()
        _, reply = await login(server, "old", "alice", PASSWORD)
        checks.eq(reply.get("code"), "bad-login", "the old password no longer logs in")
        back, reply = await login(server, "new", "alice", NEW_PASSWORD)
        checks.eq(reply["t"], "welcome", "the new password does")
        # The laptop's game went on without it: Alice is still seated there.
        snap = await back.request({"t": "open", "game": game}, "snapshot")
        checks.eq((snap["you"], snap["status"]), (0, "live"), "the game goes on, Alice seated")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
