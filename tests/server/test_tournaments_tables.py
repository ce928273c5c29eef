"""Swiss events of King of Danger at tables of 3 (7 bots; 9) and of 4 (11 bots) over 3
rounds, played end to end on one server (issue 44: "Games with 3-5 players ... are played at
tables of the chosen size: the pairing groups players by score into tables, and points follow
the places"; the rules as docs/tournaments.md, "Tables of 3 to 5", states them), checked
against the test's own reading: the tables' sizes, seat 0 to whoever had it least, the fewest
repeated meetings any seating allows, each game opened with its table's players and ended by
a resignation, points by place from each game's result (HTTP API), and the standings."""

import asyncio
import collections
import itertools
import random

from rsclient import Checks, Server, account, arguments
from tourlib import Bot, finished, op

ROUNDS = 3
# (name, entrants, table size, the tables' sizes each round by docs/tournaments.md: as many
# tables as the size fills, some one smaller, "never under 3": 7 at tables of 3 make a table
# of 4 and one of 3, 11 at tables of 4 make 4, 4, 3). In Nines' third round, the top and the
# bottom of 3 tables must trade players to meet nobody again.
EVENTS = (("Threes", 7, 3, [4, 3]), ("Nines", 9, 3, [3, 3, 3]), ("Fours", 11, 4, [4, 4, 3]))


def resigning_seat(tournament, rnd, board, n):
    """The seat that resigns the game of `board` in round `rnd` at a table of n: drawn from
    where it is played (not from the game's number, which depends on the order the server
    opens the two events' games), so that every player at the table and the test know it
    without talking, and every run plays the same results."""
    return random.Random(f"{tournament}/{rnd}/{board}/{n}").randrange(n)


class TableBot(Bot):
    """A player of a tournament at tables: at each game, the seat resigning_seat names resigns
    at once, which ends the game for every seat (a resignation's loser scores 0 and the others
    share the win: rp_match_returns, src/engine/ending.c); the others wait for their next."""

    def __init__(self, server, label, event):
        super().__init__(server, label)
        self.event = event  # the test's name of the tournament, for resigning_seat

    async def play_tables(self, tournament):
        while True:
            got = await self.next_game(tournament)
            if got is None:
                return
            game, seat, _ = got
            t = await self.request(op("standings", tournament), "standings")
            table = [p for p in t["tournament"]["pairings"] if p.get("game") == game]
            if not table:  # over already: another seat resigned
                continue
            p = table[0]
            if seat == resigning_seat(self.event, p["round"], p["board"], len(p["players"])):
                await self.resign(game)


def half_points_by_place(returns):
    """Each seat's half-points from its share of the win, as docs/tournaments.md says: "place p
    of n scores n - p points, and players sharing places share those places' points"."""
    n = len(returns)
    out = []
    for r in returns:
        better = sum(o > r for o in returns)
        shared = [p for p in range(better + 1, n + 1) if sum(o >= r for o in returns) >= p]
        out.append(sum(2 * (n - p) for p in shared) / len(shared))
    return out


def repeats(table, met):
    """The repeated meetings at a table: for each pair at it, how often they sat together
    before (docs/tournaments.md counts "repeated meetings")."""
    return sum(met[frozenset(pair)] for pair in itertools.combinations(table, 2))


def fewest_repeats(players, sizes, met):
    """The fewest repeated meetings over every way of seating players at tables of these
    sizes (brute force: a few thousand ways at these sizes)."""
    def cost(table):
        return repeats(table, met)

    def best(left, sizes):
        if not sizes:
            return 0
        first, rest = left[0], left[1:]
        return min(cost((first,) + others) + best([p for p in rest if p not in others], sizes[1:])
                   for others in itertools.combinations(rest, sizes[0] - 1))
    return best(list(players), sorted(sizes, reverse=True))


async def entered(checks, organiser, name, table, bots):
    made = (await organiser.request({"t": "tournament", "op": "create", "name": name,
                                     "type": "king-of-danger", "format": "swiss",
                                     "rounds": ROUNDS, "table": table}, "tournament"))
    checks.eq(made.get("tournament", {}).get("table"), table,
              f"{name}: created at tables of {table}")
    number = made["tournament"]["id"]
    for b in bots:
        checks.eq((await b.request(op("join", number), "done"))["t"], "done",
                  f"{b.name} enters {name}")
    return number


