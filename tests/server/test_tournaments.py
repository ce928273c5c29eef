"""Tournaments on one server (`tournament`, docs/server-protocol.md; issue 44): created by a
registered player with each format's terms (a set's default of 2 games: Castle Danger's
formal play), every bad field refused with its code and nothing stored, joined (guests too)
and withdrawn from, a set full at its players, listed and its standings read over the
protocol and the HTTP API alike; everything still there after the server restarts on its
database. Then played end to end by the server's director: a Castle Danger set of 2 (its
first game played out at random under tournament=1: a win, or the draw at turn 25; the next
game opens by itself with the sides swapped; the set's score the sum of the results) and a
Swiss of 4 over 2 rounds (each round paired as the last ends, no repeat pairing, standings
mid-round from the rounds done, the tournament over after its last round)."""

import asyncio
import json
import random

from rsclient import Checks, Server, account, arguments, guest, play_out
from tourlib import listed, op


def create(**fields):
    base = {"t": "tournament", "op": "create", "name": "Sunday Swiss", "type": "castle-danger",
            "format": "swiss", "rounds": 5}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


async def refusals(checks, alice, visitor):
    """Every bad field of a create: its code, and the list as it was."""
    before = await listed(alice)
    cases = [
        (visitor, create(), "not-registered", "a guest creates nothing"),
        (alice, create(name=None), "bad-message", "name missing"),
        (alice, create(name=""), "bad-tournament", "an empty name"),
        (alice, create(name="x" * 64), "bad-message", "a name over 63 bytes"),
        (alice, create(format="knockout"), "bad-tournament", "an unknown format"),
        (alice, create(rounds=None), "bad-message", "a Swiss without rounds"),
        (alice, create(rounds=0), "bad-tournament", "0 rounds"),
        (alice, create(rounds=51), "bad-tournament", "51 rounds"),
        (alice, create(format="arena", rounds=None), "bad-message", "an arena without minutes"),
        (alice, create(format="arena", rounds=None, minutes=0), "bad-tournament",
         "an arena of 0 minutes"),
        (alice, create(format="arena", rounds=None, minutes=45, type="king-of-danger", table=4),
         "bad-tournament", "an arena at tables of 4 (its tick pairs two players)"),
        (alice, create(games=11), "bad-tournament", "a set of 11 games"),
        (alice, create(table=6), "bad-tournament", "a table of 6"),
        (alice, create(table=3), "bad-option", "Castle Danger at tables of 3"),
        (alice, create(type="chess"), "bad-game", "an unknown game"),
        (alice, create(options={"seed": 4}), "bad-option", "the seed as an option"),
        (alice, create(clock={"kind": "sundial"}), "bad-clock", "a clock that is not one"),
        (alice, create(rated="yes"), "bad-message", "rated not a boolean"),
        (alice, {"t": "tournament"}, "bad-message", "op missing"),
        (alice, {"t": "tournament", "op": "start"}, "bad-message", "an unknown op"),
        (alice, op("standings", 424242), "no-such-tournament", "an unknown tournament"),
    ]
    for c, msg, code, what in cases:
        reply = await c.request(msg, "tournament")
        checks.eq((reply["t"], reply.get("code")), ("error", code), what)
    checks.eq(await listed(alice), before, "the refusals stored nothing")


