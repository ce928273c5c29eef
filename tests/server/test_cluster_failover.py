"""The cluster behind HAProxy losing parts (docs/cluster.md): three `ramparts serve` nodes on
one PostgreSQL database, HAProxy in front with deploy/haproxy.cfg (clusterlib.py), players and
a spectator connected through HAProxy, who reconnect with their tokens when their connection
drops and re-open the game from the last version they saw.

- A node killed with kill -9 mid-game: its clients reconnect through HAProxy to another node
  and the game goes on to its end.
- A rolling restart: each node in turn drained (HAProxy's admin socket, then SIGTERM: exit 0,
  its sockets closed with 1001) and started again while the game is played; no request is
  answered with an error.
- PostgreSQL stopped under the cluster: a move is refused with `unavailable`, never
  acknowledged; once it is back the game goes on.

- Client addresses: the nodes (`--trusted-proxy 127.0.0.1 --max-per-ip 8` here) count each
  WebSocket under the client's address that HAProxy forwards (`option forwardfor`), not
  under HAProxy's: one client address is refused (429) once every node holds 8 of its
  sockets, a header it writes itself does not get it past, another address is still let in.

After each game: every acknowledged move is stored once at its ply, as played, and every
frame each connection received passes the referee (server_frames_check). `make test` runs the
kill -9; `make soak` (RAMPARTS_SOAK=1) all three. Skips (exit 77) only where PostgreSQL or
HAProxy is not installed."""

import asyncio
import os
import random
import time

from clusterlib import Front, Reconnecting, run_test
from rsclient import arguments, raw_upgrade, run_checker

SOAK = os.environ.get("RAMPARTS_SOAK", "0") not in ("", "0")
REFUSALS_MAX = 300  # about a minute of `unavailable` while PostgreSQL restarts
# The whole run's bound (ctest's is 1800 s): past it the test fails with the nodes' logs and
# the step it was in, rather than being killed silently.
WATCHDOG_S = 1200 if SOAK else 600
PER_ADDRESS = 8  # --max-per-ip on each node: far above the 3 people of a scenario


def step(what):
    """Say which step runs (on stdout, which ctest shows when the test fails)."""
    print(f"[{time.strftime('%H:%M:%S')}] {what}", flush=True)


class Seat(Reconnecting):
    """One person (or spectator) through HAProxy, reconnecting when the connection drops and
    opening its game again from the last version it saw."""

    def __init__(self, front, label, viewer):
        super().__init__(front, label)
        self.viewer = viewer  # the seat, or -2 for a spectator (the checker's word)
        self.game = None
        self.errors = []  # error replies to requests

    def last_v(self):
        vs = [m["v"] for c in self.clients for m in c.messages
              if m.get("game") == self.game and m["t"] in ("snapshot", "update")]
        return max(vs, default=0)

    async def connected(self, welcome):
        if self.game:
            await self.client.request({"t": "open", "game": self.game, "v": self.last_v()},
                                      "snapshot")

    async def request(self, msg, reply_type):
        reply = await self.call(lambda c: c.request(msg, reply_type))
        if reply["t"] == "error":
            self.errors.append(reply)
        return reply


