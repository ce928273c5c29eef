"""An arena (docs/tournaments.md, "Arena"; issue 44): bots enter a 60-minute arena, it starts, and wave after wave every game is resigned by a loser the test draws; the
director pairs whoever waits at each tick. Checked as it runs: a bot is never paired while in
a game nor while paused, never meets its last opponent again at once, and whenever two bots
wait who may meet they are paired (the test waits, with a generous deadline, until the
waiting bots are at most one, or two who just met); a bot pauses (`withdraw`) and comes
back (`join`); the server restarts mid-arena and carries on from its database (make soak:
three servers on one PostgreSQL database, one killed with kill -9 and started again, every
game created once). Then the test clock jumps past the end: the arena is `over`, games still
in play finish but do not count (lichess: "only games that end before time is up count")
and nobody is paired again; the standings and every stored pairing equal the test's own
count of the games it ended.
RAMPARTS_ARENA_BOTS and RAMPARTS_ARENA_WAVES size it: 10 bots over 4 waves on one server in
make test, 50 over 8 on the cluster in make soak (RAMPARTS_SOAK=1): issue 44's arena of 50
bots on an advanced clock."""

import asyncio
import os
import random
import re
import time

from clusterlib import Cluster, missing_component
from rsclient import Checks, Client, Server, account, arguments, guest
from test_correspondence import TestClock
from tourlib import op

HOUR_MS = 3600000


class Bot:
    """One player: its connection, and the games it was paired into, in order."""

    def __init__(self, index, c, name):
        self.index, self.c, self.name, self.id = index, c, name, c.user["id"]
        self.games = []  # game ids, in the order their `paired` came
        self.seen = 0  # messages of c already read for `paired`
        self.paused = False


class Arena:
    def __init__(self, checks, number, bots, rng):
        self.checks, self.number, self.bots, self.rng = checks, number, bots, rng
        self.players = {}  # game -> {seat: bot}
        self.ended = {}  # game -> half-points by seat, for the games the test ended
        self.late = set()  # games ended after the arena's end: not counted

    def read_pairings(self):
        """Every new `paired` of the arena's: a bot paired while in a game is a failure."""
        for b in self.bots:
            msgs = b.c.messages
            for m in msgs[b.seen:]:
                if m["t"] != "paired" or m.get("tournament") != self.number:
                    continue
                self.checks.ok(not b.paused, f"{b.name} is not paired while paused")
                self.checks.ok(not self.in_game(b), f"{b.name} is not paired while in a game")
                b.games.append(m["game"])
                self.players.setdefault(m["game"], {})[m["seat"]] = b
            b.seen = len(msgs)

    def in_game(self, b):
        return bool(b.games) and b.games[-1] not in self.ended and b.games[-1] not in self.late

    def last_opponent(self, b):
        if not b.games:
            return None
        seats = self.players.get(b.games[-1], {})
        return next((o for o in seats.values() if o is not b), None)

    def waiting(self):
        return [b for b in self.bots if not b.paused and not self.in_game(b)]

    def settled(self):
        """True when no two waiting bots may meet: each pair just met (so at most two)."""
        w = self.waiting()
        return all(self.last_opponent(a) is b or self.last_opponent(b) is a
                   for i, a in enumerate(w) for b in w[i + 1:])

    async def pump(self, seconds=0.1):
        await asyncio.gather(*(b.c.drain(seconds) for b in self.bots))
        self.read_pairings()

    async def settle(self, what):
        """Waits until the director has paired whoever may be paired (a generous deadline:
        never failing for slowness, only for two waiting bots left unpaired)."""
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            await self.pump()
            both_told = all(len(self.players[g]) == 2 for g in self.games_in_play())
            if self.settled() and both_told:
                return
        names = [b.name for b in self.waiting()]
        self.checks.ok(False, f"{what}: waiting bots who may meet were paired ({names})")
        self.checks.finish()  # exits: nothing after this can be checked

    def games_in_play(self):
        return sorted({b.games[-1] for b in self.bots if self.in_game(b)})

    async def end_games(self, late=False, games=None):
        """Each game in play (or of `games`) resigned by a loser drawn at random; its result
        noted."""
        async def resign(game):
            seats = self.players[game]
            loser = self.rng.choice(sorted(seats))
            reply = await seats[loser].c.request({"t": "resign", "game": game}, "done")
            self.checks.eq(reply["t"], "done", f"game {game} resigned")
            if late:
                self.late.add(game)
            else:
                self.ended[game] = {s: 0 if s == loser else 2 for s in seats}
        await asyncio.gather(*(resign(g) for g in (games or self.games_in_play())))

    def points(self):
        """Each bot's half-points from the games the test ended before the arena's end."""
        total = {b.name: 0 for b in self.bots}
        played = {b.name: 0 for b in self.bots}
        for game, result in self.ended.items():
            for seat, b in self.players[game].items():
                total[b.name] += result[seat]
                played[b.name] += 1
        return total, played


