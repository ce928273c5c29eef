"""Who plays in a tournament (issue 44; docs/tournaments.md): a rated Swiss of 4 accounts over
2 rounds moves their Glicko-2 ratings exactly as the same games outside a tournament would
(checked against Glickman's algorithm computed here, game by game), and each profile lists the
tournament with the place the standings give; the computer as the house player of an unrated
Swiss: refused in a rated one, at an unknown level or outside a Swiss, and with 3 people it
takes the seat that would have been a bye, its moves made by the AI, its game counted in the
standings; with 4 people it sits the round out."""

import asyncio
import math
import random

from rsclient import Checks, Server, account, arguments, guest
from test_tournaments import finished, next_paired
from tourlib import op

GAME = "castle-danger"


def create(**fields):
    base = {"t": "tournament", "op": "create", "name": "Players", "type": GAME,
            "format": "swiss", "rounds": 2}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


# ---- Glicko-2, written here from Glickman's "Example of the Glicko-2 system" ----

SCALE = 173.7178
TAU = 0.5  # docs/server-protocol.md, "Ratings": tau 0.5, new players 1500 / 350 / 0.06


def glicko2(player, games):
    """player (rating, rd, vol) after one rating period of games [(opponent, score)]."""
    rating, rd, vol = player
    mu, phi = (rating - 1500) / SCALE, rd / SCALE

    def g(p):
        return 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)

    v_inv = delta_sum = 0.0
    for (o_rating, o_rd, _), score in games:
        mu_j, phi_j = (o_rating - 1500) / SCALE, o_rd / SCALE
        e = 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))
        v_inv += g(phi_j) ** 2 * e * (1 - e)
        delta_sum += g(phi_j) * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    a = math.log(vol * vol)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / TAU ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma ** 2)
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * delta_sum
    return (mu_new * SCALE + 1500, phi_new * SCALE, sigma)


# ---- playing the games ----

async def round_games(players, tournament, seen):
    """{game: {seat: client}} of the round each player is paired into."""
    games = {}
    for c in players:
        m = await next_paired(c, tournament, seen[c])
        games.setdefault(m["game"], {})[m["seat"]] = c
    return games


async def both_move_then_resign(checks, game, seats, loser_seat):
    """Random legal moves until every seat has moved (a rated game that ends before changes
    no rating: issue 49, finding 4), then loser_seat resigns."""
    for c in seats.values():
        await c.request({"t": "open", "game": game}, "snapshot")
    moved = set()
    rng = random.Random(game)
    state = await seats[0].state_at(game, ply=0)
    while moved != set(seats) and state["status"] == "live":
        mover = seats[state["to_move"]]
        mine = await mover.state_at(game, ply=state["ply"])
        choice = rng.choice(mine["legal"])
        ack = await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                   "move": choice["text"]}, "ack")
        checks.eq(ack["t"], "ack", f"game {game}: a move")
        moved.add(state["to_move"])
        state = await seats[0].state_at(game, ply=mine["ply"] + 1)
    if state["status"] == "live":
        reply = await seats[loser_seat].request({"t": "resign", "game": game}, "done")
        checks.eq(reply["t"], "done", f"game {game}: seat {loser_seat} resigns")
    return await seats[0].state_at(game, ply=10 ** 6)  # over


async def play_against_ai(checks, game, seat, person, rng):
    """The game played out: person's moves at random, the AI's made by the server; the
    final state and how many moves the AI made."""
    state = await person.state_at(game, ply=0)
    ai_moves = 0
    while state["status"] == "live":
        if state["to_move"] != seat:  # the AI's turn: its move comes as the next update
            state = await person.state_at(game, ply=state["ply"] + 1)
            ai_moves += 1
            continue
        choice = rng.choice(state["legal"])
        ack = await person.request({"t": "move", "game": game, "ply": state["ply"],
                                    "move": choice["text"]}, "ack")
        if not checks.eq(ack["t"], "ack", f"game {game}: a move against the computer"):
            break
        state = await person.state_at(game, ply=state["ply"] + 1)
    return state, ai_moves


# ---- rated ----

