"""Tournaments on the three-node cluster behind HAProxy (issue 44; docs/tournaments.md, "On the
server"; clusterlib.py): every node runs the director, and the database lets one of them
record each end, open each game and pair each round.

- A Swiss of bots connected through HAProxy (spread over the nodes): during round 2 the node
  whose director paired it is killed with kill -9 while the round's games are in play, and
  started again. Its bots reconnect through HAProxy and ask `standings` for their game, as a
  client would; the games it opened are finished on the other nodes. The tournament ends
  with: every round paired exactly once (the stored pairings, and one "round N paired" in all
  the nodes' logs), every game started once (the games table holds one game a pairing, none
  left unfinished), no repeat pairing, a bye at most once each, seats within one, the stored
  games' results those the bots made, the standings equal to the test's own computation, and
  every bot that kept its connection told of each of its games by `paired` (a push from
  whichever node paired it).
- Castle Danger's formal set of 2 (tournament=1) between players on two different nodes: the
  second game opens by itself with the sides swapped, two games stored, the set's score their
  sum.

make test: 6 bots over 3 rounds (the cluster's start is most of its time); make soak
(RAMPARTS_SOAK=1): 12 bots over 4 rounds, a node also killed the moment round 3's last game
is resigned (while the directors record the ends and pair round 4), and the set. Skips (exit 77) only where PostgreSQL or HAProxy is not
installed."""

import asyncio
import math
import os
import time

from clusterlib import Front, run_test
from rsclient import account, arguments
from tourlib import (Bot, finished, loser_seat, op, pairing_checks, results_of,
                     standings_checks, swiss_entered)

SOAK = os.environ.get("RAMPARTS_SOAK", "0") not in ("", "0")
BOTS = 12 if SOAK else 6
ROUNDS = 4 if SOAK else 3
KILL_ROUNDS = (2,)  # a node killed while these rounds' games are in play
# make soak: a node also killed the moment round 3's last game is resigned, while the
# directors record the round's end and pair round 4
END_KILL_ROUND = 3 if SOAK else None
WATCHDOG_S = 900  # the whole run's bound: past it the test fails with the nodes' logs


def step(what):
    print(f"[{time.strftime('%H:%M:%S')}] {what}", flush=True)


async def query(cluster, sql):
    return await asyncio.to_thread(cluster.pg.query, sql)


def paired_lines(cluster, number, rnd):
    """The nodes whose log says they paired round rnd of tournament `number`, one entry a
    line."""
    line = f"tournament {number}: round {rnd} paired"
    return [i for i, n in enumerate(cluster.nodes) for x in n.log().splitlines() if line in x]


async def wait_round(cluster, number, rnd):
    for _ in range(1200):  # a bound for a hang
        rows = await query(cluster, f"SELECT round FROM tournaments WHERE id = {number}")
        if rows and int(rows[0][0]) >= rnd:
            return
        await asyncio.sleep(0.1)
    raise TimeoutError(f"round {rnd} of tournament {number} not paired")


