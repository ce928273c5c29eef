"""Games at any pace (issue 41): a correspondence game whose player never comes back loses on
time, exactly once, when days pass on the server's test clock (`--test-clock FILE`, compiled
into test builds only: docs/server.md). Two games, one server, one database:

- the clock moves past the absent player's day while the server runs: the game ends on time,
  the record says so, each rating moves once, every watcher hears the ending once; a restart
  ends nothing again;
- across a restart: half the absent player's day passes, the server stops, time passes while
  it is down (charged to nobody: the server's downtime is no player's, docs/server.md), it
  starts again, and the rest of the day passes: the game ends on time, once, and a second
  restart changes nothing.
Also: a release build has no such option (checked when the tree's release binary exists)."""

import asyncio
import os
import subprocess

from rsclient import PASSWORD, Checks, Server, arguments, guest

DAY_MS = 86400000
GAME = "castle-danger"
CLOCK = {"kind": "correspondence", "days": 1}


class TestClock:
    """The file the server adds to real time: whole milliseconds, only ever growing."""

    def __init__(self, path):
        self.path, self.ms = path, 0
        self.set(0)

    def set(self, ms):
        self.ms = ms
        with open(self.path + ".new", "w") as f:
            f.write(f"{ms}\n")
        os.replace(self.path + ".new", self.path)  # the server never reads half a number

    def advance(self, ms):
        self.set(self.ms + ms)


async def registered(server, label, name):
    c = await guest(server, label)
    reply = await c.request({"t": "register", "name": name, "password": PASSWORD},
                            "registered")
    assert reply["t"] == "registered", reply
    return c


async def play_turn(player, game, seat, ply):
    """The player in `seat` plays its whole turn from `ply` (its first legal moves); the state
    after it, the other seat to move."""
    state = await player.state_at(game, ply=ply)
    while state["to_move"] == seat:
        await player.request({"t": "move", "game": game, "ply": state["ply"],
                              "move": state["legal"][0]["text"]}, "ack")
        state = await player.state_at(game, ply=state["ply"] + 1)
    return state


async def bobs_turn(checks, alice, bob, label):
    """A rated correspondence game where each has played a turn, Alice a second, and Bob is to
    move: a game lost on time before both sides moved would change no rating (issue 49)."""
    game = (await alice.request({"t": "create", "type": GAME, "seats": ["me", "open"],
                                 "clock": CLOCK, "rated": True}, "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    state = await play_turn(alice, game, 0, 0)
    state = await play_turn(bob, game, 1, state["ply"])
    state = await play_turn(alice, game, 0, state["ply"])
    checks.eq(state["clock"]["kind"], "correspondence", f"{label}: a correspondence clock")
    return game


def rating_games(server, name):
    _, profile = server.http_json(f"/api/v1/players/{name}")
    return profile.get("ratings", {}).get(GAME, {}).get("games")


def endings_logged(server, game):
    return server.log().count(f"game {game} over: time")


def check_lost_on_time(checks, server, game, label):
    status, summary = server.http_json(f"/api/v1/games/{game}")
    checks.eq((status, summary.get("status")), (200, "over"), f"{label}: the game is over")
    record = server.http(f"/api/v1/games/{game}/record")[2]
    checks.ok("[result over time" in record, f"{label}: the record ends on time: "
                                             f"{record[-200:]!r}")
    checks.eq(endings_logged(server, game), 1, f"{label}: the server ended it once")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"])
    clock = TestClock(os.path.join(server.dir, "clock"))
    server.extra += ["--test-clock", clock.path]
    server.start()
    try:
        alice = await registered(server, "alice", "Alice")
        bob = await registered(server, "bob", "Bob")
        running = await bobs_turn(checks, alice, bob, "running")
        await bob.close()  # Bob never comes back
        # A day less a minute: nothing happens yet.
        clock.advance(DAY_MS - 60000)
        await alice.drain(1.5)
        checks.ok(not [m for m in alice.messages if m.get("game") == running
                       and m.get("status") == "over"], "running: not over before the day ends")
        # Past the day: Bob loses on time, told once.
        clock.advance(2 * 60000)
        over = await alice.expect(lambda m: m.get("game") == running and m["t"] == "update"
                                  and m.get("status") == "over", "running: the flag falls")
        checks.eq((over["cause"]["kind"], over["result"]["returns"]), ("flag", [1, 0]),
                  "running: Bob's flag fell, Alice won")
        await alice.drain(1.5)
        checks.eq(len([m for m in alice.messages if m.get("game") == running
                       and m["t"] == "update" and m.get("status") == "over"]), 1,
                  "running: the ending is told once")
        check_lost_on_time(checks, server, running, "running")
        checks.eq((rating_games(server, "Alice"), rating_games(server, "Bob")), (1, 1),
                  "running: each rating moved once")
        await alice.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "running: the server drains")
        server.start()
        checks.eq(endings_logged(server, running), 1, "running: a restart ends nothing again")
        checks.eq((rating_games(server, "Alice"), rating_games(server, "Bob")), (1, 1),
                  "running: the ratings stay as they were after the restart")

        # A game whose absent player's day is cut by a restart.
        alice = await registered(server, "alice2", "Alice2")
        carol = await registered(server, "carol", "Carol")
        later = await bobs_turn(checks, alice, carol, "restart")
        await carol.close()
        await alice.close()
        clock.advance(DAY_MS // 2)
        await asyncio.sleep(0.5)
        checks.eq(await asyncio.to_thread(server.stop), 0, "restart: the server drains at half the day")
        clock.advance(6 * 3600000)  # while it is down: nobody's time
        server.start()
        watcher = await guest(server, "watcher")
        snap = await watcher.request({"t": "open", "game": later}, "snapshot")
        left = snap["clock"]["remaining_ms"][1]
        checks.ok(snap["status"] == "live" and DAY_MS // 2 - 120000 < left <= DAY_MS // 2,
                  f"restart: the game lives on with half the day left: {left}")
        clock.advance(DAY_MS // 2 + 60000)
        over = await watcher.expect(lambda m: m.get("game") == later and m["t"] == "update"
                                    and m.get("status") == "over", "restart: the flag falls")
        checks.eq(over["cause"]["kind"], "flag", "restart: Carol's flag fell")
        check_lost_on_time(checks, server, later, "restart")
        checks.eq((rating_games(server, "Alice2"), rating_games(server, "Carol")), (1, 1),
                  "restart: each rating moved once")
        await watcher.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "restart: the server drains again")
        server.start()
        checks.eq(endings_logged(server, later), 1, "restart: a second restart ends nothing")
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    # A release build has no test clock: the option is a usage error there (exit 2).
    release = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.ramparts))),
                           "build", "ramparts")
    if os.path.exists(release):
        r = subprocess.run([release, "serve", "--test-clock", clock.path, "--listen",
                            "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
        checks.eq(r.returncode, 2, f"the release build refuses --test-clock: {r.stderr[:200]}")
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
