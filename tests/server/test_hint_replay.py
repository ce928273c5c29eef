"""The messages the browser client added to the protocol: `hint` (a suggested move for
the seat to act, only in games against the AI, answered to the asker alone),
GET /api/v1/games/ID/replay (a finished game ply by ply, as one viewer was shown it; refused
while the game is live) and `history` (the same frames for the asker's own viewer, in a live
game too: each must be exactly the view that viewer was sent at that ply). The spectator's replay is checked frame by frame against the
referee with the frames checker, as if the spectator had been sent each position."""

import asyncio
import json
import os
import random

from rsclient import Checks, Server, arguments, guest, run_checker


async def hints(checks, server, rng):
    me = await guest(server, "me")
    other = await guest(server, "other")
    # A game of Walls and Armies against random play can end within a few moves (the server's
    # seeds are secret, so the deal cannot be chosen): a new game until one reaches our turn.
    for _ in range(20):
        created = await me.request({"t": "create", "type": "walls-and-armies",
                                    "seats": ["me", "ai:random"]}, "created")
        game = created["game"]
        state = await me.state_at(game, ply=0)
        while state["status"] == "live" and state["to_move"] != 0:
            state = await me.state_at(game, ply=state["ply"] + 1)
        if state["status"] == "live":
            break
    checks.eq(state["status"], "live", "a game against the AI reaches the player's turn")
    refused = await other.request({"t": "hint", "game": game}, "error")
    checks.eq(refused.get("code"), "not-seated", "a hint is refused to someone without a seat")
    stale = await me.request({"t": "hint", "game": game, "ply": state["ply"] + 5}, "error")
    checks.eq(stale.get("code"), "stale", "a hint for another ply is refused as stale")
    hint = await me.request({"t": "hint", "game": game, "ply": state["ply"]}, "hint")
    checks.eq(hint["t"], "hint", f"the seat to move gets a hint: {hint}")
    checks.ok(hint.get("move") in [m["text"] for m in state["legal"]],
              f"the hint is one of the seat's legal moves: {hint.get('move')}")
    checks.eq(hint.get("ply"), state["ply"], "the hint names the ply it answers")
    await other.drain(0.2)
    checks.ok(all(m.get("t") != "hint" for m in other.messages), "nobody else hears the hint")
    ack = await me.request({"t": "move", "game": game, "ply": state["ply"],
                            "move": hint["move"]}, "ack")
    checks.eq(ack["t"], "ack", "the hinted move is played")
    # Between people, no hints.
    a = await guest(server, "a")
    b = await guest(server, "b")
    pvp = (await a.request({"t": "create", "type": "castle-danger", "seats": ["me", "open"]},
                           "created"))["game"]
    await b.request({"t": "join", "game": pvp}, "joined")
    await a.state_at(pvp, ply=0)
    no = await a.request({"t": "hint", "game": pvp}, "error")
    checks.eq(no.get("code"), "not-allowed", "no hints in a game between people")
    early = server.http(f"/api/v1/games/{pvp}/replay")
    checks.eq(early[0], 409, "a live game cannot be replayed")
    for c in (me, other, a, b):
        await c.close()


