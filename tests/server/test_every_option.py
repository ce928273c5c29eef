"""Every game, every player count and every option combination that `create` accepts is
created, played a few moves, survives a kill -9 of the server, is played to its end and is
served by every HTTP endpoint (issue 23: a solo Rush the Wall game, its neutral clan only
implied, was stored with options that do not load: gone after a restart, and its finished
replay a 500). The combinations come from GET /api/v1/types: each option absent, at its
ends and its default (every value of a small range), each choice by its word. A create the
game refuses must be refused with bad-option or bad-seats and change nothing.

In `make test` the first accepted combination of each game and player count is played to
its end by the rules and the others resign after the restart; with RAMPARTS_SOAK=1 every one
is played to its end."""

import asyncio
import itertools
import os
import random
import subprocess

from rsclient import PASSWORD, Checks, Client, Server, arguments, guest

SOAK = os.environ.get("RAMPARTS_SOAK") == "1"
MAX_MOVES = 3000  # a game without a turn limit (Castle Danger's default) resigns after these
ABSENT = object()


def option_values(o):
    """The values a combination tries for option o: absent, then its words or numbers."""
    if o["kind"] == "choice":
        return [ABSENT] + o["choices"].split("|")
    lo, hi = o["min"], o["max"]
    values = range(lo, hi + 1) if hi - lo <= 5 else sorted({lo, lo + 1, o["default"], hi})
    return [ABSENT] + list(values)


def combinations(types):
    """(type, players, options) for every game, player count and option combination."""
    for t in types:
        names = [o["name"] for o in t["options"]]
        for players in range(t["min_players"], t["max_players"] + 1):
            for values in itertools.product(*(option_values(o) for o in t["options"])):
                options = {n: v for n, v in zip(names, values) if v is not ABSENT}
                yield t["type"], players, options


class Game:
    def __init__(self, type_, players, options, game_id, full):
        self.type, self.players, self.options = type_, players, options
        self.id = game_id
        self.full = full  # played to its end by the rules
        self.label = f"{type_} players={players} {options}"
        self.ply = self.v = None


def my_turn_or_over(game, after_ply):
    def ok(m):
        return (m.get("game") == game and m["t"] in ("snapshot", "update")
                and m["status"] != "open" and m["ply"] > after_ply - 1
                and (m["status"] != "live" or (m["to_move"] == 0 and "legal" in m)))
    return ok


async def play(checks, client, game, rng, moves):
    """Seat 0 plays up to `moves` random legal moves (the AIs answer between); returns the
    last state seen."""
    first = my_turn_or_over(game.id, 0)
    latest = client.latest(game.id)
    state = latest if latest and first(latest) else \
        await client.expect(first, f"{game.label}: its turn")
    for _ in range(moves):
        if state["status"] != "live":
            break
        move = rng.choice(state["legal"])["text"]
        sent_at = len(client.messages)  # the update may come before the ack: look from here
        ack = await client.request({"t": "move", "game": game.id, "ply": state["ply"],
                                    "move": move}, "ack")
        if not checks.eq(ack["t"], "ack", f"{game.label}: {move} at ply {state['ply']}"):
            print(ack)
            break
        client.cursor = sent_at
        state = await client.expect(my_turn_or_over(game.id, state["ply"] + 1),
                                    f"{game.label}: its turn after ply {state['ply']}")
    return state