async def standings(c, number):
    return (await c.request(op("standings", number), "standings"))["tournament"]


async def over(c, number):
    for _ in range(480):
        t = await standings(c, number)
        if t["status"] == "over":
            return t
        await asyncio.sleep(0.25)
    raise TimeoutError(f"arena {number} not over")


async def live_standings(checks, arena, what):
    """The standings reach the test's count once the director has seen every game end (a
    generous deadline: it records them at its next tick)."""
    total, _ = arena.points()
    want = {n: p / 2 for n, p in total.items()}
    got = None
    for _ in range(240):
        t = await standings(arena.bots[0].c, arena.number)
        got = {l["name"]: l["points"] for l in t["standings"]}
        if got == want:
            break
        await asyncio.sleep(0.25)
    checks.eq(got, want, f"{what}: the standings live, as the test counts the games it ended")


def check_rematches(checks, arena):
    """Never the same opponent twice in a row, bot by bot."""
    for b in arena.bots:
        opponents = [next(o.name for o in arena.players[g].values() if o is not b)
                     for g in b.games]
        repeats = [x for x, y in zip(opponents, opponents[1:]) if x == y]
        checks.eq(repeats, [], f"{b.name} never meets its last opponent again at once")


def check_final(checks, arena, final, entry_order):
    """The standings and the stored pairings against the test's own count."""
    total, played = arena.points()
    lines = final["standings"]
    checks.eq({l["name"]: (l["points"], l["played"]) for l in lines},
              {n: (total[n] / 2, played[n]) for n in total},
              "standings: each bot's points and games, as the test counted the games it ended")
    want = sorted(total, key=lambda n: (-total[n], entry_order.index(n)))
    checks.eq([l["name"] for l in lines], want, "ranked by points, then the seed (entry order)")
    checks.ok(all("buchholz" not in l for l in lines), "no Swiss tie-breaks in an arena")
    # A finished pairing no longer names its game: compare them as (players in seat order,
    # points, games done), and the games still in play by their number.
    stored = sorted((p["players"], p["points"], p["games_done"]) for p in final["pairings"])
    mine = sorted(([s[0].name, s[1].name],
                   [arena.ended[g][0] / 2, arena.ended[g][1] / 2] if g in arena.ended else [0, 0],
                   1 if g in arena.ended else 0) for g, s in arena.players.items())
    checks.eq(stored, mine, "every pairing stored with its players in seat order and result")
    checks.eq(sorted(p["game"] for p in final["pairings"] if "game" in p),
              sorted(g for g in arena.players if g not in arena.ended),
              "the games in play at the end are those the bots were told of")
    ticks = [p["round"] for p in final["pairings"]]
    checks.eq(ticks, sorted(ticks), "pairings by tick")
    checks.eq(ticks.count(1), len(arena.bots) // 2,
              "the first tick, everyone waiting, pairs them all at once (one left if odd)")
    for t in set(ticks):
        names = [n for p in final["pairings"] if p["round"] == t for n in p["players"]]
        checks.eq(len(names), len(set(names)), f"tick {t}: nobody twice")


async def reconnect(checks, b, server):
    """b connected again, to `server`, as itself (its token)."""
    token = b.c.token
    b.c = await Client(server, f"bot{b.index}-again").connect()
    reply = await b.c.hello(token)
    checks.eq((reply["t"], reply.get("user", {}).get("id")), ("welcome", b.id),
              f"{b.name} comes back as itself")
    b.seen = 0


