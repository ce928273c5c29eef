"""Challenges and the setting that refuses them (`challenge`, `settings`, docs/server-protocol.md;
issue 41) on one server: sent, seen by the target and in both lists of `mine`, declined,
cancelled, accepted (a started game with both seated, `paired` to both), `challenge-gone`
each way; refused when the target turned them off and allowed again; guests refused; every
bad field answered with its error and nothing changed; at most five sent; a pending challenge
kept over a restart; expiry on a server given a short `--challenge-expiry`; the rate cost of
a send (3) and of an answer (1)."""

import asyncio

from rsclient import PASSWORD, Checks, Client, Server, account, arguments, guest, login

GAME = "castle-danger"


def send(to, **fields):
    return dict({"t": "challenge", "op": "send", "to": to, "type": GAME}, **fields)


def op(name, challenge):
    return {"t": "challenge", "op": name, "challenge": challenge}


async def lists(c):
    m = await c.request({"t": "mine"}, "mine")
    return ([x["id"] for x in m["challenges"]["received"]],
            [x["id"] for x in m["challenges"]["sent"]], m)


async def anywhere(c, pred, what):
    """A message c received, before or after its cursor (a push may come before the reply
    to the request that caused it)."""
    for m in c.messages:
        if pred(m):
            return m
    return await c.expect(pred, what)


async def gone(c, challenge, why):
    m = await anywhere(c, lambda m: m["t"] == "challenge-gone" and m["challenge"] == challenge,
                       f"challenge-gone for {challenge}")
    return m["why"] == why


async def bad_fields(checks, alice, bob, pending):
    """Every wrong field: its error, and Alice's and Bob's lists as they were."""
    before = (await lists(alice))[:2], (await lists(bob))[:2]
    cases = [
        ({"t": "challenge"}, "bad-message", "op missing"),
        ({"t": "challenge", "op": "poke"}, "bad-message", "an unknown op"),
        ({"t": "challenge", "op": "send", "type": GAME}, "bad-message", "to missing"),
        (send("Nobody"), "no-such-user", "an unknown player"),
        (send("Alice"), "bad-target", "oneself"),
        (send("Bob", type="no-such-game"), "bad-game", "an unknown game"),
        (send("Bob", options={"players": 3}), "bad-option", "three players"),
        (send("Bob", options={"seed": 1}), "bad-option", "the seed"),
        (send("Bob", options={"nonsense": 1}), "bad-option", "an unknown option"),
        (send("Bob", options="fast"), "bad-message", "options not an object"),
        (send("Bob", clock={"kind": "live"}), "bad-clock", "a live clock without time"),
        (send("Bob", clock={"kind": "sundial"}), "bad-clock", "an unknown clock"),
        (send("Bob", rated="yes"), "bad-message", "rated not a boolean"),
        (send("Bob", seat=2), "bad-seat", "a seat out of range"),
        (send("Bob", seat="first"), "bad-message", "seat not a number"),
        (op("accept", pending), "no-such-challenge", "the sender accepting her own"),
        (op("decline", pending), "no-such-challenge", "the sender declining her own"),
        (op("accept", 999999), "no-such-challenge", "an unknown challenge"),
        (op("cancel", "x"), "bad-message", "a challenge id not a number"),
        ({"t": "challenge", "op": "cancel"}, "bad-message", "the challenge id missing"),
        ({"t": "settings"}, "bad-message", "settings without challenges"),
        ({"t": "settings", "challenges": "no"}, "bad-message", "challenges not a boolean"),
    ]
    for msg, code, what in cases:
        reply = await alice.request(msg, "none")
        checks.eq(reply.get("code"), code, f"{what}: {code}")
    reply = await bob.request(op("cancel", pending), "none")
    checks.eq(reply.get("code"), "no-such-challenge", "the target cannot cancel it")
    after = (await lists(alice))[:2], (await lists(bob))[:2]
    checks.eq(after, before, "no bad request changed a list")
    settings = (await lists(alice))[2]["settings"]
    checks.eq(settings, {"challenges": True}, "nor the setting")