def served_over_http(checks, server, game, name, args):
    """Every endpoint serves the finished game."""
    status, summary = server.http_json(f"/api/v1/games/{game.id}")
    checks.eq((status, summary.get("status")), (200, "over"), f"{game.label}: its summary")
    status, _, record = server.http(f"/api/v1/games/{game.id}/record")
    checks.eq(status, 200, f"{game.label}: its record")
    path = os.path.join(server.dir, f"game-{game.id}.rec")
    with open(path, "w") as f:
        f.write(record)
    r = subprocess.run([args.ramparts, "replay", path], capture_output=True, text=True)
    checks.ok(r.returncode == 0, f"{game.label}: ramparts replay verifies it: {r.stderr}")
    for viewer in ["spectator"] + [str(s) for s in range(game.players)]:
        status, replay = server.http_json(f"/api/v1/games/{game.id}/replay?viewer={viewer}")
        checks.ok(status == 200 and len(replay.get("frames", [])) == summary.get("ply", -1) + 1,
                  f"{game.label}: its replay for {viewer} ({status})")
    status, mine = server.http_json(f"/api/v1/players/{name}/games")
    checks.ok(status == 200 and any(g["id"] == game.id for g in mine),
              f"{game.label}: in its player's finished games")


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "23")))
    # Every combination is kept unfinished through the kill -9, most against the computer: more
    # at once than one player may have by default (--max-ai-games; test_limits.py tests it).
    server = Server(args.ramparts, extra=["--rate", "100000", "--max-ai-games", "100000",
                                          "--max-ai-games-per-ip", "100000"]).start()
    try:
        me = await guest(server, "player")
        registered = await me.request({"t": "register", "name": "Everyone",
                                       "password": PASSWORD}, "registered")
        checks.eq(registered["t"], "registered", "the player registers")
        _, types = server.http_json("/api/v1/types")
        games, refused, seen = [], 0, set()
        for type_, players, options in combinations(types):
            seats = ["me"] + ["ai:random"] * (players - 1)
            r = await me.request({"t": "create", "type": type_, "seats": seats,
                                  "options": options}, "created")
            label = f"{type_} players={players} {options}"
            if r["t"] == "error":
                checks.ok(r["code"] in ("bad-option", "bad-seats"),
                          f"{label}: refused as bad-option or bad-seats: {r}")
                refused += 1
                continue
            full = SOAK or (type_, players) not in seen
            seen.add((type_, players))
            game = Game(type_, players, options, r["game"], full)
            games.append(game)
            state = await play(checks, me, game, rng, 3)
            game.ply, game.v = state["ply"], state["v"]
            # A connection watches at most 32 games: close it (its AIs play on unwatched).
            await me.request({"t": "close", "game": game.id}, "closed")
            me.messages, me.frames, me.cursor = [], [], 0
        checks.ok(len(games) > 40, f"{len(games)} combinations accepted, {refused} refused")
        server.kill9()
        server.start()
        back = Client(server, "player")
        await back.connect()
        await back.hello(me.token)
        for game in games:
            snap = await back.request({"t": "open", "game": game.id}, "snapshot")
            checks.eq((snap["t"], snap.get("ply"), snap.get("v")), ("snapshot", game.ply, game.v),
                      f"{game.label}: resumed after kill -9 as it was")
            if snap["t"] != "snapshot" or snap["status"] != "live":
                continue
            state = await play(checks, back, game, rng, MAX_MOVES if game.full else 0)
            if state["status"] == "live":
                done = await back.request({"t": "resign", "game": game.id}, "done")
                checks.eq(done["t"], "done", f"{game.label}: resigns")
            elif game.full:
                checks.eq(state["result"]["reason"], "rules", f"{game.label}: ends by the rules")
            await back.request({"t": "close", "game": game.id}, "closed")
            again = await back.request({"t": "open", "game": game.id}, "snapshot")
            checks.eq((again["t"], again.get("status")), ("snapshot", "over"),
                      f"{game.label}: a finished game opens")
            await back.request({"t": "close", "game": game.id}, "closed")
            served_over_http(checks, server, game, "Everyone", args)
            back.messages, back.frames, back.cursor = [], [], 0
        await asyncio.to_thread(server.stop)
        server.start()
        for game in games:
            status, summary = server.http_json(f"/api/v1/games/{game.id}/replay")
            checks.eq(status, 200, f"{game.label}: replayed after another restart")
        await back.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
