""""Play now" on a cluster of three servers (docs/cluster.md, "Play now across servers"):
test_pools.py's scenario with the clients spread over the three nodes (each connected
directly to its node, so most games pair players of different nodes), on one PostgreSQL
database started by clusterlib.py.

- 200 clients in seven pools: each paired exactly once, within the rating window rule, seats
  covering the players; the database holds exactly the games the clients were told of (no
  group paired twice by two nodes) and no seek is left.
- A guest and the account it logged into, on different nodes, are never paired together.
- A seek stays while its user has a connection on any node, and goes with the last one.
- A node killed with kill -9: its users' seeks are dropped with it once its sign of life runs
  out (the user, back on another node, may seek in that pool again).

Skips (exit 77) only where PostgreSQL or HAProxy is not installed."""

import asyncio
import sys
import time

from clusterlib import Cluster, missing_component
from rsclient import Checks, Client, arguments, guest
from test_pools import (Target, check_far, dropped_on_leave, far_apart, linked_never_paired,
                        many_pools, postgres_ratings)


async def dead_node_drops_seeks(checks, cluster):
    """A user seeking on node 3, which is killed: once it counts as dead, the seek is gone."""
    node3 = Target(cluster.nodes[2])
    user = await guest(node3, "doomed")
    pool = {"t": "seek", "type": "castle-danger", "clock": {"kind": "live", "initial_ms": 30000}}
    checks.eq((await user.request(pool, "seeking"))["t"], "seeking", "a seek on node 3")
    cluster.kill9(2)
    back = Client(Target(cluster.nodes[0]), "doomed-back")
    await back.connect()
    await back.hello(user.token)
    deadline = time.monotonic() + 60
    codes = []
    while True:
        reply = await back.request(pool, "seeking")
        codes.append(reply.get("code", reply["t"]))
        if reply["t"] == "seeking" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    checks.eq(reply["t"], "seeking", "the dead node's seek was dropped with it")
    checks.eq(codes[0], "already-seeking", "the seek counted while node 3 lived")
    await back.request({"t": "unseek"}, "done")
    await back.close()


async def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"skipped: {why}")
        sys.exit(77)
    checks = Checks()
    cluster = Cluster(args.ramparts, extra=["--max-per-ip", "1000", "--max-open-games-per-ip", "100000",
                                            "--max-seeks-per-ip", "100000", "--guests-per-ip", "100000",
                                            "--hash-per-ip", "1000"]).start()
    try:
        targets = [Target(n) for n in cluster.nodes]
        put = postgres_ratings(cluster.pg)
        http_json = cluster.nodes[0].http_json
        await dropped_on_leave(checks, targets)
        far = asyncio.ensure_future(far_apart(checks, targets, put))
        linked = await linked_never_paired(checks, targets, put)
        clients = await many_pools(checks, targets, put, http_json)
        game, seeks = await far
        check_far(checks, http_json, game, seeks)
        told = {m["game"] for c in clients + linked for m in c.messages if m["t"] == "paired"}
        told.add(game)
        stored = {int(row[0]) for row in cluster.pg.query("SELECT id FROM games")}
        checks.eq(stored, told, "the database holds exactly the games paired")
        checks.eq(cluster.pg.query("SELECT count(*) FROM seeks"), [["0"]], "no seek is left")
        across = sum(len({c.server.ws_url for c in group}) > 1
                     for group in games_of(clients).values())
        checks.ok(across > 0, f"games paired players of different nodes ({across})")
        for c in clients + linked:
            await c.close()
        await dead_node_drops_seeks(checks, cluster)
    finally:
        statuses = [await asyncio.to_thread(n.stop) for n in cluster.nodes]
        checks.eq(statuses, [0, 0, None], "the live nodes stop cleanly")
        cluster.destroy()
    checks.finish()


def games_of(clients):
    games = {}
    for c in clients:
        for m in c.messages:
            if m["t"] == "paired":
                games.setdefault(m["game"], []).append(c)
    return games


if __name__ == "__main__":
    asyncio.run(main())
