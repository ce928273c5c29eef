""""Play now" on one server (docs/server-protocol.md, "Play now: seek, unseek, paired").

- 200 clients seek at once in seven pools (five games; 2, 3 and 4 players; no clock, live
  clocks, days per move; rated, its seekers registered, and not), with ratings from 1400 to
  1650: each is paired exactly once (one `paired`, its seek gone after), every game's players
  were within each other's rating windows at the instant it was created (the window rule,
  read from the seeks' `since_ms` and the game's `created_ms`), no game seats a user twice,
  and the seats of each game are exactly its players, in the pool's game, clock and rated.
- Two seekers 240 points apart are paired only once both windows have widened to 250 (15 s).
- A guest that logged into an account is never paired with it, though they are nearest in
  rating: each is paired with a stranger 90 points away instead.
- Bad input to seek and unseek is refused with its error code and changes nothing (the user
  can still make exactly three seeks; another user's seek survives an unseek naming it).
- A user's seeks stay while one of their connections is open, and go with the last.

The ratings are written into the database (the ratings table, as rated games write it)
before the clients seek: earning a spread of ratings by playing rated games would take
minutes under ASan and prove nothing more about pairing. The same scenario runs on a
three-node cluster in test_pools_cluster.py."""

import asyncio
import random
import sqlite3
import time

from rsclient import PASSWORD, Checks, Client, Server, arguments, guest, login

# (type, players, clock, rated, clients): 200 clients in all, a multiple of players each.
POOLS = [
    ("danger-at-the-walls", 2, {"kind": "live", "initial_ms": 180000, "increment_ms": 2000},
     False, 40),
    ("castle-danger", 2, {"kind": "none"}, False, 36),
    ("walls-and-armies", 2, {"kind": "correspondence", "days": 2}, True, 30),
    ("king-of-danger", 2, {"kind": "live", "initial_ms": 600000, "increment_ms": 0}, False, 20),
    ("king-of-danger", 3, {"kind": "none"}, False, 30),
    ("rush-the-wall", 4, {"kind": "live", "initial_ms": 300000, "increment_ms": 0}, False, 24),
    ("rush-the-wall", 2, {"kind": "none"}, False, 20),
]
LOW, HIGH = 1400, 1650
WAIT_LIMIT = 240.0  # seconds for every client to be paired: a bound for a hang


