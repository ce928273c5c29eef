"""Games at any pace on a cluster (issue 41): three servers on one PostgreSQL database, all on
one test clock file (`--test-clock`, test builds only). Alice plays on node 1, Bob on node 2
and never comes back; when a day passes on the shared clock, one server ends the game on
time, exactly once: one node logs the ending, every watcher on any node is told it once, and
each rating moves once. Skips (exit 77) only where PostgreSQL or HAProxy is not installed."""

import asyncio
import os
import sys

from clusterlib import Cluster, missing_component
from rsclient import Checks, Client, arguments
from test_correspondence import DAY_MS, TestClock, bobs_turn, rating_games, registered
from test_pools import Target


async def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"skipped: {why}")
        sys.exit(77)
    checks = Checks()
    clock_dir = os.environ.get("TMPDIR", "/tmp")
    clock = TestClock(os.path.join(clock_dir, f"ramparts-test-clock-{os.getpid()}"))
    cluster = Cluster(args.ramparts, extra=["--test-clock", clock.path]).start()
    try:
        nodes = cluster.nodes
        alice = await registered(nodes[0], "alice", "Alice")
        bob = await registered(nodes[1], "bob", "Bob")
        watcher = Client(Target(nodes[2]), "watcher")
        await watcher.connect()
        await watcher.hello()
        game = await bobs_turn(checks, alice, bob, "cluster")
        await watcher.request({"t": "open", "game": game}, "snapshot")
        await bob.close()  # Bob never comes back
        clock.advance(DAY_MS + 60000)
        # (a watcher on another node may be told by a fresh snapshot rather than an update, as
        # the protocol allows when it catches up: either carries the result)
        def over(m):
            return (m.get("game") == game and m["t"] in ("update", "snapshot")
                    and m.get("status") == "over")

        for who, label in ((alice, "Alice on node 1"), (watcher, "a watcher on node 3")):
            told = await who.expect(over, f"{label}: the flag falls")
            checks.eq((told["result"]["reason"], told["result"]["returns"]), ("time", [1, 0]),
                      f"{label} is told Bob ran out of time")
        await asyncio.sleep(2)  # time for a second ending, were one to come
        for who, label in ((alice, "Alice"), (watcher, "the watcher")):
            checks.eq(len([m for m in who.messages if over(m)]), 1,
                      f"{label} is told the ending once")
        logged = [n.log().count(f"game {game} over: time") for n in nodes]
        checks.eq(sorted(logged), [0, 0, 1], f"one server ended the game, once: {logged}")
        checks.eq((rating_games(nodes[2], "Alice"), rating_games(nodes[2], "Bob")), (1, 1),
                  "each rating moved once")
        record = nodes[1].http(f"/api/v1/games/{game}/record")[2]
        checks.ok("[result over time" in record, "the record ends on time")
        for c in (alice, watcher):
            await c.close()
    finally:
        statuses = [await asyncio.to_thread(n.stop) for n in cluster.nodes]
        checks.eq(statuses, [0, 0, 0], "the nodes stop cleanly")
        cluster.destroy()
        os.unlink(clock.path)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