async def new_game(alice, bob, carol, kind="walls-and-armies", options=None):
    created = await alice.request({"t": "create", "type": kind, "seats": ["me", "open"],
                                   "options": options or {}}, "created")
    game = created["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    await carol.request({"t": "open", "game": game}, "snapshot")
    for s in (alice, bob, carol):
        s.game = game
    return game


async def play(game, seats, watchers, rng, acked, moves):
    """Up to `moves` moves (fewer if the game ends); acked gets (ply, seat, text) per ack.
    A move refused as unavailable (the database down) is tried again, for at most
    REFUSALS_MAX times in a row: a move refused for good fails the test, never hangs it."""
    played = 0
    ply = len(acked)
    state = None
    refusals = []
    while played < moves:
        state = await seats[0].call(lambda c: c.state_at(game, ply=ply))
        if state["status"] != "live":
            return state
        seat = state["to_move"]
        mine = await seats[seat].call(lambda c: c.state_at(game, ply=ply))
        text = rng.choice(mine["legal"])["text"]
        reply = await seats[seat].request({"t": "move", "game": game, "ply": ply, "move": text},
                                          "ack")
        if reply["t"] != "ack":
            refusals.append(reply)
            if len(refusals) >= REFUSALS_MAX:
                raise RuntimeError(f"game {game}: the move at ply {ply} refused "
                                   f"{len(refusals)} times; the last refusals: {refusals[-3:]}")
            await asyncio.sleep(0.2)  # unavailable: ask again in a moment
            continue
        refusals = []
        acked.append((ply, seat, text))
        played += 1
        ply += 1
        for s in list(seats.values()) + list(watchers):
            state = await s.call(lambda c: c.state_at(game, ply=ply))
    return state


async def finish_and_check(checks, args, cluster, label, game, seats, watchers, rng, acked):
    step(f"{label}: game {game} played to its end from ply {len(acked)}")
    final = await play(game, seats, watchers, rng, acked, 100000)
    checks.eq(final["status"], "over", f"{label}: the game ends")
    rows = cluster.pg.query(f"SELECT ply, seat FROM moves WHERE game_id = {game} ORDER BY ply")
    stored = [(int(p), int(s)) for p, s in rows]
    checks.eq(stored, [(p, s) for p, s, _ in acked],
              f"{label}: every acknowledged move stored once, at its ply, nothing else")
    for seat, s in seats.items():  # the moves as played: each seat's own notation
        snap = await s.call(lambda c: c.request({"t": "open", "game": game, "v": 0}, "snapshot"))
        texts = {m["ply"]: m.get("move") for m in snap.get("missed", []) if m["seat"] == seat}
        mine = [(p, t) for p, st, t in acked if st == seat and p >= len(acked) - 200]
        checks.eq([(p, texts.get(p)) for p, _ in mine], mine,
                  f"{label}: seat {seat}'s moves stored as played")
    everyone = list(seats.values()) + list(watchers)
    for s in everyone:  # a connection closed by a drain after its last read reconnects here
        await s.call(lambda c: c.drain(0.1))
    viewers = [(c, s.viewer) for s in everyone for c in s.clients]
    run_checker(checks, args.checker, cluster.nodes[0], game, viewers, cluster.dir, label)


async def upgrade_from(cluster, source, forwarded=()):
    """A WebSocket through HAProxy from `source`, with X-Forwarded-For lines of its own."""
    return await raw_upgrade(cluster.front_port, source, forwarded)


async def client_addresses(checks, cluster):
    step("client addresses through HAProxy")
    opened, refused = [], None
    for _ in range(PER_ADDRESS * len(cluster.nodes) + 1):  # leastconn fills every node
        ws = await upgrade_from(cluster, "127.0.0.2")
        if isinstance(ws, int):
            refused = ws
            break
        opened.append(ws)
    checks.eq(refused, 429, f"127.0.0.2 is refused past {PER_ADDRESS} sockets a node "
              f"(after {len(opened)})")
    checks.ok(len(opened) >= PER_ADDRESS, f"127.0.0.2 had at least {PER_ADDRESS} ({len(opened)})")
    logs = [n.log() for n in cluster.nodes]
    checks.ok(any(f"refused a WebSocket from 127.0.0.2: {PER_ADDRESS} connections" in log
                  for log in logs), "a node logs the refusal under the client's address")
    spoofed = await upgrade_from(cluster, "127.0.0.2", forwarded=["127.0.0.9"])
    checks.eq(spoofed, 429, "a header the client writes itself does not get it past the limit")
    other = await upgrade_from(cluster, "127.0.0.3")
    checks.ok(not isinstance(other, int), f"another client address is let in (got {other})")
    for ws in opened + ([] if isinstance(other, int) else [other]):
        ws.close()


async def people(front, label):
    seats = {0: Seat(front, f"{label}-alice", 0), 1: Seat(front, f"{label}-bob", 1)}
    carol = Seat(front, f"{label}-carol", -2)
    for s in (seats[0], seats[1], carol):
        await s.connect()
    return seats, carol


def busiest(cluster):
    """The node with the most connections now (its /healthz)."""
    counts = []
    for i, n in enumerate(cluster.nodes):
        status, health = n.http_json("/healthz")
        counts.append((health.get("connections", 0), i))
    return max(counts)


async def game_in_play(checks, args, cluster, seats, carol, rng, moves, label):
    """A Walls and Armies game with `moves` moves played and still live. A deal with few walls
    can end the game within a few random moves (the deal is the server's secret): that game
    is checked to its end and another begun. Returns (game, acked, state)."""
    for _ in range(8):
        game, acked = await new_game(seats[0], seats[1], carol), []
        state = await play(game, seats, [carol], rng, acked, moves)
        if state["status"] == "live":
            return game, acked, state
        await finish_and_check(checks, args, cluster, f"{label}, game {game} (ended early)",
                               game, seats, [carol], rng, acked)
    raise RuntimeError(f"{label}: eight games in a row ended within {moves} moves")


async def kill9(checks, args, cluster, front, rng):
    seats, carol = await people(front, "kill9")
    game, acked, _ = await game_in_play(checks, args, cluster, seats, carol, rng, 6, "kill -9")
    connections, victim = busiest(cluster)
    checks.ok(connections > 0, f"node{victim + 1} serves some of the players ({connections})")
    step(f"kill -9: node{victim + 1} killed at ply {len(acked)} of game {game}")
    cluster.kill9(victim)
    await play(game, seats, [carol], rng, acked, 6)
    moved = sum(s.reconnects for s in (seats[0], seats[1], carol))
    checks.ok(moved > 0, f"clients of the killed node reconnected ({moved})")
    await finish_and_check(checks, args, cluster, "kill -9", game, seats, [carol], rng, acked)
    cluster.restart(victim)


async def rolling_restart(checks, args, cluster, front, rng):
    seats, carol = await people(front, "rolling")
    everyone = (seats[0], seats[1], carol)
    game, acked = None, []
    for i in range(len(cluster.nodes)):
        # Each node is drained with a game in play: Castle Danger with its turn limit (CD-16),
        # a long game; random moves can still end one early (the deal is the server's secret),
        # and then it is checked and another begun.
        state = None
        while state is None or state["status"] != "live":
            if game is not None and state is not None:
                await finish_and_check(checks, args, cluster, f"rolling restart, game {game}",
                                       game, seats, [carol], rng, acked)
            if state is not None or game is None:
                game, acked = await new_game(seats[0], seats[1], carol, "castle-danger",
                                             {"turn-limit": 60}), []
            state = await play(game, seats, [carol], rng, acked, 2)
        step(f"rolling restart: node{i + 1} drained at ply {len(acked)} of game {game}")
        before = len(acked)
        checks.eq(await asyncio.to_thread(cluster.drain_and_stop, i), 0, f"node{i + 1} drains and exits 0")
        state = await play(game, seats, [carol], rng, acked, 4)
        checks.ok(len(acked) > before,
                  f"game {game} goes on after node{i + 1} stopped ({len(acked) - before} moves)")
        cluster.restart(i)
    checks.eq([e for s in everyone for e in s.errors], [],
              "no request got an error while the nodes restarted one by one")
    checks.ok(sum(s.reconnects for s in everyone) > 0, "clients moved between nodes")
    await finish_and_check(checks, args, cluster, f"rolling restart, game {game}", game, seats,
                           [carol], rng, acked)


async def postgres_restart(checks, args, cluster, front, rng):
    seats, carol = await people(front, "pg")
    game, acked, state = await game_in_play(checks, args, cluster, seats, carol, rng, 5,
                                            "PostgreSQL restart")
    step(f"PostgreSQL stopped at ply {len(acked)} of game {game}")
    cluster.pg.stop("immediate")
    seat = state["to_move"]
    mine = await seats[seat].call(lambda c: c.state_at(game, ply=len(acked)))
    text = rng.choice(mine["legal"])["text"]
    refused = await seats[seat].request({"t": "move", "game": game, "ply": len(acked),
                                         "move": text}, "ack")
    checks.eq((refused["t"], refused.get("code")), ("error", "unavailable"),
              "a move while PostgreSQL is down is refused as unavailable")
    cluster.pg.start()
    step("PostgreSQL started again")
    await finish_and_check(checks, args, cluster, "PostgreSQL restart", game, seats, [carol],
                           rng, acked)


async def scenarios(checks, args, cluster):
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "25")))
    front = Front(cluster)
    await client_addresses(checks, cluster)
    await kill9(checks, args, cluster, front, rng)
    if SOAK:
        await rolling_restart(checks, args, cluster, front, rng)
        await postgres_restart(checks, args, cluster, front, rng)
    else:
        print("make test: the kill -9 only; the rolling restart and the PostgreSQL restart "
              "run in make soak (RAMPARTS_SOAK=1)")


async def main():
    args = arguments()
    await run_test(args, lambda checks, cluster: scenarios(checks, args, cluster), WATCHDOG_S,
                   extra=["--max-per-ip", str(PER_ADDRESS)])


asyncio.run(main())