async def decline_cancel_accept(checks, alice, bob):
    declined = (await alice.request(send("Bob"), "challenged"))["challenge"]["id"]
    reply = await bob.request(op("decline", declined), "done")
    checks.eq((reply["t"], reply.get("re")), ("done", "challenge"), "decline answered done")
    checks.ok(await gone(alice, declined, "declined") and await gone(bob, declined, "declined"),
              "both told challenge-gone, declined")
    cancelled = (await alice.request(send("Bob"), "challenged"))["challenge"]["id"]
    await anywhere(bob, lambda m: m["t"] == "challenge" and m["challenge"]["id"] == cancelled,
                   "the second challenge")
    reply = await alice.request(op("cancel", cancelled), "done")
    checks.eq(reply["t"], "done", "cancel answered done")
    checks.ok(await gone(alice, cancelled, "cancelled")
              and await gone(bob, cancelled, "cancelled"), "both told, cancelled")
    clock = {"kind": "live", "initial_ms": 300000, "increment_ms": 2000}
    accepted = (await alice.request(send("Bob", seat=1, clock=clock, options={"turn-limit": 40}),
                                    "challenged"))["challenge"]["id"]
    reply = await bob.request(op("accept", accepted), "done")
    game = reply.get("game")
    checks.ok(reply["t"] == "done" and isinstance(game, int), f"accept answered with the game: {reply}")
    paired_a = await anywhere(alice, lambda m: m["t"] == "paired", "paired for Alice")
    paired_b = await anywhere(bob, lambda m: m["t"] == "paired", "paired for Bob")
    checks.eq((paired_a, paired_b),
              ({"t": "paired", "game": game, "seat": 1, "challenge": accepted},
               {"t": "paired", "game": game, "seat": 0, "challenge": accepted}),
              "paired to both: the seat she chose, the other to him")
    checks.ok(await gone(alice, accepted, "accepted") and await gone(bob, accepted, "accepted"),
              "both told, accepted")
    state = await bob.request({"t": "open", "game": game}, "snapshot")
    checks.eq((state["status"], [s.get("name") for s in state["seats"]], state["clock"]["kind"]),
              ("live", ["Bob", "Alice"], "live"), "the game is started with both seated, live clock")
    again = await bob.request(op("accept", accepted), "none")
    checks.eq(again.get("code"), "no-such-challenge", "an accepted challenge is gone")
    _, _, mine = await lists(bob)
    checks.ok(game in [g["game"] for g in mine["games"]], "the game is in Bob's list")


async def refusing(checks, alice, bob, bob2):
    reply = await bob.request({"t": "settings", "challenges": False}, "done")
    checks.eq((reply["t"], reply.get("re")), ("done", "settings"), "settings answered done")
    told = await anywhere(bob2, lambda m: m["t"] == "settings", "the setting told")
    checks.eq(told, {"t": "settings", "challenges": False}, "his other connection is told")
    checks.eq((await lists(bob2))[2]["settings"], {"challenges": False},
              "his other connection's list shows it")
    refused = await alice.request(send("Bob"), "challenged")
    checks.eq(refused.get("code"), "refused", "a player who turned challenges off: refused")
    checks.eq((await lists(alice))[1], [], "nothing sent")
    await bob.request({"t": "settings", "challenges": True}, "done")
    ok = await alice.request(send("Bob"), "challenged")
    checks.eq(ok["t"], "challenged", "allowed again once turned back on")
    return ok["challenge"]["id"]


async def too_many(checks, alice, pending):
    ids = []
    while len(ids) + len(pending) < 5:
        ids.append((await alice.request(send("Carol"), "challenged"))["challenge"]["id"])
    sixth = await alice.request(send("Carol"), "challenged")
    checks.eq(sixth.get("code"), "too-many", "a sixth pending challenge: too-many")
    checks.eq(len((await lists(alice))[1]), 5, "still five")
    for i in ids:
        await alice.request(op("cancel", i), "done")


