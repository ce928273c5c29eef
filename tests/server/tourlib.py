"""tourlib.py — what the server's tournament tests share (docs/tournaments.md, issue 44): bots
that play a tournament's games as a client would (told by a `paired` push, or, after their
connection dropped, asking `standings` for their game), and the checks on a finished Swiss
computed again here independently: no repeat pairing, byes at most once, seats balanced
within one, and the standings and tie-breaks (FIDE C.07, as docs/tournaments.md reads it)."""

import asyncio
import random

from clusterlib import DROPPED, Reconnecting
from rsclient import PASSWORD

POLL_S = 0.5  # how often a bot with no push asks for the standings


def op(name, number):
    return {"t": "tournament", "op": name, "tournament": number}


async def listed(c):
    """The server's list of tournaments, newest first."""
    return (await c.request({"t": "tournament", "op": "list"}, "tournaments"))["tournaments"]


async def swiss_entered(checks, organiser, name, rounds, players):
    """A Castle Danger Swiss of `rounds` created by organiser (a registered player) and
    entered by each of players: its number."""
    made = (await organiser.request({"t": "tournament", "op": "create", "name": name,
                                     "type": "castle-danger", "format": "swiss",
                                     "rounds": rounds}, "tournament"))["tournament"]
    for b in players:
        reply = await b.request(op("join", made["id"]), "done")
        checks.eq(reply["t"], "done", f"{b.label} enters {name}")
    return made["id"]


def loser_seat(game):
    """The seat that resigns game `game`: drawn from the game's number, so that both players
    (and the test) know it without talking."""
    return random.Random(game * 7919).randrange(2)


class Bot(Reconnecting):
    """One player of a tournament: a guest connection (through HAProxy on a cluster) that
    reconnects with its token when the connection drops (clusterlib.Reconnecting)."""

    def __init__(self, server, label):
        super().__init__(server, label)
        self.games = {}  # game -> {"seat", "round", "how": "pushed" or "asked"}
        self.resigned = []  # the games it resigned
        self.outage = None  # awaited before reconnecting: a client that comes back later
        self.came_back = None  # an Event set once it has read the standings after that

    @property
    def name(self):
        return self.user["name"]

    async def register(self, name):
        """The guest registered as name (its token then logs the account in again)."""
        reply = await self.request({"t": "register", "name": name, "password": PASSWORD},
                                   "registered")
        assert reply["t"] == "registered", reply
        self.user = dict(self.user, name=name)
        return self

    async def reconnect(self):
        if self.outage:
            outage, self.outage = self.outage, None
            await outage()
        await super().reconnect()

    async def request(self, msg, reply_type):
        """msg's reply, again on a new connection whenever the connection drops."""
        return await self.call(lambda c: c.request(msg, reply_type))

    def pushed(self, tournament):
        """The games of `tournament` some connection of this bot was told of by `paired`."""
        return {m["game"]: m["seat"] for c in self.clients for m in c.messages
                if m["t"] == "paired" and m.get("tournament") == tournament}

    async def next_game(self, tournament):
        """(game, seat, round) of this bot's next game, or None once the tournament is over
        (or the bot is no longer in it). A push is taken first; without one, the standings'
        pairings of the round say where the bot plays, as a reconnected client asks."""
        while True:
            t = await standings(self, tournament)
            if self.came_back:
                self.came_back.set()
            fresh = {g: s for g, s in self.pushed(tournament).items() if g not in self.games}
            mine = [p for p in t["pairings"] if self.name in p["players"] and "game" in p
                    and p["game"] not in self.games]
            if fresh:
                game = min(fresh)
                where = [p for p in t["pairings"] if p.get("game") == game]
                rnd = where[0]["round"] if where else t["round"]
                self.games[game] = {"seat": fresh[game], "round": rnd, "how": "pushed"}
                return game, fresh[game], rnd
            if mine:
                p = mine[0]
                seat = p["players"].index(self.name)
                self.games[p["game"]] = {"seat": seat, "round": p["round"], "how": "asked"}
                return p["game"], seat, p["round"]
            line = [s for s in t["standings"] if s["name"] == self.name]
            if t["status"] == "over" or (line and not line[0]["active"]):
                return None
            try:  # until a push of the tournament's comes, or POLL_S
                await self.client.expect(lambda m: m["t"] == "paired" and
                                         m.get("tournament") == tournament, "paired", POLL_S)
            except TimeoutError:
                pass
            except DROPPED:
                await self.reconnect()

    async def resign(self, game):
        """Resigns game; a refusal is taken only for a game already over (a resignation sent
        just before the connection dropped may have been applied)."""
        reply = await self.request({"t": "resign", "game": game}, "done")
        if reply["t"] != "done":
            snap = await self.request({"t": "open", "game": game}, "snapshot")
            if snap.get("status") != "over":
                raise RuntimeError(f"{self.label}: resigning game {game}: {reply}")
        self.resigned.append(game)

    async def play(self, tournament, hold=None, after=None):
        """Plays every game the tournament gives this bot: the loser (loser_seat) resigns,
        after hold(bot, round, game) returns when one is given; after(bot, round, game), when
        given, runs once the bot has done its part, and ends the bot's play by answering
        True."""
        while True:
            got = await self.next_game(tournament)
            if got is None:
                return
            game, seat, rnd = got
            if hold:
                await hold(self, rnd, game)
            if seat == loser_seat(game):
                await self.resign(game)
            if after and await after(self, rnd, game):
                return


