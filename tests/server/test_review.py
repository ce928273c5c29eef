"""The review over the server (issue 42, docs/review.md, docs/server-protocol.md): a finished
game's review is made on an AI thread, answered as `review` and stored, so asking again (after a
restart, with another budget) gives the stored one and GET /api/v1/games/ID/review serves it;
it has the very numbers `ramparts review --json` gives for the game's record and budget; a live
game is refused, except a player's own past moves against the computer; the bounds (one
pending review a user, four in all) answer `busy`."""

import asyncio
import json
import os
import random
import subprocess
import tempfile

from rsclient import Checks, Server, arguments, guest, play_out

BUDGET = "iters=60"


async def finished_game(checks, server, rng):
    """Two guests play Danger at the Walls to its end: (creator, joiner, game)."""
    a = await guest(server, "a")
    b = await guest(server, "b")
    g = (await a.request({"t": "create", "type": "danger-at-the-walls",
                          "seats": ["me", "open"]}, "created"))["game"]
    await b.request({"t": "join", "game": g}, "joined")
    final = await play_out(checks, g, {0: a, 1: b}, rng, label="review game")
    checks.eq(final["status"], "over", "the game to review is over")
    return a, b, g


def terminal_review(checks, ramparts, server, g, seat, budget):
    status, _, record = server.http(f"/api/v1/games/{g}/record")
    checks.eq(status, 200, "the finished game's record")
    with tempfile.NamedTemporaryFile("w", suffix=".rec", delete=False) as f:
        f.write(record)
    try:
        out = subprocess.run([ramparts, "review", f.name, "--seat", str(seat), "--json",
                              "--budget", budget], capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    return json.loads(out.stdout)


async def finished(checks, args, server, rng):
    a, b, g = await finished_game(checks, server, rng)
    status, body = server.http_json(f"/api/v1/games/{g}/review?seat=0")
    checks.eq((status, body.get("error")), (404, "not-reviewed"), "no review before one is asked")
    reply = await a.request({"t": "review", "game": g}, "review")
    checks.eq((reply["t"], reply.get("game"), reply.get("seat")), ("review", g, 0),
              f"the creator's own seat is reviewed: {str(reply)[:200]}")
    review = reply.get("review") or {}
    decisions = [p for p in review.get("plies", []) if "decision" in p]
    checks.ok(review.get("type") == "danger-at-the-walls" and review.get("seat") == 0
              and decisions and review.get("over") is True,
              f"the review's JSON (docs/review.md): {str(review)[:200]}")
    checks.eq(review.get("budget"), "iters=7000,bias=1," + BUDGET, "made at the server's budget")
    status, stored = server.http_json(f"/api/v1/games/{g}/review?seat=0")
    checks.eq((status, stored), (200, review), "GET .../review serves the stored review")
    terminal = terminal_review(checks, args.ramparts, server, g, 0, BUDGET)
    checks.eq(terminal, review, "the terminal gives the same numbers for the record and budget")
    other = await b.request({"t": "review", "game": g, "seat": 0}, "review")
    checks.eq(other.get("review"), review, "anyone may ask for a finished game's review")
    for msg, code, what in (({"t": "review", "game": g, "seat": 5}, "bad-seat", "a seat too many"),
                            ({"t": "review", "game": 999999}, "no-such-game", "no such game")):
        refused = await a.request(msg, "error")
        checks.eq(refused.get("code"), code, f"review of {what} is refused")
    watcher = await guest(server, "watcher")
    refused = await watcher.request({"t": "review", "game": g}, "error")
    checks.eq(refused.get("code"), "bad-seat", "no seat given and none of one's own: bad-seat")
    return g, review


async def live(checks, server):
    a = await guest(server, "people-a")
    b = await guest(server, "people-b")
    g = (await a.request({"t": "create", "type": "castle-danger", "seats": ["me", "open"]},
                         "created"))["game"]
    await b.request({"t": "join", "game": g}, "joined")
    refused = await a.request({"t": "review", "game": g}, "error")
    checks.eq(refused.get("code"), "not-over", "a live game between people is not reviewed")
    status, body = server.http_json(f"/api/v1/games/{g}/review?seat=0")
    checks.eq((status, body.get("error")), (409, "not-over"), "nor served over HTTP")
    # Against the computer: one's own past moves, the plies so far.
    me = await guest(server, "solo")
    g = (await me.request({"t": "create", "type": "danger-at-the-walls",
                           "seats": ["me", "ai:random"]}, "created"))["game"]
    state = await me.state_at(g, ply=0)
    for _ in range(3):
        while state["status"] == "live" and state["to_move"] != 0:
            state = await me.state_at(g, ply=state["ply"] + 1)
        if state["status"] != "live":
            break
        ack = await me.request({"t": "move", "game": g, "ply": state["ply"],
                                "move": state["legal"][0]["text"]}, "ack")
        checks.eq(ack["t"], "ack", "a move against the computer")
        state = await me.state_at(g, ply=state["ply"] + 1)
    if state["status"] == "live":
        mine = await me.request({"t": "review", "game": g}, "review")
        review = mine.get("review") or {}
        checks.ok(review.get("over") is False and
                  any("decision" in p for p in review.get("plies", [])),
                  f"one's own past moves against the computer: {str(mine)[:200]}")
        checks.ok(all("decision" not in p or p["actor"] == 0 for p in review.get("plies", [])),
                  "only one's own decisions are judged")
        refused = await me.request({"t": "review", "game": g, "seat": 1}, "error")
        checks.eq(refused.get("code"), "not-over", "the computer's seat is not reviewed live")
    else:
        checks.ok(False, "the game against random play ended within three moves")


async def from_store(checks, args, server, g, review):
    """A restarted server with another budget answers the stored review: made once."""
    again = Server(args.ramparts, workdir=server.dir,
                   extra=["--review-budget", "iters=70"]).start()
    try:
        c = await guest(again, "later")
        reply = await c.request({"t": "review", "game": g, "seat": 0}, "review")
        checks.eq(reply.get("review"), review, "a second request is answered from the store")
    finally:
        checks.eq(await asyncio.to_thread(again.stop), 0, "the restarted server stops cleanly")


async def busy(checks, args, server, g):
    """Reviews that take long: a second one from the same user, and a fifth in all, are busy."""
    slow = Server(args.ramparts, workdir=server.dir,
                  extra=["--review-budget", "iters=1000000"]).start()
    try:
        users = [await guest(slow, f"u{i}") for i in range(5)]
        for u in users[:4]:
            await u.send({"t": "review", "game": g, "seat": 1, "id": "first"})
        for u in users[:4]:  # a pong after it: the review was taken in before
            await u.request({"t": "ping"}, "pong")
        again = await users[0].request({"t": "review", "game": g, "seat": 1}, "error")
        checks.eq(again.get("code"), "busy", "a second pending review of one user is busy")
        fifth = await users[4].request({"t": "review", "game": g, "seat": 1}, "error")
        checks.eq(fifth.get("code"), "busy", "a fifth pending review in all is busy")
    finally:
        slow.kill9()  # its reviews would take minutes: nothing of them is kept


async def main():
    args = arguments()
    checks = Checks()
    rng = random.Random(42)
    server = Server(args.ramparts, extra=["--review-budget", BUDGET]).start()
    try:
        g, review = await finished(checks, args, server, rng)
        await live(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server stops cleanly")
    await from_store(checks, args, server, g, review)
    await busy(checks, args, server, g)
    checks.finish()


asyncio.run(main())