async def play_arena(checks, servers, clock, n_bots, waves, rng, restart):
    """The arena, bot i connected to servers[i % len(servers)]; `restart(arena)` mid-way
    brings a server down and back (the bots' `paired` all read before it)."""
    # The creator registers; the others are guests (an unrated arena takes them), whose
    # tokens bring them back after a restart without a password's cost.
    bots = [Bot(0, await account(servers[0], "bot0", "Bot00"), "Bot00")]
    for i in range(1, n_bots):
        c = await guest(servers[i % len(servers)], f"bot{i}")
        bots.append(Bot(i, c, c.user["name"]))
    made = (await bots[0].c.request(
        {"t": "tournament", "op": "create", "name": "Hourly arena", "type": "castle-danger",
         "format": "arena", "minutes": 60}, "tournament"))["tournament"]
    number = made["id"]
    for b in bots:
        checks.eq((await b.c.request(op("join", number), "done"))["t"], "done",
                  f"{b.name} joins")
    entry_order = [b.name for b in bots]
    checks.eq((await bots[0].c.request(op("start", number), "done"))["t"], "done",
              "the arena starts")
    running = await standings(bots[0].c, number)
    checks.eq((running["status"], running["ends_ms"] - running["starts_ms"]),
              ("running", HOUR_MS), "running, for its 60 minutes from the start")
    arena = Arena(checks, number, bots, rng)
    await arena.settle("the first tick")
    checks.eq(len(arena.waiting()), n_bots % 2,
              "at the start everyone waits: all paired (one left over for an odd count)")
    pauser, before_pause = bots[-1], 0
    for wave in range(waves):
        if wave == 1:  # pauses (even in a game: it finishes) and comes back a wave later
            checks.eq((await pauser.c.request(op("withdraw", number), "done"))["t"],
                      "done", "a bot pauses")
            arena.read_pairings()  # a `paired` before the `done` was made before the pause
            pauser.paused = True
            before_pause = len(pauser.games)
        if wave == 2:
            pauser.paused = False
            checks.eq((await pauser.c.request(op("join", number), "done"))["t"], "done",
                      "and comes back")
        if wave == waves // 2:  # a server restarts: the arena carries on from the store
            await arena.settle("before the restart")  # every `paired` sent is read
            await restart(arena)
        await arena.end_games()
        await arena.settle(f"wave {wave + 1}")
        await live_standings(checks, arena, f"wave {wave + 1}")
    checks.ok(before_pause >= 1 and len(pauser.games) > before_pause,
              "the pausing bot played before its pause and after it came back")
    checks.ok(arena.games_in_play(), "games are being played at the end")

    # The end: the clock jumps past the hour; the arena is over at the next tick. Half the
    # games in play end at once, most likely before that tick records the others' ends:
    # ended after the end, they must not count whichever comes first.
    clock.set(HOUR_MS + 60000)
    await asyncio.sleep(0.05)  # the server reads the clock file again after 10 ms
    in_play = arena.games_in_play()
    await arena.end_games(late=True, games=in_play[::2])
    final = await over(bots[0].c, number)
    check_final(checks, arena, final, entry_order)
    told = len(arena.players)
    await arena.end_games(late=True)  # the other games in play finish, after the end
    await arena.pump(1.5)
    checks.eq(len(arena.players), told, "nobody is paired after the end")
    after = await standings(bots[0].c, number)
    checks.eq((after["standings"], after["pairings"]), (final["standings"], final["pairings"]),
              "games that end after the end do not count")
    late = await bots[1].c.request(op("join", number), "done")
    checks.eq(late.get("code"), "not-open", "an arena that is over takes no entries")
    check_rematches(checks, arena)
    print(f"arena: {n_bots} bots, {len(arena.ended)} games counted, {len(arena.late)} after "
          f"the end, {len(set(p['round'] for p in final['pairings']))} ticks with pairings")
    return len(arena.players)


async def one_server(checks, args, n_bots, waves, rng):
    """make test's: on one server, restarted mid-arena on its database."""
    server = Server(args.ramparts, extra=["--rate", "100000"])
    clock = TestClock(os.path.join(server.dir, "clock"))
    server.extra += ["--test-clock", clock.path]
    server.start()

    async def restart(arena):
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly mid-arena")
        server.start()
        for b in arena.bots:
            await reconnect(checks, b, server)

    try:
        await play_arena(checks, [server], clock, n_bots, waves, rng, restart)
    finally:
        await asyncio.to_thread(server.stop)


async def three_nodes(checks, args, n_bots, waves, rng):
    """make soak's: on the three-node cluster, one node killed (kill -9) mid-arena and
    started again; its bots come back to it. Every node's director ticks; the database lets
    one pair each tick."""
    why = missing_component()
    checks.ok(not why, f"the cluster can run ({why})")
    if why:
        return
    clock = TestClock(os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                   f"ramparts-arena-clock-{os.getpid()}"))
    cluster = Cluster(args.ramparts, extra=["--test-clock", clock.path]).start()

    async def restart(arena):
        cluster.kill9(1)
        cluster.restart(1)  # on its port again, back in HAProxy
        for b in arena.bots[1::3]:  # bot i is on node i % 3
            await reconnect(checks, b, cluster.nodes[1])

    try:
        games = await play_arena(checks, cluster.nodes, clock, n_bots, waves, rng, restart)
        logs = [n.log() for n in cluster.nodes]
        created = sum(len(re.findall(r"game \d+ created", log)) for log in logs)
        checks.eq(created, games, "each game created once, on one node")
        checks.ok(any("the arena is over" in log for log in logs), "a node saw the arena end")
    finally:
        statuses = [await asyncio.to_thread(n.stop) for n in cluster.nodes]
        checks.eq(statuses, [0, 0, 0], "the nodes stop cleanly")
        cluster.destroy()
        os.unlink(clock.path)


async def main():
    args = arguments()
    checks = Checks()
    soak = os.environ.get("RAMPARTS_SOAK") == "1"
    n_bots = int(os.environ.get("RAMPARTS_ARENA_BOTS", "50" if soak else "10"))
    waves = int(os.environ.get("RAMPARTS_ARENA_WAVES", "8" if soak else "4"))
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "44")))
    if soak:
        await three_nodes(checks, args, n_bots, waves, rng)
    else:
        await one_server(checks, args, n_bots, waves, rng)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
