"""A tournament's start time (`tournament` `create` with `starts_in` or `starts_ms`,
docs/server-protocol.md "Tournaments"; issue 44): bad start times refused with their reason
and nothing stored; a Swiss created to start in 2 seconds starts by itself and pairs its first
round; on the server's test clock (`--test-clock`), one does not start before its time and
starts at it, the creator's `start` still works earlier (and the time then does nothing more),
an arena starts at its time too (its first tick paired, its minutes counted from then), one
with too few players waits open for them and starts when they come, and one still short an
hour after its time is cancelled (lichess's Swiss: delayed, then dropped)."""

import asyncio
import os
import time

from rsclient import Checks, Server, account, arguments
from test_correspondence import TestClock
from tourlib import listed, op

HOUR_MS = 3600 * 1000


def create(name, **fields):
    base = {"t": "tournament", "op": "create", "name": name, "type": "castle-danger",
            "format": "swiss", "rounds": 1}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


async def standing(c, number):
    return (await c.request(op("standings", number), "standings"))["tournament"]


async def until_status(c, number, wanted, limit=120.0):
    """The tournament once its status is `wanted` (the director looks once a second); the
    limit only catches a hang."""
    deadline = time.monotonic() + limit
    while True:
        t = await standing(c, number)
        if t["status"] == wanted or time.monotonic() > deadline:
            return t
        await asyncio.sleep(0.2)


async def made(checks, c, msg, what):
    reply = await c.request(msg, "tournament")
    checks.eq(reply["t"], "tournament", what)
    return reply.get("tournament", {})


async def entered(*players, number):
    for p in players:
        reply = await p.request(op("join", number), "done")
        assert reply["t"] == "done", reply


async def refusals(checks, alice):
    """Every bad start time: its code and a reason naming it; nothing stored."""
    before = await listed(alice)
    now_ms = int(time.time() * 1000)
    cases = [
        (create("x", starts_in=0), "bad-tournament", "starts_in", "a start in 0 seconds"),
        (create("x", starts_in=-60), "bad-tournament", "starts_in", "a start in the past"),
        (create("x", starts_in=30 * 86400 + 1), "bad-tournament", "30 days",
         "a start more than 30 days ahead"),
        (create("x", starts_ms=now_ms - 60000), "bad-tournament", "not in the future",
         "a start time a minute ago"),
        (create("x", starts_ms=now_ms + 31 * 86400 * 1000), "bad-tournament", "30 days",
         "a start time 31 days ahead"),
        (create("x", starts_in=60, starts_ms=now_ms + 60000), "bad-tournament", "not both",
         "starts_in and starts_ms together"),
        (create("x", starts_in="soon"), "bad-message", "starts_in", "starts_in not a number"),
        (create("x", starts_in=1.5), "bad-message", "starts_in", "starts_in not whole"),
    ]
    for msg, code, reason, what in cases:
        reply = await alice.request(msg, "tournament")
        checks.eq((reply["t"], reply.get("code")), ("error", code), what)
        checks.ok(reason in reply.get("message", ""), f"{what}: the reason names it "
                                                      f"({reply.get('message')!r})")
    checks.eq(await listed(alice), before, "the refusals stored nothing")


async def next_paired(c, number, limit=120.0):
    """c's `paired` for the tournament (received before or after its cursor)."""
    def wanted(m):
        return m["t"] == "paired" and m.get("tournament") == number
    m = next((m for m in c.messages if wanted(m)), None)
    return m or await c.expect(wanted, f"{c.label}'s game of tournament {number}", limit)


async def in_two_seconds(checks, alice, bob):
    """Real time: created to start in 2 s, it starts by itself and pairs round 1."""
    t = await made(checks, alice, create("In two seconds", starts_in=2), "created to start in 2 s")
    checks.eq((t.get("status"), t.get("starts_ms", 0) - t.get("created_ms", 0)), ("open", 2000),
              "open, its start time 2 s after its creation")
    await entered(alice, bob, number=t["id"])
    games = {(await next_paired(c, t["id"]))["game"] for c in (alice, bob)}
    checks.eq(len(games), 1, "both players are paired into one game, with nobody's start")
    after = await standing(alice, t["id"])
    checks.eq((after["status"], after["round"], len(after["pairings"])), ("running", 1, 1),
              "running, its first round paired: one board")
    checks.eq(sorted(after["pairings"][0]["players"]), ["Alice", "Bob"], "Alice meets Bob")