def window(waited_ms):
    return 100 + 50 * (max(waited_ms, 0) // 5000)


def sqlite_ratings(db):
    """Ratings written into a server's SQLite database while it runs (WAL: the server reads
    them at the next seek)."""
    def put(rows):
        con = sqlite3.connect(db, timeout=60)
        with con:
            con.executemany("INSERT OR REPLACE INTO ratings(user_id, game, rating, rd, vol, games)"
                            " VALUES(?, ?, ?, 350, 0.06, 0)", rows)
        con.close()
    return put


def postgres_ratings(pg):
    def put(rows):
        values = ", ".join(f"({u}, '{g}', {r}, 350, 0.06, 0)" for u, g, r in rows)
        pg.query("INSERT INTO ratings(user_id, game, rating, rd, vol, games) VALUES " + values +
                 " ON CONFLICT (user_id, game) DO UPDATE SET rating = EXCLUDED.rating")
    return put


class Target:
    """Where a client connects: one server (a node of a cluster)."""

    def __init__(self, server):
        self.ws_url = server.ws_url


async def connect_guests(targets, count, label):
    clients = [Client(targets[i % len(targets)], f"{label}{i}") for i in range(count)]
    for start in range(0, count, 50):
        batch = clients[start:start + 50]
        await asyncio.gather(*(c.connect() for c in batch))
        await asyncio.gather(*(c.hello() for c in batch))
    return clients


def seek_msg(kind, players, clock, rated):
    msg = {"t": "seek", "type": kind, "players": players, "rated": rated}
    if clock:
        msg["clock"] = clock
    return msg


async def seek_all(clients, msgs):
    return await asyncio.gather(*(c.request(m, "seeking") for c, m in zip(clients, msgs)))


def game_summary(http_json, game):
    status, summary = http_json(f"/api/v1/games/{game}")
    return summary if status == 200 else None


async def many_pools(checks, targets, put_ratings, http_json):
    """The 200 clients: each paired once, within the rule, seats covering the players."""
    rng = random.Random(41)
    plan = [(p, i) for p in POOLS for i in range(p[4])]
    rng.shuffle(plan)
    started = time.monotonic()
    clients = await connect_guests(targets, len(plan), "p")
    # Rated pools are for registered players (issue 49): those seekers register first.
    rated = [c for c, (p, _) in zip(clients, plan) if p[3]]
    regs = await asyncio.gather(*(c.request({"t": "register", "name": f"pooler-{i}",
                                             "password": PASSWORD}, "registered")
                                  for i, c in enumerate(rated)))
    checks.ok(all(r["t"] == "registered" for r in regs),
              f"the {len(regs)} seekers of the rated pool register: "
              f"{[r.get('code') for r in regs if r['t'] != 'registered']}")
    for c, r in zip(rated, regs):
        c.user = r.get("user", c.user)  # the name the games will show
    ratings = [rng.randrange(LOW, HIGH + 1) for _ in plan]
    put_ratings([(c.user["id"], p[0], r) for c, (p, _), r in zip(clients, plan, ratings)])
    replies = await seek_all(clients, [seek_msg(*p[:4]) for p, _ in plan])
    seeks = {}
    for c, reply, r, (p, _) in zip(clients, replies, ratings, plan):
        if not checks.eq(reply["t"], "seeking", f"{c.label} seeks in {p[0]}/{p[1]}"):
            continue
        s = reply["seek"]
        checks.ok(s["rating"] == r and s["type"] == p[0] and s["players"] == p[1]
                  and s["rated"] == p[3] and s["clock"] == p[2],
                  f"{c.label}'s seeking echoes its pool and rating {r}: {s}")
        seeks[s["id"]] = (c, s)
    paired = await asyncio.gather(*(c.expect(lambda m: m["t"] == "paired", "paired", WAIT_LIMIT)
                                    for c in clients))
    print(f"{len(clients)} clients paired in {time.monotonic() - started:.1f} s", flush=True)
    games = {}
    for c, m, reply in zip(clients, paired, replies):
        checks.eq(m.get("seek"), reply["seek"]["id"], f"{c.label}'s paired names its seek")
        games.setdefault(m["game"], []).append((m["seat"], c, seeks[m["seek"]][1]))
    # How many pairs needed a widened window depends on the order the seeks arrived in:
    # reported, not asserted (far_apart asserts the widening itself).
    widened = check_games(checks, games, http_json)
    print(f"{len(games)} games; {widened} pairs of players more than 100 apart", flush=True)
    await paired_once(checks, clients, replies)
    return clients


def check_games(checks, games, http_json):
    """Each game: its seats exactly its players, its pool's settings, the window rule at the
    instant it was created. Returns how many paired players more than 100 apart."""
    widened = 0
    for game, members in games.items():
        summary = game_summary(http_json, game)
        if not checks.ok(summary is not None, f"game {game} is listed"):
            continue
        first = members[0][2]
        checks.eq(sorted(seat for seat, _, _ in members), list(range(first["players"])),
                  f"game {game}: the seats are its {first['players']} players")
        checks.eq(len({c.user["id"] for _, c, _ in members}), len(members),
                  f"game {game}: no user twice")
        checks.ok(summary["type"] == first["type"] and summary["rated"] == first["rated"]
                  and summary["options"]["players"] == first["players"]
                  and summary["status"] == "live",
                  f"game {game} is a started game of the pool: {summary['type']}")
        checks.eq(summary["clock"]["kind"], first["clock"]["kind"], f"game {game}'s clock")
        names = {s["seat"]: s["name"] for s in summary["seats"]}
        checks.ok(all(names.get(seat) == c.user["name"] for seat, c, _ in members),
                  f"game {game}: each player in the seat paired says")
        at = summary["created_ms"]
        for i, (_, _, a) in enumerate(members):
            for _, _, b in members[i + 1:]:
                gap = abs(a["rating"] - b["rating"])
                limit = min(window(at - a["since_ms"]), window(at - b["since_ms"]))
                checks.ok(gap <= limit, f"game {game}: ratings {a['rating']} and {b['rating']} "
                          f"within the window {limit} when paired")
                widened += gap > 100
    return widened


async def paired_once(checks, clients, replies):
    """Each client's seek is gone, and no second paired came."""
    gone = await asyncio.gather(*(c.request({"t": "unseek", "seek": r["seek"]["id"]}, "done")
                                  for c, r in zip(clients, replies)))
    checks.ok(all(g.get("code") == "no-such-seek" for g in gone), "every paired seek is gone")
    await asyncio.gather(*(c.request({"t": "ping"}, "pong") for c in clients))
    twice = [c.label for c in clients if sum(m["t"] == "paired" for m in c.messages) != 1]
    checks.eq(twice, [], "every client was paired exactly once")


async def far_apart(checks, targets, put_ratings):
    """240 points apart: paired only once both windows reach 250, 15 s after seeking."""
    a, b = await connect_guests(targets, 2, "far")
    put_ratings([(a.user["id"], "castle-danger", 1500), (b.user["id"], "castle-danger", 1740)])
    pool = seek_msg("castle-danger", 2, {"kind": "live", "initial_ms": 120000}, False)
    sa, sb = await seek_all([a, b], [pool, pool])
    pa = await a.expect(lambda m: m["t"] == "paired", "paired", WAIT_LIMIT)
    pb = await b.expect(lambda m: m["t"] == "paired", "paired", WAIT_LIMIT)
    checks.eq(pa["game"], pb["game"], "the two far apart are paired together")
    return pa["game"], [sa["seek"], sb["seek"]]


def check_far(checks, http_json, game, seeks):
    at = game_summary(http_json, game)["created_ms"]
    checks.ok(all(at - s["since_ms"] >= 15000 for s in seeks),
              f"paired only once both had waited 15 s: {[at - s['since_ms'] for s in seeks]}")


async def linked_never_paired(checks, targets, put_ratings):
    """A guest, and the account it logged into, nearest in rating, are never paired."""
    t = lambda i: targets[i % len(targets)]  # noqa: E731
    owner = await guest(t(0), "owner")
    name = f"Pool{random.randrange(10 ** 6)}"
    reg = await owner.request({"t": "register", "name": name, "password": PASSWORD},
                              "registered")
    checks.eq(reg["t"], "registered", "the account is registered")
    g = await guest(t(1), "g")
    token = g.token
    login_reply = await g.request({"t": "login", "name": name, "password": PASSWORD},
                                  "welcome")
    checks.eq(login_reply["t"], "welcome", "the guest logs into the account")
    as_guest = Client(t(2), "as-guest")
    await as_guest.connect()
    await as_guest.hello(token)  # the guest again, on another connection
    x, y = await connect_guests(targets, 2, "stranger")
    game = "king-of-danger"
    put_ratings([(owner.user["id"], game, 1500), (as_guest.user["id"], game, 1500),
                 (x.user["id"], game, 1590), (y.user["id"], game, 1590)])
    pool = seek_msg(game, 2, {"kind": "live", "initial_ms": 60000}, False)
    for c in (as_guest, g, x, y):  # g is the account now
        reply = await c.request(pool, "seeking")
        checks.eq(reply["t"], "seeking", f"{c.label} seeks")
    found = {}
    for c in (as_guest, g, x, y):
        found[c.label] = (await c.expect(lambda m: m["t"] == "paired", "paired", WAIT_LIMIT))["game"]
    checks.ok(found["as-guest"] != found["g"], f"guest and account in different games: {found}")
    checks.eq(found["as-guest"], found["stranger0"], "the guest plays the first stranger")
    checks.eq(found["g"], found["stranger1"], "the account plays the second stranger")
    return [owner, g, as_guest, x, y]


async def bad_input(checks, server):
    c = await guest(server, "bad")
    other = await guest(server, "other")
    pool = {"t": "seek", "type": "danger-at-the-walls", "clock": {"kind": "none"}}
    cases = [
        ({"t": "seek"}, "bad-message"),
        ({"t": "seek", "type": 7}, "bad-message"),
        ({"t": "seek", "type": "chess"}, "bad-game"),
        (dict(pool, players="2"), "bad-option"),
        (dict(pool, players=3), "bad-option"),
        ({"t": "seek", "type": "rush-the-wall", "players": 1}, "bad-option"),
        ({"t": "seek", "type": "king-of-danger", "players": 6}, "bad-option"),
        (dict(pool, clock="fast"), "bad-clock"),
        (dict(pool, clock={"kind": "blitz"}), "bad-clock"),
        (dict(pool, clock={"kind": "live"}), "bad-clock"),
        (dict(pool, clock={"kind": "live", "initial_ms": 10}), "bad-clock"),
        (dict(pool, clock={"kind": "correspondence", "days": 30}), "bad-clock"),
        (dict(pool, rated="yes"), "bad-message"),
        ({"t": "unseek", "seek": "one"}, "bad-message"),
        ({"t": "unseek", "seek": 0}, "bad-message"),
        ({"t": "unseek", "seek": 1.5}, "bad-message"),
    ]
    for msg, code in cases:
        reply = await c.request(msg, "seeking" if msg["t"] == "seek" else "done")
        checks.eq(reply.get("code"), code, f"{msg} refused")
    anon = Client(server, "anon")
    await anon.connect()
    checks.eq((await anon.request(pool, "seeking")).get("code"), "no-identity",
              "seek before hello")
    # Nothing was stored: three seeks are still allowed, a fourth is not.
    theirs = await other.request(dict(pool, type="castle-danger"), "seeking")
    pools = [dict(pool, type=t) for t in ("walls-and-armies", "king-of-danger", "rush-the-wall")]
    mine = [await c.request(p, "seeking") for p in pools]
    checks.ok(all(m["t"] == "seeking" for m in mine), "three seeks after the refusals")
    checks.eq((await c.request(pools[0], "seeking")).get("code"), "already-seeking",
              "a second seek in one pool")
    checks.eq((await c.request(dict(pool, type="castle-danger"), "seeking")).get("code"),
              "too-many", "a fourth seek")
    checks.eq((await c.request({"t": "unseek", "seek": theirs["seek"]["id"]}, "done")).get("code"),
              "no-such-seek", "an unseek of another user's seek")
    checks.eq((await other.request(dict(pool, type="castle-danger"), "seeking")).get("code"),
              "already-seeking", "the other user's seek is still there")
    checks.eq((await c.request({"t": "unseek", "seek": mine[0]["seek"]["id"]}, "done"))["t"],
              "done", "an unseek of one's own seek")
    checks.eq((await c.request(pools[0], "seeking"))["t"], "seeking", "that pool is free again")
    checks.eq((await c.request({"t": "unseek"}, "done"))["t"], "done", "unseek all")
    again = [await c.request(p, "seeking") for p in pools]
    checks.ok(all(m["t"] == "seeking" for m in again), "every pool free again after unseek all")
    await c.request({"t": "unseek"}, "done")
    await other.request({"t": "unseek"}, "done")
    for x in (c, other, anon):
        await x.close()


async def dropped_on_leave(checks, targets):
    """A user's seek stays while a connection of theirs is open (on any server), and goes with
    the last: seeking again in that pool is then allowed."""
    one = await guest(targets[0], "leaver")
    two = Client(targets[1 % len(targets)], "leaver-2")
    await two.connect()
    await two.hello(one.token)
    # Unrated: the leaver is a guest (rated games are for accounts, issue 49).
    pool = seek_msg("walls-and-armies", 2, {"kind": "live", "initial_ms": 90000}, False)
    checks.eq((await one.request(pool, "seeking"))["t"], "seeking", "the leaver seeks")
    await one.close()
    checks.eq((await two.request(pool, "seeking")).get("code"), "already-seeking",
              "the seek stays while another connection is open")
    await two.close()
    # The server sees the close a moment later: asked again until the seek is gone.
    deadline = time.monotonic() + 60
    while True:
        back = Client(targets[2 % len(targets)], "leaver-3")
        await back.connect()
        await back.hello(one.token)
        reply = await back.request(pool, "seeking")
        await back.request({"t": "unseek"}, "done")
        await back.close()
        if reply["t"] == "seeking" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    checks.eq(reply["t"], "seeking", "the seek went with the last connection")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000", "--max-per-ip", "1000",
                                          "--max-open-games-per-ip", "100000", "--max-seeks-per-ip", "100000",
                                          "--guests-per-ip", "100000", "--hash-per-ip", "1000"]).start()
    try:
        targets = [Target(server)]
        put = sqlite_ratings(server.db)
        await bad_input(checks, server)
        await dropped_on_leave(checks, targets)
        far = asyncio.ensure_future(far_apart(checks, targets, put))
        linked = await linked_never_paired(checks, targets, put)
        clients = await many_pools(checks, targets, put, server.http_json)
        game, seeks = await far
        check_far(checks, server.http_json, game, seeks)
        for c in clients + linked:
            await c.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly")
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