async def swiss_with_kills(checks, cluster):
    front = Front(cluster)
    organiser = await (await Bot(front, "organiser").connect()).register("Organiser")
    bots = [await Bot(front, f"bot{i}").connect() for i in range(BOTS)]
    spread = []
    for n in cluster.nodes:
        _, health = n.http_json("/healthz")
        spread.append(health.get("connections", 0))
    checks.ok(sum(1 for c in spread if c > 0) >= 2,
              f"the bots are spread over the nodes by HAProxy (connections {spread})")
    number = await swiss_entered(checks, organiser, "Cluster Swiss", ROUNDS, bots)

    # Each round named in KILL_ROUNDS is held (its games in play) until a node is killed.
    released = {rnd: asyncio.Event() for rnd in KILL_ROUNDS}
    holding = {rnd: set() for rnd in KILL_ROUNDS}

    away = {}  # round -> the bots kept away while it was paired

    async def hold(bot, rnd, game):
        if rnd in released:
            holding[rnd].add(bot)
            await released[rnd].wait()
        # The round after a kill is played once the bots kept away have asked for their games
        # (a game must not end before its player has come back to look).
        for b in away.get(rnd, []):
            await b.came_back.wait()

    tasks = [asyncio.create_task(b.play(number, hold)) for b in bots]
    checks.eq((await organiser.request(op("start", number), "done"))["t"], "done", "started")
    killed, outaged = [], []
    for rnd in KILL_ROUNDS:
        await wait_round(cluster, number, rnd)
        in_games = 2 * (BOTS // 2)
        for _ in range(1200):  # every bot of the round's games at its game
            if len(holding[rnd]) >= in_games or any(t.done() for t in tasks):
                break
            await asyncio.sleep(0.1)
        checks.eq(len(holding[rnd]), in_games, f"round {rnd}: every game in play")
        pairers = paired_lines(cluster, number, rnd)
        checks.eq(len(pairers), 1, f"round {rnd}: one node logs that it paired it")
        victim, late = await choose_victim(cluster, bots, rnd, pairers, killed)
        step(f"round {rnd}: node{victim + 1} killed with kill -9 (paired the round: "
             f"{[f'node{i + 1}' for i in pairers]}); {len(late)} of its bots come back only "
             f"after round {rnd + 1} is paired")
        checks.ok(late, f"round {rnd}: a bot on node{victim + 1} won its game and stays away")
        cluster.kill9(victim)
        killed.append(victim)
        for b in late:  # winners of round rnd: they have nothing to send until round rnd + 1
            b.outage = lambda r=rnd: wait_round(cluster, number, r + 1)
            b.came_back = asyncio.Event()
            outaged.append((b, rnd + 1))
        away[rnd + 1] = late
        released[rnd].set()
        await asyncio.to_thread(cluster.restart, victim)
        step(f"node{victim + 1} started again")
    end_kills = {}
    if END_KILL_ROUND:
        end_kills[END_KILL_ROUND] = await kill_at_round_end(cluster, number, bots,
                                                            END_KILL_ROUND, tasks)
    await asyncio.wait_for(asyncio.gather(*tasks), 600)
    over = await finished(organiser, number)
    await checks_after(checks, cluster, number, bots, over, end_kills)
    for b, rnd in outaged:  # away when round rnd was paired: told by nothing, they asked
        mine = [b.games[g]["how"] for g, info in b.games.items() if info["round"] == rnd]
        byes = [p for p in over["pairings"] if p["round"] == rnd and p["players"] == [b.name]]
        checks.eq(mine, [] if byes else ["asked"],
                  f"{b.name}, away while round {rnd} was paired, asked for its game")


async def kill_at_round_end(cluster, number, bots, rnd, tasks):
    """The node with the most bots killed with kill -9 as soon as every game of round rnd has
    been resigned (the directors then record the ends and pair the next round: the moment a
    node may be in the middle of it), and started again."""
    await wait_round(cluster, number, rnd)
    rows = await query(cluster, "SELECT players FROM tournament_pairings WHERE"
                       f" tournament_id = {number} AND round = {rnd}")
    games = sum(1 for (players,) in rows if len(players.split()) == 2)
    for _ in range(60000):  # polled often, to kill close to the last resignation
        done = sum(1 for b in bots for g in b.resigned if b.games[g]["round"] == rnd)
        if done >= games or any(t.done() for t in tasks):
            break
        await asyncio.sleep(0.005)
    rows = await query(cluster, "SELECT node, count(*) FROM presence WHERE game_id = 0"
                       " GROUP BY node ORDER BY count(*) DESC, node")
    victim = int(rows[0][0].removeprefix("node")) - 1 if rows else 0
    step(f"round {rnd}'s games all resigned: node{victim + 1} killed with kill -9")
    cluster.kill9(victim)
    await asyncio.to_thread(cluster.restart, victim)
    step(f"node{victim + 1} started again")
    return victim


async def choose_victim(cluster, bots, rnd, pairers, killed):
    """The node to kill in round rnd: the one that paired it, if some bot connected to it won
    its game of the round (that bot has nothing to send until the next round is paired, so
    it stays away until then and must ask for its next game); else another node with such a
    bot. Returns (node index, those bots)."""
    rows = await query(cluster, "SELECT node, user_id FROM presence WHERE game_id = 0")
    where = {int(user): int(node.removeprefix("node")) - 1 for node, user in rows}
    winners = {}
    for b in bots:
        game = [g for g, info in b.games.items() if info["round"] == rnd]
        if game and b.games[game[0]]["seat"] != loser_seat(game[0]) and b.user["id"] in where:
            winners.setdefault(where[b.user["id"]], []).append(b)
    order = pairers + [i for i in range(len(cluster.nodes)) if i not in pairers]
    order = [i for i in order if i not in killed] + [i for i in order if i in killed]
    victim = next((i for i in order if winners.get(i)), order[0])
    return victim, winners.get(victim, [])


async def checks_after(checks, cluster, number, bots, over, end_kills):
    """end_kills: {round: the node killed at its end}."""
    label = "cluster Swiss"
    checks.eq((over["status"], over["round"]), ("over", ROUNDS), f"over after {ROUNDS} rounds")
    by_round = pairing_checks(checks, over, label)
    checks.eq(sorted(by_round), list(range(1, ROUNDS + 1)), "every round paired")
    for rnd, ps in by_round.items():
        checks.eq((len(ps), sorted(n for p in ps for n in p["players"])),
                  (math.ceil(BOTS / 2), sorted(b.name for b in bots)),
                  f"round {rnd}: paired once, every player on one board")
        lines = paired_lines(cluster, number, rnd)
        if rnd - 1 in end_kills:  # a node killed mid-pairing logs a pairing never committed
            lines = [i for i in lines if i != end_kills[rnd - 1]] or lines[:1]
        checks.eq(len(lines), 1, f"round {rnd}: paired by one node once (the nodes' logs)")
    # Every game started once: the games table holds one game a 2-player pairing, each over,
    # its seats the pairing's in order, its scores what the bots did.
    ids = ", ".join(str(b.user["id"]) for b in bots)
    rows = await query(cluster, "SELECT g.id, g.status, s.seat, s.user_id, s.score FROM games g"
                       f" JOIN seats s ON s.game_id = g.id WHERE s.user_id IN ({ids})"
                       " ORDER BY g.id, s.seat")
    names = {str(b.user["id"]): b.name for b in bots}
    stored = {}
    for gid, status, seat, user, score in rows:
        stored.setdefault(int(gid), {"status": int(status), "seats": [], "scores": []})
        stored[int(gid)]["seats"].append(names[user])
        stored[int(gid)]["scores"].append(float(score))
    boards = sorted(tuple(p["players"]) for p in over["pairings"] if len(p["players"]) == 2)
    checks.eq(sorted(tuple(g["seats"]) for g in stored.values()), boards,
              "every game started once: one stored game a pairing, seated as paired")
    checks.eq({gid: g["status"] for gid, g in stored.items() if g["status"] != 2}, {},
              "every stored game is over")
    played = {g for b in bots for g in b.resigned}  # each game ends as its loser resigns
    checks.eq(sorted(stored), sorted(played), "the stored games are those the bots played")
    wrong = {gid: g["scores"] for gid, g in stored.items() if len(g["scores"]) == 2
             and not g["scores"][loser_seat(gid)] < g["scores"][1 - loser_seat(gid)]}
    checks.eq(wrong, {}, "each stored result: the seat that resigned lost")
    entries = [(b.name, 1500.0) for b in bots]  # unrated guests: join order is the seed
    standings_checks(checks, over, entries, results_of(checks, bots, over, label), label)
    for b in bots:
        await b.request({"t": "lobby", "watch": False}, "done")  # pushes before it: read
        missing = sorted(set(b.games) - set(b.pushed(number)))
        if b.reconnects == 0:
            checks.eq(missing, [], f"{b.name} (never cut off) got `paired` for each game")
        else:
            checks.ok(all(b.games[g]["how"] == "asked" for g in missing),
                      f"{b.name} (reconnected {b.reconnects} times) got `paired` or asked")
    cut = [b for b in bots if b.reconnects]
    asked = sum(info["how"] == "asked" for b in bots for info in b.games.values())
    step(f"{len(cut)} bots reconnected after the kill; {asked} games learned by asking")
    checks.ok(cut, "some bots were on a killed node")


async def castle_danger_set(checks, cluster):
    """Castle Danger's set of 2 between a player on node 1 and one on node 2. The rulebook:
    "the game should always be played in sets of 2 games, with players changing sides between
    games; a pre-determined number of turns (25 is recommended) should be scored as a draw"
    (the draw at turn 25 is test_tournaments.py's; here each game is resigned)."""
    organiser = await account(cluster.nodes[2], "set-organiser", "SetOrganiser")
    sal, sid = (await Bot(cluster.nodes[0], "sal").connect(),
                await Bot(cluster.nodes[1], "sid").connect())
    made = (await organiser.request({"t": "tournament", "op": "create", "name": "Formal set",
                                     "type": "castle-danger", "format": "sets",
                                     "options": {"tournament": 1}}, "tournament"))["tournament"]
    number = made["id"]
    checks.eq(made["games"], 2, "a set of 2 (Castle Danger's formal play)")
    for b in (sal, sid):
        await b.request(op("join", number), "done")
    tasks = [asyncio.create_task(b.play(number)) for b in (sal, sid)]
    checks.eq((await organiser.request(op("start", number), "done"))["t"], "done",
              "the set starts")
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    over = await finished(organiser, number)
    games = sorted(sal.games)
    checks.eq((len(games), sorted(sid.games)), (2, games), "two games, both players in each")
    if len(games) == 2:
        checks.eq([sal.games[g]["seat"] for g in games], [sid.games[g]["seat"] for g in games][::-1],
                  "the sides swapped between the two games")
    rows = await query(cluster, "SELECT g.id, g.options, s.seat, s.user_id FROM games g JOIN"
                       f" seats s ON s.game_id = g.id WHERE s.user_id = {sal.user['id']}")
    checks.eq(sorted(int(r[0]) for r in rows), games, "two games stored, one each")
    checks.ok(all("tournament=1" in r[1].split() for r in rows),
              f"both under tournament=1 (turn 25 a draw): {[r[1] for r in rows]}")
    lines = {line["name"]: line["points"] for line in over["standings"]}
    want = {b.name: sum(0 if g in b.resigned else 1 for g in b.games) for b in (sal, sid)}
    checks.eq(lines, want, "the set's score is the sum of its games")
    checks.eq([p["games_done"] for p in over["pairings"]], [2], "one pairing, both games done")


async def scenarios(checks, cluster):
    step(f"a Swiss of {BOTS} bots over {ROUNDS} rounds, a node killed in round(s) "
         f"{KILL_ROUNDS}" + (f" and at round {END_KILL_ROUND}'s end" if END_KILL_ROUND else ""))
    await swiss_with_kills(checks, cluster)
    if not SOAK:
        print("make test: the Swiss of 6; the Castle Danger set across nodes runs in make soak "
              "(RAMPARTS_SOAK=1; on one server, test_tournaments.py plays one)")
        return
    step("Castle Danger's set of 2 across two nodes")
    await castle_danger_set(checks, cluster)


async def main():
    await run_test(arguments(), scenarios, WATCHDOG_S)


if __name__ == "__main__":
    asyncio.run(main())