async def standings(c, tournament):
    """The tournament with its standings and pairings, as c (a Client or a Bot) asks."""
    reply = await c.request(op("standings", tournament), "standings")
    assert reply["t"] == "standings", reply
    return reply["tournament"]


async def finished(c, tournament, limit_s=600):
    """The tournament once it is over (the director runs once a second)."""
    for _ in range(int(limit_s / POLL_S)):
        t = await standings(c, tournament)
        if t["status"] == "over":
            return t
        await asyncio.sleep(POLL_S)
    raise TimeoutError(f"tournament {tournament} not over within {limit_s} s")


# ---- the checks, computed here on their own ----

def pairing_checks(checks, t, label):
    """No repeat pairing, a bye at most once each, seats balanced within one (first moves
    minus second moves), every round's pairings covering distinct players. Returns the
    pairings by round."""
    by_round = {}
    for p in t["pairings"]:
        by_round.setdefault(p["round"], []).append(p)
    met, byes, balance = set(), {}, {}
    for rnd, ps in sorted(by_round.items()):
        seated = [n for p in ps for n in p["players"]]
        checks.eq(len(seated), len(set(seated)), f"{label}: round {rnd} seats each player once")
        checks.eq(sorted(p["board"] for p in ps), list(range(1, len(ps) + 1)),
                  f"{label}: round {rnd}'s boards 1..{len(ps)}, each once")
        checks.ok(sum(len(p["players"]) == 1 for p in ps) <= 1,
                  f"{label}: round {rnd} has at most one bye")
        for p in ps:
            if len(p["players"]) == 1:
                byes[p["players"][0]] = byes.get(p["players"][0], 0) + 1
                continue
            pair = frozenset(p["players"])
            checks.ok(pair not in met, f"{label}: round {rnd}: {sorted(pair)} met before")
            met.add(pair)
            first, second = p["players"]
            balance[first] = balance.get(first, 0) + 1
            balance[second] = balance.get(second, 0) - 1
    checks.eq({n: b for n, b in byes.items() if b > 1}, {}, f"{label}: a bye at most once each")
    checks.eq({n: b for n, b in balance.items() if abs(b) > 1}, {},
              f"{label}: first moves minus second moves within one for everyone")
    return by_round


