#!/usr/bin/env python3
"""test_flood.py — issue 49's flood benchmark: what one address can do to everyone else, each
flood from its own loopback address against a server with its default limits, while an
unrelated client (another address) measures its ping round trip and how long a login takes:
  - finding 1: guests create games against the computer until the address's limit (50), then
    keep asking (each refused `too-many`), and fetch /api/v1/games in a loop (600 a 20 s);
  - finding 2: logins with a wrong password to a registered account, on many sockets;
  - finding 5: guests create open games and seek until the address's limits (20 and 12),
    then keep asking;
  - finding 6: new guests, one `hello` after another, on a few sockets.
It asserts what the limits promise (each flood reaches its limit and is refused beyond it, the
unrelated client is answered throughout) and prints the figures (docs/server.md, "Limits and
defences"); it asserts no time. `make test` floods for 4 s, `make soak` (RAMPARTS_SOAK=1) for
60 s."""
import asyncio
import os
import statistics
import time
import urllib.error
import urllib.request

from loadlib import Checks, Server, arguments, raise_fd_limit

import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rsclient import Client, guest  # noqa: E402

SOAK = os.environ.get("RAMPARTS_SOAK") == "1"
SECONDS = 60 if SOAK else 4
PASSWORD = "a passphrase nobody floods"
AI_GAME = {"t": "create", "type": "castle-danger", "seats": ["me", "ai:random"]}
OPEN_GAME = {"t": "create", "type": "castle-danger", "seats": ["me", "open"]}


class Tally:
    """What one flood was answered: reply type or error code -> count."""

    def __init__(self, name):
        self.name = name
        self.counts = {}

    async def add(self, reply):
        """Count a reply; over the connection's rate limit, wait a second (30 refusals within
        20 s would close the connection: a flood paces itself to stay at its limits)."""
        key = reply.get("code", reply["t"])
        self.counts[key] = self.counts.get(key, 0) + 1
        if key == "rate-limited":
            await asyncio.sleep(1)

    def __str__(self):
        return f"{self.name}: " + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))


HANG_S = 600  # a flood that has not reached its limit by then is stuck: a bound, not a speed


async def until(deadline, step, reached=lambda: True):
    """Repeat step until the deadline has passed and the flood has reached its limit."""
    while time.monotonic() < deadline or not reached():
        if time.monotonic() > deadline + HANG_S:
            return
        await step()


async def ai_games(server, deadline, tally):
    """Finding 1: five guests from 127.0.0.11, ten games against the computer each, then on."""
    guests = [await guest(server, f"ai{i}", source="127.0.0.11") for i in range(6)]

    async def step():
        for g in guests:
            await tally.add(await g.request(AI_GAME, "created"))
            g.messages.clear(), g.frames.clear()
            g.cursor = 0
    await until(deadline, step, lambda: tally.counts.get("too-many", 0) >= len(guests))
    return guests


def http_flood(server, deadline, tally):
    """Finding 1's HTTP: /api/v1/games in a loop (from 127.0.0.1, the client's address here)."""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(server.url + "/api/v1/games", timeout=60) as r:
                r.read()
                tally.counts["200"] = tally.counts.get("200", 0) + 1
        except urllib.error.HTTPError as e:
            tally.counts[str(e.code)] = tally.counts.get(str(e.code), 0) + 1


async def logins(server, deadline, tally, name):
    """Finding 2: wrong passwords for a registered account, eight sockets at once."""
    async def one(i):
        c = Client(server, f"login{i}")
        await c.connect(source="127.0.0.12")
        await c.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
        while time.monotonic() < deadline:
            await tally.add(await c.request({"t": "login", "name": name, "password": "wrong guess"},
                                      "welcome"))
            c.messages.clear(), c.frames.clear()
            c.cursor = 0
        await c.close()
    await asyncio.gather(*(one(i) for i in range(8)))


TYPES = ["castle-danger", "king-of-danger", "rush-the-wall", "walls-and-armies",
         "danger-at-the-walls"]
CLOCKS = [{"kind": "none"}, {"kind": "live", "initial_ms": 300000, "increment_ms": 5000},
          {"kind": "correspondence", "days": 3}]


async def lobby_flood(server, deadline, tally):
    """Finding 5: guests from 127.0.0.13 make open games and seeks past the address's limits.
    Each guest seeks in three pools of its own (a game, three clocks), so no two are paired."""
    guests = [await guest(server, f"lobby{i}", source="127.0.0.13") for i in range(5)]
    rounds = [0] * len(guests)

    async def step():
        for i, g in enumerate(guests):
            await tally.add(await g.request(OPEN_GAME, "created"))
            clock = CLOCKS[rounds[i] % len(CLOCKS)]
            rounds[i] += 1
            await tally.add(await g.request({"t": "seek", "type": TYPES[i], "clock": clock},
                                            "seeking"))
            g.messages.clear(), g.frames.clear()
            g.cursor = 0
    await until(deadline, step, lambda: tally.counts.get("too-many", 0) >= 2 * len(guests))
    return guests


async def new_guests(server, deadline, tally):
    """Finding 6: one hello after another without a token, on four sockets."""
    async def one(i):
        while time.monotonic() < deadline:
            c = Client(server, f"new{i}")
            try:  # a place freed by a close is let in once the server has seen the close
                await c.connect(source="127.0.0.14")
            except Exception:
                await tally.add({"t": "upgrade-refused"})
                await asyncio.sleep(0.1)
                continue
            await tally.add(await c.request({"t": "hello", "proto": 1}, "welcome"))
            await c.close()
    await asyncio.gather(*(one(i) for i in range(4)))


