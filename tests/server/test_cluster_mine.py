""""My games" and a correspondence game lost on time on the three-node cluster (issue 41;
tests/server/clusterlib.py), every node given the same test clock (docs/server.md):
- Alice on node 1 and Bob on node 2 play a rated correspondence game; Bob watches his list on
  node 2 and is pushed it when Alice moves on node 1 (it becomes his turn); Carol, on node 3,
  never sees their game in hers.
- Bob plays one turn, then never comes back; the clock is advanced days: the game is lost
  on time exactly once (one ending told to Alice, the result says time, each rating counts
  one game), and it leaves Alice's list. Skipped (77) without PostgreSQL or HAProxy."""

import asyncio
import os
import sys

from clusterlib import SKIP, Cluster, missing_component
from rsclient import PASSWORD, Checks, Client, arguments

DAY_MS = 86400000
GAME = "castle-danger"


async def account(node, label, name):
    c = Client(node, label)
    await c.connect()
    await c.hello()
    reply = await c.request({"t": "register", "name": name, "password": PASSWORD},
                            "registered")
    assert reply["t"] == "registered", reply
    return c


def ids(m):
    return [g["game"] for g in m["games"]]


def rating_games(node, name):
    status, profile = node.http_json(f"/api/v1/players/{name}")
    return profile.get("ratings", {}).get(GAME, {}).get("games") if status == 200 else None


async def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"SKIP: {why}")
        sys.exit(SKIP)
    checks = Checks()
    cluster = Cluster(args.ramparts, nodes=3)
    clock = os.path.join(cluster.dir, "clock")
    cluster.extra += ["--test-clock", clock]
    cluster.start()
    try:
        n1, n2, n3 = cluster.nodes
        alice = await account(n1, "alice", "Alice")
        bob = await account(n2, "bob", "Bob")
        carol = await account(n3, "carol", "Carol")
        game = (await alice.request({"t": "create", "type": GAME, "seats": ["me", "open"],
                                     "rated": True,
                                     "clock": {"kind": "correspondence", "days": 1}},
                                    "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        state = await alice.state_at(game, ply=0)
        checks.eq(state["to_move"], 0, "Alice (seat 0) moves first")
        listed = await bob.request({"t": "mine"}, "mine")
        checks.eq((ids(listed), listed["waiting"]), ([game], 0),
                  "Bob's list on node 2: the game, not his turn")
        await alice.request({"t": "mine"}, "mine")
        theirs = await carol.request({"t": "mine"}, "mine")
        checks.eq(theirs["games"], [], "Carol's list on node 3 is empty")
        # Alice plays until it is Bob's turn, on node 1: Bob's list, on node 2, is pushed.
        while state["to_move"] == 0:
            mine = await alice.state_at(game, ply=state["ply"])
            await alice.request({"t": "move", "game": game, "ply": mine["ply"],
                                 "move": mine["legal"][0]["text"]}, "ack")
            state = await alice.state_at(game, ply=mine["ply"] + 1)
        pushed = await bob.expect(lambda m: m["t"] == "mine" and "id" not in m
                                  and m["waiting"] == 1, "Bob's list pushed from node 1's move")
        entry = pushed["games"][0]
        checks.ok(entry["your_turn"] and entry["seat"] == 1 and "deadline_ms" in entry,
                  f"his turn, with a deadline: {entry}")
        await alice.expect(lambda m: m["t"] == "mine" and "id" not in m and m["waiting"] == 0,
                           "Alice's list pushed too")
        # Bob plays a turn on node 2 and Alice another before Bob goes: a rated game lost
        # before both sides moved would change no rating (issue 49).
        for player, seat in ((bob, 1), (alice, 0)):
            while state["to_move"] == seat:
                mine = await player.state_at(game, ply=state["ply"])
                await player.request({"t": "move", "game": game, "ply": mine["ply"],
                                      "move": mine["legal"][0]["text"]}, "ack")
                state = await player.state_at(game, ply=mine["ply"] + 1)
        await bob.expect(lambda m: m["t"] == "mine" and "id" not in m and m["waiting"] == 1,
                         "Bob's list pushed again: his turn")
        await bob.close()  # never comes back
        with open(clock, "w") as f:
            f.write(str(3 * DAY_MS))
        # Told as an update, or as a snapshot when Alice's node reads the game again whole
        # (the node holding it now, Bob's after his turn, flagged it).
        over = await alice.expect(lambda m: m.get("game") == game
                                  and m["t"] in ("update", "snapshot")
                                  and m["status"] == "over", "the flag", timeout=300)
        checks.eq((over["result"]["reason"], over["result"]["returns"]), ("time", [1, 0]),
                  "Bob loses on time")
        gone = await alice.expect(lambda m: m["t"] == "mine" and "id" not in m
                                  and game not in ids(m), "the game leaves Alice's list")
        checks.eq(gone["waiting"], 0, "nothing waits for her")
        await alice.drain(3.0)  # leases change hands within these seconds
        endings = [m for m in alice.messages if m.get("game") == game
                   and m["t"] in ("update", "snapshot") and m["status"] == "over"]
        checks.eq(len({m["v"] for m in endings}), 1, "the ending is told once (one version)")
        checks.ok(sum(m["t"] == "update" for m in endings) <= 1, "and as one update at most")
        for node in (n1, n2, n3):
            status, summary = node.http_json(f"/api/v1/games/{game}")
            checks.eq((status, summary.get("result", {}).get("reason")), (200, "time"),
                      f"{node.port}: the stored result says time")
        checks.eq([rating_games(n3, n) for n in ("Alice", "Bob")], [1, 1],
                  f"each rating counts the game once: {n3.http_json('/api/v1/players/Alice')}")
        await carol.drain(0.5)
        checks.ok(all(game not in ids(m) for m in carol.messages if m["t"] == "mine"),
                  "Carol never saw it")
        for c in (alice, carol):
            await c.close()
        checks.ok(all(s == 0 for s in await asyncio.to_thread(cluster.stop)), "every node stops cleanly")
    finally:
        cluster.destroy()
    checks.finish()


asyncio.run(main())