async def rated_swiss(checks, server):
    names = ("Ada", "Bea", "Cyd", "Dov")
    players = [await account(server, f"rated-{n}", n) for n in names]
    made = (await players[0].request(create(rated=True, name="Rated Swiss"),
                                      "tournament"))["tournament"]
    number = made["id"]
    for c in players:
        await c.request(op("join", number), "done")
    await players[0].request(op("start", number), "done")
    seen = {c: set() for c in players}
    ratings = {n: (1500.0, 350.0, 0.06) for n in names}
    games_of = {n: [] for n in names}
    rng = random.Random(44)
    for round_number in (1, 2):
        games = await round_games(players, number, seen)
        checks.eq(len(games), 2, f"round {round_number}: two games")
        results = []
        for game, seats in sorted(games.items()):
            end = await both_move_then_resign(checks, game, seats, rng.randrange(2))
            checks.eq(end.get("rated"), True, f"game {game} is rated")
            returns = end["result"]["returns"]
            results.append(([seats[s].label.split("-")[1] for s in (0, 1)], returns))
            for s in (0, 1):
                games_of[seats[s].label.split("-")[1]].append(game)
        # The round's games end one at a time, each rated against the ratings before it:
        # the pairs are disjoint, so every player's game is one period from the round's start.
        before = dict(ratings)
        for (a, b), returns in results:
            score_a = 1.0 if returns[0] > returns[1] else 0.0 if returns[0] < returns[1] else 0.5
            ratings[a] = glicko2(before[a], [(before[b], score_a)])
            ratings[b] = glicko2(before[b], [(before[a], 1 - score_a)])
    over = await finished(players[0], number)
    places = {line["name"]: line["rank"] for line in over["standings"]}
    for n in names:
        status, profile = server.http_json(f"/api/v1/players/{n}")
        checks.eq(status, 200, f"{n}'s profile")
        got = profile.get("ratings", {}).get(GAME, {})
        want = ratings[n]
        checks.ok(abs(got.get("rating", 0) - want[0]) < 1e-6 and abs(got.get("rd", 0) - want[1])
                  < 1e-6 and abs(got.get("vol", 0) - want[2]) < 1e-9 and got.get("games") == 2,
                  f"{n}: the tournament's 2 games rated as Glicko-2 computes them: "
                  f"server {got}, here {want}")
        checks.eq(sorted(h["id"] for h in profile.get("rating_history", [])),
                  sorted(games_of[n]), f"{n}'s rating history is the tournament's games")
        listed = profile.get("tournaments", [])
        line = next((t for t in listed if t["id"] == number), None)
        checks.eq(line and {k: line[k] for k in ("name", "status", "rated", "place", "of")},
                  {"name": "Rated Swiss", "status": "over", "rated": True, "place": places[n],
                   "of": 4}, f"{n}'s profile lists the tournament with the place")
        points = next(line["points"] for line in over["standings"] if line["name"] == n)
        checks.eq(line and line["points"], points, f"{n}'s profile: the points")
    checks.eq(sorted(places.values()), [1, 2, 3, 4], "four places")


# ---- the computer ----

async def computer_refusals(checks, creator):
    """Each refused create under a name of its own: none of those names is stored (another
    event is being made beside this one, so the list as a whole may change)."""
    cases = [
        (create(computer="random", rated=True), "not-allowed",
         "a rated tournament has no computer (rated games are between people only)"),
        (create(computer="godlike"), "bad-tournament", "an AI level that is not one"),
        (create(computer=3), "bad-message", "computer not a string"),
        (create(computer="random", format="sets", rounds=None), "bad-tournament",
         "the computer in a set"),
        (create(computer="random", type="king-of-danger", table=3), "bad-tournament",
         "the computer at tables of 3"),
    ]
    for k, (msg, code, what) in enumerate(cases):
        reply = await creator.request(dict(msg, name=f"refused {k}"), "tournament")
        checks.eq((reply["t"], reply.get("code")), ("error", code), what)
    after = (await creator.request({"t": "tournament", "op": "list"},
                                   "tournaments"))["tournaments"]
    checks.eq([t["name"] for t in after if t["name"].startswith("refused")], [],
              "the refusals stored nothing")