async def one_server(checks, args):
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        alice = await account(server, "alice", "Alice")
        bob = await account(server, "bob", "Bob")
        visitor = await guest(server, "visitor")
        carol = await account(server, "carol", "Carol")
        checks.eq(await listed(alice), [], "no tournaments at first")
        made = (await alice.request(create(options={"tournament": 1},
                                           clock={"kind": "live", "initial_ms": 300000,
                                                  "increment_ms": 2000}, rated=True),
                                    "tournament"))["tournament"]
        checks.eq({k: made.get(k) for k in ("name", "type", "format", "rounds", "games", "table",
                                            "options", "rated", "status", "round", "entries")},
                  {"name": "Sunday Swiss", "type": "castle-danger", "format": "swiss",
                   "rounds": 5, "games": 1, "table": 2, "options": {"tournament": 1},
                   "rated": True, "status": "open", "round": 0, "entries": 0},
                  "create answers the tournament as made")
        swiss = made["id"]
        a_set = (await alice.request(create(format="sets", rounds=None, name="A set",
                                            options={"tournament": 1}),
                                     "tournament"))["tournament"]
        checks.eq((a_set["format"], a_set["games"], "rounds" in a_set), ("sets", 2, False),
                  "a set is 2 games by default (Castle Danger's formal play)")
        arena = (await alice.request(create(format="arena", rounds=None, minutes=45,
                                            name="Arena"), "tournament"))["tournament"]
        checks.eq((arena["minutes"], arena["table"], "ends_ms" in arena), (45, 2, False),
                  "an arena of 45 minutes, its end set when it starts")
        await refusals(checks, alice, visitor)

        reply = await visitor.request(op("join", swiss), "done")
        checks.eq(reply.get("code"), "not-registered",
                  "a guest cannot enter a rated tournament (issue 49: rated games for accounts)")
        for c in (alice, bob, carol):
            reply = await c.request(op("join", swiss), "done")
            checks.eq((reply["t"], reply.get("tournament")), ("done", swiss), f"{c.label} joins")
        reply = await bob.request(op("join", swiss), "done")
        checks.eq(reply.get("code"), "already-entered", "a second join is refused")
        reply = await bob.request(op("withdraw", swiss), "done")
        checks.eq(reply["t"], "done", "Bob withdraws")
        reply = await bob.request(op("withdraw", swiss), "done")
        checks.eq(reply.get("code"), "not-entered", "and cannot withdraw twice")
        for c in (alice, bob):
            await c.request(op("join", a_set["id"]), "done")
        reply = await visitor.request(op("join", a_set["id"]), "done")
        checks.eq(reply.get("code"), "full", "a set of two takes two players")

        standings = (await visitor.request(op("standings", swiss), "standings"))["tournament"]
        lines = standings["standings"]
        checks.eq(sorted((l["name"], l["points"], l["active"]) for l in lines),
                  sorted([("Alice", 0, True), ("Carol", 0, True), ("Bob", 0, False)]),
                  "the standings list every entry, the withdrawn one inactive")
        checks.eq([l["rank"] for l in lines], [1, 2, 3], "ranked 1 to 3")
        checks.eq(standings["pairings"], [], "no pairings yet")
        status, _, body = server.http(f"/api/v1/tournaments/{swiss}")
        checks.eq(status, 200, "GET /api/v1/tournaments/ID")
        checks.eq(json.loads(body), standings, "the API gives what standings gives")
        status, _, body = server.http("/api/v1/tournaments")
        listing = json.loads(body)["tournaments"] if status == 200 else []
        checks.eq([(t["id"], t["entries"]) for t in listing],
                  [(arena["id"], 0), (a_set["id"], 2), (swiss, 3)],
                  "GET /api/v1/tournaments: newest first, with their entries")
        checks.eq(server.http("/api/v1/tournaments/999")[0], 404, "an unknown one is 404")
        checks.eq(server.http("/api/v1/tournaments/x")[0], 404, "a bad number is 404")
        checks.eq(server.http("/api/v1/tournaments?page=2")[0], 400, "a query it does not read")

        before = await listed(alice)
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly")
        server.start()
        again = await guest(server, "again")
        checks.eq(await listed(again), before, "the tournaments survive a restart")
        after = (await again.request(op("standings", swiss), "standings"))["tournament"]
        checks.eq(after, standings, "and so do their entries")
    finally:
        await asyncio.to_thread(server.stop)


async def next_paired(c, tournament, seen_games):
    """The next `paired` of c's for a game of the tournament it has not seen, received
    before or after its cursor (a push may come before the reply to what caused it)."""
    def wanted(m):
        return (m["t"] == "paired" and m.get("tournament") == tournament
                and m["game"] not in seen_games)
    m = next((m for m in c.messages if wanted(m)), None)
    if m is None:
        m = await c.expect(wanted, f"{c.label}'s next tournament game", 120)
    seen_games.add(m["game"])
    return m


async def resign(c, game):
    reply = await c.request({"t": "resign", "game": game}, "done")
    assert reply["t"] == "done", reply


async def finished(c, tournament):
    """The tournament's standings once it is over (the director runs once a second)."""
    for _ in range(240):
        t = (await c.request(op("standings", tournament), "standings"))["tournament"]
        if t["status"] == "over":
            return t
        await asyncio.sleep(0.5)
    raise TimeoutError(f"tournament {tournament} not over")