def expected_standings(entries, pairings, results, rounds, bye_points=2):
    """The standings computed from scratch: entries [(name, rating)] in entry order; pairings
    [(round, [names in seat order])]; results {(round, name): half-points} of the games as
    played; over `rounds` rounds. Half-points throughout, Sonneborn-Berger in quarters.

    FIDE C.07 as docs/tournaments.md reads it: Buchholz (Art. 8.1) the opponents' points;
    Sonneborn-Berger (Art. 9.1) each opponent's points times the result against them; an
    unplayed round (a bye, a round before a late entry or after a withdrawal: Art. 16) a
    dummy opponent with the player's own points, scoring what the round gave; direct
    encounter (Art. 6.1) among players still tied, only when each met every other; then the
    seed (rating, then the earlier entry)."""
    names = [n for n, _ in entries]
    points = {n: 0 for n in names}
    opponent = {}  # (round, name) -> the opponent's name, or None for a bye
    for rnd, players in pairings:
        if rnd > rounds:
            continue
        for n in players:
            points[n] += results[(rnd, n)] if len(players) == 2 else bye_points
            opponent[(rnd, n)] = ([o for o in players if o != n] or [None])[0]
    lines = {}
    for n in names:
        bh = sb = 0
        for rnd in range(1, rounds + 1):
            if (rnd, n) in opponent and opponent[(rnd, n)] is not None:
                o = opponent[(rnd, n)]
                bh += points[o]
                sb += points[o] * results[(rnd, n)]
            else:  # the dummy opponent of Art. 16
                got = bye_points if (rnd, n) in opponent else 0
                bh += points[n]
                sb += points[n] * got
        lines[n] = {"name": n, "points": points[n], "buchholz": bh, "sonneborn": sb,
                    "direct": None}
    seed = {n: (-rating, i) for i, (n, rating) in enumerate(entries)}
    key = lambda n: (-lines[n]["points"], -lines[n]["buchholz"], -lines[n]["sonneborn"])  # noqa
    groups = {}
    for n in names:
        groups.setdefault(key(n), []).append(n)
    for group in groups.values():
        if len(group) < 2:
            continue
        met = {(a, b): results[(r, a)] for (r, a), b in opponent.items()
               if b in group and a in group}
        if all((a, b) in met for a in group for b in group if a != b):
            for a in group:
                lines[a]["direct"] = sum(met[(a, b)] for b in group if b != a)
    order = sorted(names, key=lambda n: key(n) + (-(lines[n]["direct"] or 0),) + seed[n])
    return [lines[n] for n in order]


def standings_checks(checks, t, entries, results, label, bye_points=2):
    """The server's final standings line by line against expected_standings."""
    pairings = [(p["round"], p["players"]) for p in t["pairings"]]
    want = expected_standings(entries, pairings, results, t["round"], bye_points)
    got = [{"name": line["name"], "points": round(line["points"] * 2),
            "buchholz": round(line["buchholz"] * 2),
            "sonneborn": round(line["sonneborn_berger"] * 4),
            "direct": round(line["direct"] * 2) if "direct" in line else None}
           for line in t["standings"]]
    checks.eq(got, want, f"{label}: the standings and tie-breaks, computed again")
    checks.eq([line["rank"] for line in t["standings"]], list(range(1, len(want) + 1)),
              f"{label}: ranked 1 to {len(want)}")
    return want


def results_of(checks, bots, t, label):
    """{(round, name): half-points} of every 2-player pairing, from what the bots did: each
    game ends as its loser resigns, 2 to the other player of the pairing. (A winner need not
    know its game: one away until its opponent had resigned never sees it.)"""
    lost = {(b.games[g]["round"], b.name) for b in bots for g in b.resigned}
    results = {}
    for p in t["pairings"]:
        if len(p["players"]) != 2:
            continue
        losers = [n for n in p["players"] if (p["round"], n) in lost]
        checks.eq(len(losers), 1, f"{label}: round {p['round']}, {p['players']}: one resigned")
        for n in p["players"]:
            results[(p["round"], n)] = 0 if n in losers else 2
    return results
