"""A person plays a whole game against the AI in one step (create with an "ai:LEVEL" seat),
with every frame checked against the referee afterwards; and while a strong AI is thinking
on its worker thread, other connections and games are answered first: the event loop
never waits for a search."""

import asyncio
import os
import random

from rsclient import Checks, Server, arguments, guest, run_checker


async def play_against_ai(checks, server, args, rng):
    me = await guest(server, "me")
    created = await me.request({"t": "create", "type": "walls-and-armies",
                                "seats": ["me", "ai:easy"]}, "created")
    checks.eq(created["t"], "created", "a game against the AI is created in one message")
    game = created["game"]
    state = await me.state_at(game, ply=0)
    checks.eq(state["status"], "live", "it starts at once")
    checks.eq(state["seats"][1]["kind"], "ai", "seat 1 is the AI")
    checks.eq(state["seats"][1].get("level"), "easy", "at the level asked for")
    moves = 0
    while state["status"] == "live" and moves < 300:
        if state["to_move"] == 0:
            choice = rng.choice(state["legal"])
            ack = await me.request({"t": "move", "game": game, "ply": state["ply"],
                                    "move": choice["text"]}, "ack")
            checks.eq(ack["t"], "ack", f"my move at ply {state['ply']}")
            moves += 1
        state = await me.state_at(game, ply=state["ply"] + 1)
    checks.eq(state["status"], "over", "the game against the AI ends")
    await me.drain(0.1)
    run_checker(checks, args.checker, server, game, [(me, 0)], server.dir, "vs AI")
    status, profile = server.http_json(f"/api/v1/players/{me.user['name']}")
    results = profile.get("vs_ai", {}).get("walls-and-armies", {}).get("easy", {})
    checks.eq(sum(results.get(k, 0) for k in ("won", "lost", "drawn")), 1,
              "the profile counts the result against the easy AI")
    await me.close()


async def responsive_while_ai_thinks(checks, server):
    """The hard AI moves first in Danger at the Walls (thinking 3 s a move: --ai-hard-ms); a
    ping and a move in another game sent right after must be answered before the AI's move
    arrives. Its iterations alone take a fraction of a second, which a loaded machine can
    spend before the ping is read."""
    watcher = await guest(server, "watcher")
    a = await guest(server, "a")
    b = await guest(server, "b")
    other = (await a.request({"t": "create", "type": "castle-danger",
                              "seats": ["me", "open"]}, "created"))["game"]
    await b.request({"t": "join", "game": other}, "joined")
    first = await a.state_at(other, ply=0)
    created = await watcher.request({"t": "create", "type": "danger-at-the-walls",
                                     "seats": ["ai:hard", "me"]}, "created")
    ai_game = created["game"]
    pong = await watcher.request({"t": "ping"}, "pong")
    checks.eq(pong["t"], "pong", "a ping is answered while the AI thinks")
    ack = await a.request({"t": "move", "game": other, "ply": 0,
                           "move": first["legal"][0]["text"]}, "ack")
    checks.eq(ack["t"], "ack", "another game's move is accepted while the AI thinks")
    ai_moved = [m for m in watcher.messages if m.get("game") == ai_game and m["t"] == "update"
                and m.get("cause", {}).get("kind") == "move"]
    checks.eq(ai_moved, [], "... and all that before the AI's move arrives")
    state = await watcher.state_at(ai_game, ply=1)
    checks.eq(state["cause"]["seat"] if "cause" in state else 0, 0,
              "then the AI's move arrives")
    checks.ok("move" not in state.get("cause", {}),
              "the AI's notation is not shown to its opponent")
    for c in (watcher, a, b):
        await c.close()


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "5")))
    server = Server(args.ramparts, extra=["--rate", "100000", "--ai-hard-ms", "3000"]).start()
    try:
        await play_against_ai(checks, server, args, rng)
        await responsive_while_ai_thinks(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
