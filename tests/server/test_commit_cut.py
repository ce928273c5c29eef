"""A commit whose connection to PostgreSQL is cut (issue 47), in a test build that cuts it on
demand (RAMPARTS_TEST_PG_COMMIT_CUT, src/server/store_pg.c): cut after every answer and
before the pipeline's sync, the commit has happened and the move is acknowledged; cut after
the COMMIT is sent and before its answer, the player is told the move may have been stored
(never "nothing was done"), the game as stored (the move in it) is sent to both players, and
the same move sent again is acknowledged as a duplicate ("dup": true), stored once. Found in the cluster's fault
soak, where such moves were stored while their players were told nothing was done. Skips
(exit 77) only where PostgreSQL is not installed."""

import asyncio
import os
import tempfile

from pgserver import server_or_skip
from rsclient import Checks, Server, arguments, guest


async def new_game(alice, bob):
    game = (await alice.request({"t": "create", "type": "king-of-danger", "seats": ["me", "open"],
                                 "clock": {"kind": "live", "initial_ms": 3600000}},
                                "created"))["game"]
    await bob.request({"t": "join", "game": game}, "joined")
    return game


async def turn(players, game, ply):
    """The seat to move at ply (at least) and its message with the moves."""
    state = await players[0].state_at(game, ply=ply)
    mover = players[state["to_move"]]
    return mover, await mover.state_at(game, ply=state["ply"])


def stored(pg, game, ply):
    return int(pg.query(f"SELECT count(*) FROM moves WHERE game_id = {game} AND ply = {ply}")[0][0])


def cut_next_commit(flag, when):
    with open(flag, "w") as f:
        f.write(when)


async def cut_before_sync(checks, pg, flag, players, game):
    mover, mine = await turn(players, game, 0)
    cut_next_commit(flag, "sync")
    ply = mine["ply"]
    ack = await mover.request({"t": "move", "game": game, "ply": ply,
                               "move": mine["legal"][0]["text"]}, "ack")
    checks.ok(not os.path.exists(flag), "the connection was cut at that commit (test build)")
    checks.eq(ack["t"], "ack", f"a commit whose every answer came is acknowledged ({ack})")
    checks.eq(stored(pg, game, ply), 1, "and its move is stored")
    mover, mine = await turn(players, game, ply + 1)
    again = await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                 "move": mine["legal"][0]["text"]}, "ack")
    checks.eq(again["t"], "ack", "the next move goes through on a new connection")
    return mine["ply"] + 1


async def cut_before_answer(checks, pg, flag, players, game, ply):
    mover, mine = await turn(players, game, ply)
    ply = mine["ply"]
    text = mine["legal"][0]["text"]
    cut_next_commit(flag, "answer")
    reply = await mover.request({"t": "move", "game": game, "ply": ply, "move": text}, "ack")
    checks.ok(not os.path.exists(flag), "the connection was cut at that commit (test build)")
    checks.eq((reply["t"], reply.get("code")), ("error", "unavailable"),
              "a commit without its answer is not acknowledged")
    message = reply.get("message", "")
    checks.ok("may have been stored" in message and "nothing was done" not in message,
              f"the player is told the move may have been stored, not that nothing was done "
              f"({message!r})")
    checks.eq(stored(pg, game, ply), 1, "PostgreSQL did commit it (the COMMIT was sent)")
    for p in players:
        seen = await p.state_at(game, ply=ply + 1)
        checks.ok(seen["ply"] >= ply + 1, f"{p.label} is sent the game as stored, the move in it")
    again = await mover.request({"t": "move", "game": game, "ply": ply, "move": text}, "ack")
    checks.eq((again["t"], again.get("dup")), ("ack", True),
              "the same move sent again is acknowledged as the one stored (dup), not played twice")
    checks.eq(stored(pg, game, ply), 1, "and is stored once")


async def scenario(checks, pg, ramparts):
    flag = os.path.join(tempfile.mkdtemp(prefix="ramparts-cut-"), "cut")
    server = Server(ramparts, extra=["--rate", "100000", "--store", pg.address],
                    env={"RAMPARTS_TEST_PG_COMMIT_CUT": flag}).start()
    try:
        alice = await guest(server, "alice")
        bob = await guest(server, "bob")
        game = await new_game(alice, bob)
        ply = await cut_before_sync(checks, pg, flag, [alice, bob], game)
        await cut_before_answer(checks, pg, flag, [alice, bob], game, ply)
        checks.ok("may have been stored" in server.log(), "the log says what the commit became")
        await alice.close()
        await bob.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")


async def main():
    args = arguments()
    pg = server_or_skip()
    checks = Checks()
    try:
        pg.init()
        await scenario(checks, pg, args.ramparts)
    finally:
        pg.destroy()
    checks.finish()


asyncio.run(main())