def game_checks(checks, server, over, bots, label):
    """Each table's game: opened with the table's players in its seats, each told of it with
    its seat, over by the resignation the test expects; the pairing's points are the places'
    points from the game's own result. Returns {(round, name): half-points}."""
    pushed = {b.name: b.pushed(over["id"]) for b in bots}
    # A finished pairing names no game. Its game is the first not yet taken, in the order
    # opened, with its players in its seats: a round's games open only once the round before
    # has ended, so each round's have higher numbers than the last's.
    games = {}
    for number in sorted({g for told in pushed.values() for g in told}):
        status, games[number] = server.http_json(f"/api/v1/games/{number}")
        checks.eq(status, 200, f"{label}: game {number}, told by `paired`, is known")
    checks.eq(len(games), len(over["pairings"]), f"{label}: one game opened a table")
    results = {}
    for p in sorted(over["pairings"], key=lambda p: (p["round"], p["board"])):
        players, where = p["players"], f"{label}: round {p['round']} board {p['board']}"
        seated = [g for g, game in games.items()
                  if [s.get("name") for s in game.get("seats", [])] == players]
        checks.ok(seated, f"{where}: a game opened with the table's players in its seats")
        number = min(seated, default=0)
        game = games.pop(number, {})
        for seat, name in enumerate(players):
            checks.eq(pushed[name].get(number), seat, f"{where}: {name} told by `paired`")
        result = game.get("result") or {}
        returns = result.get("returns") or [None] * len(players)
        loser = resigning_seat(label, p["round"], p["board"], len(players))
        checks.eq((game.get("status"), result.get("reason")), ("over", "resign"),
                  f"{where}: over by a resignation")
        checks.eq([round(r, 9) if r is not None else r for r in returns],
                  [0 if s == loser else round(1 / (len(players) - 1), 9)
                   for s in range(len(players))],
                  f"{where}: seat {loser} resigned: it scores 0, the others share the win")
        want = half_points_by_place(returns) if None not in returns else returns
        checks.eq([x * 2 for x in p["points"]], want,
                  f"{where}: the pairing's points follow the places of the game's result")
        checks.eq(p["games_done"], 1, f"{where}: its one game done")
        for name, got in zip(players, want):
            results[(p["round"], name)] = got
    return results


def seating_checks(checks, over, names, sizes, label):
    """Every round's tables of the sizes the rule gives, each player seated once; round 1 by
    seed (entry order: every guest is rated 1500); seat 0 to whoever at the table had it least;
    no more repeated meetings than the fewest any seating of those sizes allows."""
    met, first = collections.Counter(), {n: 0 for n in names}
    for rnd in range(1, ROUNDS + 1):
        tables = sorted((p for p in over["pairings"] if p["round"] == rnd),
                        key=lambda p: p["board"])
        where = f"{label}: round {rnd}"
        checks.eq([len(p["players"]) for p in tables], sizes, f"{where}: tables of {sizes}")
        seated = [n for p in tables for n in p["players"]]
        checks.eq(sorted(seated), sorted(names), f"{where}: every player seated once")
        if rnd == 1:
            checks.eq(seated, names, f"{where}: seated by seed, all on 0 points")
        for p in tables:
            checks.ok(all(first[p["players"][0]] <= first[n] for n in p["players"]),
                      f"{where} board {p['board']}: seat 0 to one who had it least "
                      f"({[(n, first[n]) for n in p['players']]})")
        again = sum(repeats(p["players"], met) for p in tables)
        least = fewest_repeats(names, sizes, met)
        checks.eq(again, least, f"{where}: {again} repeated meetings, the fewest possible")
        for p in tables:
            first[p["players"][0]] += 1
            met.update(frozenset(pair) for pair in itertools.combinations(p["players"], 2))


def standings_checks(checks, over, names, results, label):
    """The standings computed here: points the sum of the tables' points; Buchholz every other
    player at the player's tables' points; Sonneborn-Berger and direct encounter count 2-player
    games only, so none here (docs/tournaments.md, "At tables of more than two"); ties by
    seed, the entry order."""
    points = {n: sum(v for (_, m), v in results.items() if m == n) for n in names}
    buchholz = {n: sum(points[m] for p in over["pairings"] if n in p["players"]
                       for m in p["players"] if m != n) for n in names}
    order = sorted(names, key=lambda n: (-points[n], -buchholz[n], names.index(n)))
    want = [{"name": n, "points": points[n], "buchholz": buchholz[n], "sonneborn": 0,
             "direct": None, "played": ROUNDS} for n in order]
    got = [{"name": s["name"], "points": s["points"] * 2, "buchholz": s["buchholz"] * 2,
            "sonneborn": s["sonneborn_berger"], "direct": s.get("direct"), "played": s["played"]}
           for s in over["standings"]]
    checks.eq(got, want, f"{label}: the standings, computed again from the games' results")
    checks.eq([s["rank"] for s in over["standings"]], list(range(1, len(names) + 1)),
              f"{label}: ranked 1 to {len(names)}")


async def tables_swiss(checks, server):
    organiser = await account(server, "organiser", "Organiser")
    events = []
    for name, count, table, sizes in EVENTS:
        bots = [await TableBot(server, f"{name}{i}", name).connect() for i in range(count)]
        number = await entered(checks, organiser, name, table, bots)
        events.append((name, number, sizes, bots))
    tasks = [asyncio.create_task(b.play_tables(number)) for _, number, _, bots in events
             for b in bots]
    for name, number, _, _ in events:
        checks.eq((await organiser.request(op("start", number), "done"))["t"], "done",
                  f"{name} started")
    await asyncio.wait_for(asyncio.gather(*tasks), 600)
    for name, number, sizes, bots in events:
        over = await finished(organiser, number)
        checks.eq((over["status"], over["round"]), ("over", ROUNDS),
                  f"{name}: over after {ROUNDS} rounds")
        names = [b.name for b in bots]
        seating_checks(checks, over, names, sizes, name)
        results = game_checks(checks, server, over, bots, name)
        standings_checks(checks, over, names, results, name)
        status, api = server.http_json(f"/api/v1/tournaments/{number}")
        checks.eq((status, api.get("standings")), (200, over["standings"]),
                  f"{name}: the HTTP API gives the same standings")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await tables_swiss(checks, server)
    finally:  # in a thread: the bots answer the server's closing handshakes meanwhile
        await asyncio.to_thread(server.stop)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
