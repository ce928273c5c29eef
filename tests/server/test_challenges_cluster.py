"""Challenges on a cluster of three servers (docs/cluster.md, "Challenges across servers"), on
one PostgreSQL database started by clusterlib.py, each client connected directly to its node:

- a challenge sent on node 1 reaches the target's connections on nodes 2 and 3, shows in his
  `mine` there, and is accepted on node 2: the game started with both seated, `paired` and
  `challenge-gone` to both users on every node;
- two connections of the target (nodes 2 and 3) accepting one challenge at once: exactly one
  game (one `done` with a game, the other `no-such-challenge`), in the database too;
- declined on node 3, the sender on node 1 is told; a setting turned off on node 2 refuses a
  challenge sent on node 1;
- expiry (a short --challenge-expiry): told once to each connection, though every node sweeps.

Skips (exit 77) only where PostgreSQL or HAProxy is not installed."""

import asyncio
import sys

from clusterlib import Cluster, missing_component
from rsclient import Checks, Client, arguments
from test_challenges import PASSWORD, anywhere, gone, op, send
from test_pools import Target

EXPIRY_S = 20  # long enough for a send and its answer on a loaded machine


async def on_node(node, label, name=None, login=False):
    c = Client(Target(node), label)
    await c.connect()
    if login:
        await c.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
        reply = await c.request({"t": "login", "name": name, "password": PASSWORD}, "welcome")
        assert reply["t"] == "welcome", reply
        return c
    await c.hello()
    if name:
        reply = await c.request({"t": "register", "name": name, "password": PASSWORD},
                                "registered")
        assert reply["t"] == "registered", reply
    return c


async def seen_and_accepted(checks, cluster, alice, bob, bob3):
    await bob.request({"t": "mine"}, "mine")
    c = (await alice.request(send("Bob"), "challenged"))["challenge"]
    for who in (bob, bob3):
        m = await anywhere(who, lambda m: m["t"] == "challenge" and m["challenge"]["id"] == c["id"],
                           f"the challenge on {who.label}")
        checks.eq(m["challenge"], c, f"{who.label}'s node tells him the challenge")
    await bob.expect(lambda m: m["t"] == "mine" and "id" not in m
                     and [x["id"] for x in m["challenges"]["received"]] == [c["id"]],
                     "his list on node 2 shows it")
    reply = await bob.request(op("accept", c["id"]), "done")
    game = reply.get("game")
    checks.ok(isinstance(game, int), f"accepted on node 2: {reply}")
    pa = await anywhere(alice, lambda m: m["t"] == "paired", "paired on node 1")
    pb = await anywhere(bob3, lambda m: m["t"] == "paired", "paired on node 3")
    checks.eq((pa["game"], pb["game"], sorted([pa["seat"], pb["seat"]]), pa["challenge"]),
              (game, game, [0, 1], c["id"]), "paired to both users on their nodes")
    checks.ok(await gone(alice, c["id"], "accepted") and await gone(bob3, c["id"], "accepted"),
              "challenge-gone, accepted, on nodes 1 and 3")
    state = await alice.request({"t": "open", "game": game}, "snapshot")
    checks.eq((state["status"], sorted(s.get("name") for s in state["seats"])),
              ("live", ["Alice", "Bob"]), "node 1 opens the started game, both seated")
    return game


async def accepted_once(checks, alice, bob, bob3):
    c = (await alice.request(send("Bob"), "challenged"))["challenge"]["id"]
    for who in (bob, bob3):
        await anywhere(who, lambda m: m["t"] == "challenge" and m["challenge"]["id"] == c,
                       "the challenge")
    replies = await asyncio.gather(bob.request(op("accept", c), "done"),
                                   bob3.request(op("accept", c), "done"))
    games = [r["game"] for r in replies if r["t"] == "done"]
    codes = [r.get("code") for r in replies if r["t"] == "error"]
    checks.eq((len(games), codes), (1, ["no-such-challenge"]),
              f"two accepts at once on two nodes: one game ({replies})")
    return games[0] if games else None


async def declined_and_refused(checks, alice, bob, bob3):
    c = (await alice.request(send("Bob"), "challenged"))["challenge"]["id"]
    await anywhere(bob3, lambda m: m["t"] == "challenge" and m["challenge"]["id"] == c,
                   "the challenge on node 3")
    await bob3.request(op("decline", c), "done")
    checks.ok(await gone(alice, c, "declined"), "declined on node 3, told on node 1")
    await bob3.request({"t": "mine"}, "mine")
    await bob.request({"t": "settings", "challenges": False}, "done")
    told = await anywhere(bob3, lambda m: m["t"] == "settings", "the setting on node 3")
    checks.eq(told, {"t": "settings", "challenges": False}, "his connection on node 3 is told")
    await bob3.expect(lambda m: m["t"] == "mine" and "id" not in m
                      and m["settings"] == {"challenges": False}, "his list on node 3 shows it")
    reply = await alice.request(send("Bob"), "challenged")
    checks.eq(reply.get("code"), "refused", "turned off on node 2: refused on node 1")
    await bob.request({"t": "settings", "challenges": True}, "done")


async def expired_once(checks, alice, bob, bob3):
    c = (await alice.request(send("Bob"), "challenged"))["challenge"]["id"]
    for who in (alice, bob, bob3):
        checks.ok(await gone(who, c, "expired"), f"{who.label} told it expired")
    for who in (alice, bob, bob3):
        await who.drain(1.5)  # every node's sweep has run again since
        told = [m for m in who.messages if m["t"] == "challenge-gone" and m["challenge"] == c]
        checks.eq(len(told), 1, f"{who.label} told once, though three nodes sweep")


async def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"skipped: {why}")
        sys.exit(77)
    checks = Checks()
    cluster = Cluster(args.ramparts, extra=["--challenge-expiry", str(EXPIRY_S)]).start()
    try:
        n1, n2, n3 = cluster.nodes
        alice = await on_node(n1, "alice", "Alice")
        bob = await on_node(n2, "bob", "Bob")
        bob3 = await on_node(n3, "bob3", "Bob", login=True)
        first = await seen_and_accepted(checks, cluster, alice, bob, bob3)
        second = await accepted_once(checks, alice, bob, bob3)
        stored = {int(row[0]) for row in cluster.pg.query("SELECT id FROM games")}
        checks.eq(stored, {first, second}, "the database holds exactly the two games")
        await declined_and_refused(checks, alice, bob, bob3)
        await expired_once(checks, alice, bob, bob3)
        checks.eq(cluster.pg.query("SELECT count(*) FROM challenges"), [["0"]],
                  "no challenge is left")
        for c in (alice, bob, bob3):
            await c.close()
    finally:
        statuses = [await asyncio.to_thread(n.stop) for n in cluster.nodes]
        checks.eq(statuses, [0, 0, 0], "the nodes stop cleanly")
        cluster.destroy()
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