async def replay(checks, server, args, rng):
    a = await guest(server, "alice")
    b = await guest(server, "bob")
    game = (await a.request({"t": "create", "type": "walls-and-armies",
                             "seats": ["me", "open"]}, "created"))["game"]
    await b.request({"t": "join", "game": game}, "joined")
    players = {0: a, 1: b}
    watcher = await guest(server, "watcher")
    await watcher.request({"t": "open", "game": game}, "snapshot")
    state = await a.state_at(game, ply=0)
    asked_live = False
    while state["status"] == "live":
        if state["ply"] == 3:  # a few moves in: no game of Walls and Armies ends sooner
            await live_history(checks, game, state["ply"], [a, b, watcher])
            asked_live = True
        mover = players[state["to_move"]]
        mine = await mover.state_at(game, ply=state["ply"])
        await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                             "move": rng.choice(mine["legal"])["text"]}, "ack")
        state = await a.state_at(game, ply=state["ply"] + 1)
    checks.ok(asked_live, "the history of the game was asked for while it was live")
    status, data = server.http_json(f"/api/v1/games/{game}/replay?viewer=spectator")
    checks.eq(status, 200, "a finished game replays")
    frames = data.get("frames", [])
    checks.eq(len(frames), state["ply"] + 1, "one frame per ply, the start included")
    checks.eq([f["ply"] for f in frames], list(range(len(frames))), "frames in ply order")
    bad = server.http(f"/api/v1/games/{game}/replay?viewer=7")
    checks.eq(bad[0], 400, "a viewer that is not a seat is refused (400: a bad parameter)")
    status, seat0 = server.http_json(f"/api/v1/games/{game}/replay?viewer=0")
    checks.eq(seat0["frames"][0]["view"].get("seat"), 0,
              "seat 0's replay is seat 0's view")
    # The spectator's replay, position by position, holds to what the spectator may see.
    final = await a.state_at(game, ply=state["ply"])

    class Replayed:
        frames = []
    for f in frames:
        msg = {"t": "update", "game": game, "ply": f["ply"], "status": "over", "you": None,
               "to_move": None, "view": f["view"], "seed_hash": final["seed_hash"]}
        if f["ply"] > 0:
            msg["cause"] = {"kind": "move", "seat": f["seat"], "ply": f["ply"] - 1,
                            "events": f["events"]}
        Replayed.frames.append(json.dumps(msg))
    run_checker(checks, args.checker, server, game, [(Replayed, -2)], server.dir, "replay")
    await finished_history(checks, server, game, state["ply"], {"0": a, "1": b,
                                                                "spectator": watcher})
    for c in (a, b, watcher):
        await c.close()


def views_received(client, game):
    """The view each ply showed this client, from the snapshots and updates it was sent."""
    seen = {}
    for m in client.messages:
        if m.get("t") in ("snapshot", "update") and m.get("game") == game and "view" in m:
            seen[m["ply"]] = m["view"]
    return seen


async def live_history(checks, game, ply, clients):
    """Mid-game, each seat and a spectator ask for the game so far: one frame a ply, each the
    very view that asker was sent then (never more: a seat's earlier view, not today's)."""
    for client, viewer in zip(clients, (0, 1, "spectator")):
        await client.drain(0.2)
        got = await client.request({"t": "history", "game": game}, "history")
        checks.eq(got.get("viewer"), viewer, f"history is told from the asker's viewer {viewer}")
        checks.eq([f["ply"] for f in got["frames"]], list(range(ply + 1)),
                  f"{viewer}: one frame per ply so far, in order")
        checks.eq(got.get("more"), False, "a short game comes in one page")
        seen = views_received(client, game)
        same = [f["ply"] for f in got["frames"] if seen.get(f["ply"]) == f["view"]]
        checks.eq(same, sorted(seen), f"{viewer}: every frame is the view sent at that ply")
        tail = await client.request({"t": "history", "game": game, "from": ply}, "history")
        checks.eq([f["ply"] for f in tail["frames"]], [ply], "'from' starts the page there")
        bad = await client.request({"t": "history", "game": game, "from": ply + 1}, "error")
        checks.eq(bad.get("code"), "bad-message", "a 'from' past the current ply is refused")


async def finished_history(checks, server, game, ply, clients):
    """Once the game is over, `history` is the replay API's frames for the asker's viewer."""
    for viewer, client in clients.items():
        got = await client.request({"t": "history", "game": game}, "history")
        status, replayed = server.http_json(f"/api/v1/games/{game}/replay?viewer={viewer}")
        checks.eq(got["frames"], replayed["frames"][:100],
                  f"{viewer}: history of a finished game is its replay")
        checks.eq(got["more"], ply + 1 > 100, "'more' says whether frames are left")


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "5")))
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await hints(checks, server, rng)
        await replay(checks, server, args, rng)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