async def with_computer(checks, server):
    host = await account(server, "host", "Host")
    await computer_refusals(checks, host)
    made = (await host.request(create(computer="random", rounds=1, name="House",
                                      options={"tournament": 1}), "tournament"))["tournament"]
    checks.eq((made.get("computer"), made["rated"]), ("random", False),
              "an unrated Swiss with the computer at level random")
    number = made["id"]
    people = [host, await guest(server, "g1"), await guest(server, "g2")]
    for c in people:
        await c.request(op("join", number), "done")
    await host.request(op("start", number), "done")
    seen = {c: set() for c in people}
    games = await round_games(people, number, seen)
    checks.eq(sorted(len(seats) for seats in games.values()), [1, 2],
              "3 people: one game between two, one against the computer (no bye)")
    vs_ai = next(g for g, seats in games.items() if len(seats) == 1)
    (my_seat, person), = games[vs_ai].items()
    snap = await person.request({"t": "open", "game": vs_ai}, "snapshot")
    seats = {s["seat"]: s for s in snap.get("seats", [])}
    checks.eq((seats.get(1 - my_seat, {}).get("kind"), seats.get(1 - my_seat, {}).get("level"),
               snap.get("rated")), ("ai", "random", False),
              "the computer's seat is the AI's, at the tournament's level, unrated")
    for game, seats in games.items():
        if game != vs_ai:
            await both_move_then_resign(checks, game, seats, 0)
    # The person plays the game out at random; the AI answers each move on its threads.
    end, ai_moves = await play_against_ai(checks, vs_ai, my_seat, person, random.Random(7))
    checks.eq(end["status"], "over", "the game against the computer ends")
    checks.ok(ai_moves > 0, f"the computer moved ({ai_moves} moves; {end['result']['text']})")
    over = await finished(host, number)
    lines = {line["name"]: line for line in over["standings"]}
    computer = lines.get("Computer (random)", {})
    checks.eq((computer.get("computer"), computer.get("played")), (True, 1),
              "the computer is in the standings, its game counted")
    returns = end["result"]["returns"]
    checks.eq(computer.get("points"), returns[1 - my_seat], "with the points it scored")
    checks.eq(sum(line["points"] for line in over["standings"]), 2, "two games, a point each")
    checks.eq({line["byes"] for line in over["standings"]}, {0}, "nobody had a bye")
    checks.eq((over["entries"], len(over["standings"])), (3, 4),
              "3 entries (people) and the computer in the standings")


async def even_without_computer(checks, server):
    """4 people: an even count, so the house player sits the round out."""
    host = await account(server, "host4", "Hostess")
    made = (await host.request(create(computer="easy", rounds=1, name="Even"),
                               "tournament"))["tournament"]
    number = made["id"]
    people = [host] + [await guest(server, f"e{i}") for i in range(3)]
    for c in people:
        await c.request(op("join", number), "done")
    await host.request(op("start", number), "done")
    games = await round_games(people, number, {c: set() for c in people})
    checks.eq(sorted(len(seats) for seats in games.values()), [2, 2],
              "4 people: two games between people, the computer sits out")
    for game, seats in games.items():
        await both_move_then_resign(checks, game, seats, 1)
    over = await finished(host, number)
    computer = next((line for line in over["standings"] if line.get("computer")), {})
    checks.eq((computer.get("name"), computer.get("played"), computer.get("points")),
              ("Computer (easy)", 0, 0), "listed, with no game played")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        # Two events at once on one server, as a server runs them (and the test's waits for
        # the director's second overlap).
        await asyncio.gather(rated_swiss(checks, server), with_computer(checks, server),
                             even_without_computer(checks, server))
        # A profile is read from the stored results: a restarted server lists the same.
        before = server.http_json("/api/v1/players/Ada")[1]["tournaments"]
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly")
        server.start()
        checks.eq(server.http_json("/api/v1/players/Ada")[1]["tournaments"], before,
                  "the profile's tournaments survive a restart (computed from stored results)")
    finally:
        await asyncio.to_thread(server.stop)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