async def one_server(checks, args):
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        alice = await account(server, "alice", "Alice")
        bob = await account(server, "bob", "Bob")
        await account(server, "carol", "Carol")
        visitor = await guest(server, "visitor")
        empty = await lists(bob)
        checks.eq(empty[:2], ([], []), "no challenges at first")
        sent = await alice.request(send("Bob"), "challenged")
        c = sent.get("challenge", {})
        checks.eq((sent["t"], c.get("from"), c.get("to"), c.get("type"), c.get("options"),
                   c.get("clock"), c.get("rated")),
                  ("challenged", "Alice", "Bob", GAME, {}, {"kind": "none"}, False),
                  "send answered challenged with the challenge")
        checks.eq(c["expires_ms"] - c["created_ms"], 600000, "it expires in 10 minutes")
        seen = await anywhere(bob, lambda m: m["t"] == "challenge", "the challenge for Bob")
        checks.eq(seen["challenge"], c, "the target is sent the same challenge")
        checks.eq((await lists(bob))[:2], ([c["id"]], []), "Bob's list: received")
        checks.eq((await lists(alice))[:2], ([], [c["id"]]), "Alice's list: sent")
        corr = await alice.request(send("Bob", clock={"kind": "correspondence", "days": 3}),
                                   "challenged")
        cc = corr["challenge"]
        checks.eq(cc["expires_ms"] - cc["created_ms"], 3 * 86400000,
                  "with days per move it expires in 3 days")
        await alice.request(op("cancel", cc["id"]), "done")
        await bad_fields(checks, alice, bob, c["id"])
        reply = await visitor.request(send("Bob"), "challenged")
        checks.eq(reply.get("code"), "not-registered", "a guest cannot challenge")
        reply = await alice.request(send(visitor.user["name"]), "challenged")
        checks.eq(reply.get("code"), "no-such-user", "nor be challenged")
        await bob.request(op("decline", c["id"]), "done")
        await decline_cancel_accept(checks, alice, bob)
        bob2, _ = await login(server, "bob2", "Bob", PASSWORD)
        kept = await refusing(checks, alice, bob, bob2)
        await too_many(checks, alice, [kept])
        for x in (alice, bob, bob2, visitor):
            await x.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
        server.start()
        alice, _ = await login(server, "alice-again", "Alice", PASSWORD)
        bob, _ = await login(server, "bob-again", "Bob", PASSWORD)
        checks.eq((await lists(alice))[1], [kept], "a pending challenge survives a restart")
        reply = await bob.request(op("accept", kept), "done")
        checks.ok(isinstance(reply.get("game"), int), "and is accepted after it")
        await alice.close()
        await bob.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")


async def expiry(checks, args):
    server = Server(args.ramparts, extra=["--rate", "100000", "--challenge-expiry", "1"]).start()
    try:
        alice = await account(server, "alice", "Alice")
        bob = await account(server, "bob", "Bob")
        await bob.request({"t": "mine"}, "mine")
        c = (await alice.request(send("Bob"), "challenged"))["challenge"]
        checks.eq(c["expires_ms"] - c["created_ms"], 1000, "--challenge-expiry sets the expiry")
        checks.ok(await gone(alice, c["id"], "expired") and await gone(bob, c["id"], "expired"),
                  "both told challenge-gone, expired")
        await bob.expect(lambda m: m["t"] == "mine" and "id" not in m
                         and not m["challenges"]["received"], "Bob's list pushed without it")
        reply = await bob.request(op("accept", c["id"]), "done")
        checks.eq(reply.get("code"), "no-such-challenge", "an expired challenge is gone")
        await alice.close()
        await bob.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")


async def burst(c, msg, count):
    """count copies of msg sent at once (each with its own id); the replies' codes."""
    ids = []
    for _ in range(count):
        c.next_id += 1
        ids.append(f"{c.label}-{c.next_id}")
        await c.send(dict(msg, id=ids[-1]))
    replies = [await c.expect(lambda m, i=i: m.get("id") == i, f"reply {i}") for i in ids]
    return [r.get("code", r["t"]) for r in replies]


async def rate_costs(checks, args):
    """A sent challenge costs 3 credits (4 when refused), an answer 1 (2 when refused): on a
    server allowing 10 messages per 20 s, a fresh connection (9 credits left after hello)
    gets at most 3 of 10 sends at once answered (the credits never exceed 10), and at least 4
    of 10 cancels. The credits refill by 0.5 a second: only a stall of 6 s inside one burst
    could let a fourth send through."""
    server = Server(args.ramparts, extra=["--rate", "10"]).start()
    try:
        alice = await account(server, "alice", "Alice")
        sender = await login_by_token(server, "sender", alice.token)
        codes = await burst(sender, send("Nobody"), 10)
        answered = [c for c in codes if c != "rate-limited"]
        checks.ok(answered and set(answered) == {"no-such-user"} and len(answered) <= 3,
                  f"sends cost 3: {codes}")
        answerer = await login_by_token(server, "answerer", alice.token)
        codes = await burst(answerer, op("cancel", 999999), 10)
        answered = [c for c in codes if c != "rate-limited"]
        checks.ok(len(answered) >= 4 and set(answered) == {"no-such-challenge"},
                  f"cancels cost 1: {codes}")
        for c in (alice, sender, answerer):
            await c.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")


async def login_by_token(server, label, token):
    c = Client(server, label)
    await c.connect()
    reply = await c.hello(token)
    assert reply["t"] == "welcome", reply
    return c


async def main():
    args = arguments()
    checks = Checks()
    await one_server(checks, args)
    await expiry(checks, args)
    await rate_costs(checks, args)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