async def measure(server, stop, name):
    """The unrelated client (127.0.0.20): a ping every 50 ms on one connection and, beside it,
    a login on a new connection every second, until stop() (the floods ended)."""
    c = Client(server, "bystander")
    await c.connect(source="127.0.0.20")
    await c.hello()
    pings, logins = [], []

    async def ping():
        while not stop():
            t0 = time.monotonic()
            await c.request({"t": "ping"}, "pong")
            pings.append((time.monotonic() - t0) * 1000)
            c.messages.clear(), c.frames.clear()
            c.cursor = 0
            await asyncio.sleep(0.05)

    async def login():
        while not stop():
            t0 = time.monotonic()
            who = Client(server, "bystander-login")
            await who.connect(source="127.0.0.20")
            await who.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
            r = await who.request({"t": "login", "name": name, "password": PASSWORD}, "welcome")
            logins.append(((time.monotonic() - t0) * 1000, r["t"]))
            await who.close()
            await asyncio.sleep(max(0.0, 1 - (time.monotonic() - t0)))
    await asyncio.gather(ping(), login())
    await c.close()
    return pings, logins


def summary(values):
    if not values:
        return "none"
    v = sorted(values)
    p95 = v[min(len(v) - 1, int(len(v) * 0.95))]
    return f"median {statistics.median(v):.1f} ms, p95 {p95:.1f} ms, max {v[-1]:.1f} ms ({len(v)})"


async def main():
    args = arguments()
    checks = Checks()
    raise_fd_limit(4096)
    server = Server(args.ramparts).start()  # default limits
    try:
        owner = await guest(server, "owner", source="127.0.0.21")
        r = await owner.request({"t": "register", "name": "Victim", "password": PASSWORD},
                                "registered")
        checks.eq(r["t"], "registered", "the flooded account registers")
        bystander = await guest(server, "bystander-account", source="127.0.0.20")
        r = await bystander.request({"t": "register", "name": "Bystander",
                                     "password": PASSWORD}, "registered")
        checks.eq(r["t"], "registered", "the bystander registers")
        await bystander.close()
        quiet_end = time.monotonic() + 5
        quiet_pings, quiet_logins = await measure(server, lambda: time.monotonic() > quiet_end,
                                                  "Bystander")
        deadline = time.monotonic() + SECONDS
        tallies = {k: Tally(k) for k in ("ai-games", "http", "logins", "lobby", "guests")}
        loop = asyncio.get_running_loop()
        # Four threads: faster than the budget refills (30 a second), so it is met.
        http = [loop.run_in_executor(None, http_flood, server, deadline, tallies["http"])
                for _ in range(4)]
        floods = asyncio.gather(
            ai_games(server, deadline, tallies["ai-games"]),
            logins(server, deadline, tallies["logins"], "Victim"),
            lobby_flood(server, deadline, tallies["lobby"]),
            new_guests(server, deadline, tallies["guests"]))
        watched = asyncio.ensure_future(measure(server, floods.done, "Bystander"))
        results = await floods
        await asyncio.gather(*http)
        pings, bystander_logins = await watched
        flooded_s = time.monotonic() - deadline + SECONDS
        for t in tallies.values():
            print(f"flood {t}")
        print(f"bystander ping, quiet: {summary(quiet_pings)}")
        print(f"bystander ping, flooded {flooded_s:.0f} s: {summary(pings)}")
        print(f"bystander login, quiet: {summary([ms for ms, _ in quiet_logins])}")
        print(f"bystander login, flooded: {summary([ms for ms, _ in bystander_logins])}")
        ai = tallies["ai-games"].counts
        checks.eq(ai.get("created", 0), 50, "finding 1: the address made 50 games against the AI")
        checks.ok(ai.get("too-many", 0) > 0, "finding 1: and was refused beyond them")
        served = tallies["http"].counts.get("200", 0)
        checks.ok(served <= 600 + 30 * (flooded_s + 1),
                  f"finding 1: the HTTP flood is served within its budget ({served})")
        asked = sum(tallies["http"].counts.values())
        if asked > 600 + 30 * (flooded_s + 1):  # the flood outran the budget: refusals
            checks.ok(tallies["http"].counts.get("429", 0) > 0,
                      "finding 1: and refused beyond it (429)")
        lobby = tallies["lobby"].counts
        checks.eq((lobby.get("created", 0), lobby.get("seeking", 0)), (20, 12),
                  "finding 5: the address made 20 open games and 12 seeks")
        checks.ok(lobby.get("too-many", 0) > 0, "finding 5: and was refused beyond them")
        checks.ok(tallies["logins"].counts.get("welcome", 0) == 0,
                  "finding 2: no wrong password logs in")
        checks.ok(sum(tallies["logins"].counts.values()) > 0, "finding 2: the logins were flooded")
        checks.ok(sum(tallies["guests"].counts.values()) > 0, "finding 6: guests were flooded")
        checks.ok(len(pings) > 0 and all(t == "welcome" for _, t in bystander_logins) and
                  bystander_logins, "the bystander is answered throughout: pings and logins")
        print(f"load average: {os.getloadavg()[0]:.1f}")
        for c in results[0] + results[2] + [owner]:
            await c.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