async def a_set(checks, server):
    alice = await account(server, "set-alice", "Sal")
    bob = await account(server, "set-bob", "Sid")
    made = (await alice.request(create(format="sets", rounds=None, name="Formal set",
                                       options={"tournament": 1}), "tournament"))["tournament"]
    number = made["id"]
    checks.eq(made.get("creator"), "Sal", "the tournament names its creator (the page's Start)")
    checks.eq([t.get("creator") for t in await listed(bob) if t["id"] == number], ["Sal"],
              "the list names the creator too")
    for c in (alice, bob):
        await c.request(op("join", number), "done")
    reply = await bob.request(op("start", number), "done")
    checks.eq(reply.get("code"), "not-allowed", "only the creator starts it")
    checks.eq((await alice.request(op("start", number), "done"))["t"], "done", "the set starts")
    reply = await alice.request(op("start", number), "done")
    checks.eq(reply.get("code"), "not-open", "and starts once")
    seen = {alice: set(), bob: set()}
    first = {c: await next_paired(c, number, seen[c]) for c in (alice, bob)}
    g1 = first[alice]["game"]
    checks.eq(first[bob]["game"], g1, "both are paired into the set's first game")
    snap = await alice.request({"t": "open", "game": g1}, "snapshot")
    checks.eq(snap.get("options", {}).get("tournament"), 1,
              "the set's games are played under tournament=1 (turn 25 a draw)")
    # Game 1 played out at random: a win, or the draw at turn 25 (tournament=1); the set
    # scores what the game's result says either way.
    await bob.request({"t": "open", "game": g1}, "snapshot")
    seats = {first[alice]["seat"]: alice, first[bob]["seat"]: bob}
    end = await play_out(checks, g1, seats, random.Random(44), label="set game 1")
    returns = end["result"]["returns"]
    first_points = {c.label: returns[first[c]["seat"]] for c in (alice, bob)}
    view = end.get("view", {})
    print(f"set game 1: {end['result']['text']} at turn {view.get('turn')}")
    if returns[0] == returns[1]:  # a draw in Castle Danger is only the turn limit's
        checks.eq((view.get("turn"), view.get("turn_limit"), view.get("tournament")),
                  (25, 25, True) if isinstance(view.get("tournament"), bool) else (25, 25, 1),
                  "a drawn set game is the draw at turn 25 (tournament=1)")
    second = {c: await next_paired(c, number, seen[c]) for c in (alice, bob)}
    g2 = second[alice]["game"]
    checks.ok(g2 != g1 and second[bob]["game"] == g2, "the next game opens by itself")
    checks.eq((second[alice]["seat"], second[bob]["seat"]),
              (first[bob]["seat"], first[alice]["seat"]), "with the sides swapped")
    await resign(bob, g2)  # Sal wins game 2
    over = await finished(alice, number)
    lines = {l["name"]: l for l in over["standings"]}
    want = (first_points[alice.label] + 1, first_points[bob.label])
    checks.eq((lines["Sal"]["points"], lines["Sid"]["points"]), want,
              "the set's score is the sum of its games' results")
    checks.eq([p["games_done"] for p in over["pairings"]], [2], "one pairing, both games done")


async def a_swiss(checks, server):
    players = [await account(server, f"swiss-{i}", name)
               for i, name in enumerate(("Ann", "Ben", "Cat", "Dan"))]
    made = (await players[0].request(create(rounds=2, name="Small Swiss"),
                                      "tournament"))["tournament"]
    number = made["id"]
    for c in players:
        await c.request(op("join", number), "done")
    await players[0].request(op("start", number), "done")
    seen = {c: set() for c in players}
    met = set()
    for round_number in (1, 2):
        games = {}
        for c in players:
            m = await next_paired(c, number, seen[c])
            games.setdefault(m["game"], []).append((m["seat"], c))
        checks.eq(len(games), 2, f"round {round_number}: two games of two")
        if round_number == 2:  # round 1 done, round 2 being played: standings of round 1
            mid = (await players[0].request(op("standings", number), "standings"))["tournament"]
            checks.eq(({l["played"] for l in mid["standings"]},
                       sum(l["points"] for l in mid["standings"]),
                       sum(l["buchholz"] for l in mid["standings"])), ({1}, 2, 2),
                      "mid-round standings count the rounds done, not the games being played")
        for game, seats in games.items():
            pair = frozenset(c.label for _, c in seats)
            checks.ok(pair not in met, f"round {round_number}: no repeat pairing")
            met.add(pair)
            await resign(min(seats, key=lambda s: s[0])[1], game)  # seat 0 resigns
    over = await finished(players[0], number)
    checks.eq(over["round"], 2, "over after its 2 rounds")
    checks.eq(sum(l["points"] for l in over["standings"]), 4, "4 games, a point each")
    checks.eq({l["played"] for l in over["standings"]}, {2}, "everyone played both rounds")
    checks.eq(len(over["pairings"]), 4, "4 pairings stored")


async def main():
    args = arguments()
    checks = Checks()
    await one_server(checks, args)
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await a_set(checks, server)
        await a_swiss(checks, server)
    finally:
        await asyncio.to_thread(server.stop)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