async def on_the_test_clock(checks, clock, alice, bob, carol):
    # Not before its time, and at it: an hour ahead, with a witness that a sweep has run.
    later = await made(checks, alice, create("In an hour", starts_in=3600), "an hour ahead")
    early = await made(checks, alice, create("Started early", format="sets", rounds=None,
                                             starts_in=600), "a set ten minutes ahead")
    await entered(alice, bob, number=later["id"])
    await entered(alice, bob, number=early["id"])
    # The creator's `start` works before the time; only the creator's.
    reply = await bob.request(op("start", early["id"]), "done")
    checks.eq(reply.get("code"), "not-allowed", "only the creator starts it early")
    reply = await alice.request(op("start", early["id"]), "done")
    checks.eq(reply["t"], "done", "the creator starts it ten minutes early")
    first = (await next_paired(alice, early["id"]))["game"]
    # A witness due in 5 minutes: once it has started, a sweep ran past the 5 minutes, and
    # the tournament due in an hour was looked at in that sweep and left open.
    witness = await made(checks, alice, create("Witness", starts_in=300), "a witness")
    await entered(alice, carol, number=witness["id"])
    arena = await made(checks, alice, create("Arena", format="arena", rounds=None, minutes=30,
                                             starts_in=300), "an arena five minutes ahead")
    await entered(bob, carol, number=arena["id"])
    clock.advance(301 * 1000)
    checks.eq((await until_status(alice, witness["id"], "running"))["status"], "running",
              "the witness started at its time on the test clock")
    a = await until_status(alice, arena["id"], "running")
    checks.eq((a["status"], len(a["pairings"]), a.get("ends_ms", 0) - a["starts_ms"]),
              ("running", 1, 30 * 60000),
              "the arena started at its time: its first tick paired, its 30 minutes from then")
    checks.eq((await standing(alice, later["id"]))["status"], "open",
              "the one due in an hour has not started 5 minutes in")
    clock.advance(HOUR_MS)
    t = await until_status(alice, later["id"], "running")
    checks.eq((t["status"], t["round"], len(t["pairings"])), ("running", 1, 1),
              "at its time it started by itself and paired its first round")
    # The started-early set: its start time passed, nothing more happened to it.
    e = await standing(alice, early["id"])
    checks.eq((e["status"], e["round"], len(e["pairings"]), e["pairings"][0].get("game")),
              ("running", 1, 1, first), "the set started early was not started again")
    reply = await alice.request(op("start", early["id"]), "done")
    checks.eq(reply.get("code"), "not-open", "and a second start is refused")

    # Too few players at the time: it waits open, entries still taken; starts when they come.
    waiting = await made(checks, alice, create("Waiting", starts_in=60), "due in a minute")
    await entered(alice, number=waiting["id"])
    short = await made(checks, alice, create("Short", starts_in=60), "another due in a minute")
    await entered(bob, number=short["id"])
    witness = await made(checks, alice, create("Witness 2", starts_in=60), "a second witness")
    await entered(alice, carol, number=witness["id"])
    clock.advance(61 * 1000)
    await until_status(alice, witness["id"], "running")
    checks.eq([(await standing(alice, n))["status"] for n in (waiting["id"], short["id"])],
              ["open", "open"], "with one player at their time, both wait open")
    await entered(carol, number=waiting["id"])
    t = await until_status(alice, waiting["id"], "running")
    checks.eq((t["status"], len(t["pairings"])), ("running", 1),
              "a second player joins: it starts by itself")
    # Still short an hour after its time: cancelled, and then closed to entries and starts.
    clock.advance(HOUR_MS)
    t = await until_status(alice, short["id"], "cancelled")
    checks.eq((t["status"], t["round"], t["pairings"]), ("cancelled", 0, []),
              "still one player an hour after its time: cancelled, nothing paired")
    reply = await carol.request(op("join", short["id"]), "done")
    checks.eq(reply.get("code"), "not-open", "a cancelled tournament takes no entries")
    reply = await alice.request(op("start", short["id"]), "done")
    checks.eq(reply.get("code"), "not-open", "and cannot be started")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"])
    clock = TestClock(os.path.join(server.dir, "clock"))
    server.extra += ["--test-clock", clock.path]
    server.start()
    try:
        alice = await account(server, "alice", "Alice")
        bob = await account(server, "bob", "Bob")
        carol = await account(server, "carol", "Carol")
        await refusals(checks, alice)
        await in_two_seconds(checks, alice, bob)
        await on_the_test_clock(checks, clock, alice, bob, carol)
        log = server.log()
        checks.ok("started at its start time" in log and "cancelled" in log,
                  "the server logs the starts and the cancellation")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly")
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
