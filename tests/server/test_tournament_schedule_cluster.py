"""Tournaments' start times on the three-node cluster (issue 44; tests/server/clusterlib.py),
every node given the same test clock: four tournaments due at one instant, their players on
different nodes, each start once (one node logs it, round 1 is paired once: one board, one
game, one `paired` a player), whichever node's sweep sees the time first; and one short of
players is cancelled once, an hour after its time. Skipped (77) without PostgreSQL or
HAProxy."""

import asyncio
import os
import re
import sys
import time

from clusterlib import SKIP, Cluster, missing_component
from rsclient import PASSWORD, Checks, Client, arguments
from tourlib import op

HOUR_MS = 3600 * 1000
DUE = 4  # tournaments due at one instant


def advance(path, ms):
    """The test clock moved on (read by every node; whole milliseconds, never going back)."""
    now = int(open(path).read() or 0) if os.path.exists(path) else 0
    with open(path + ".new", "w") as f:
        f.write(f"{now + ms}\n")
    os.replace(path + ".new", path)


async def account(node, label, name):
    c = Client(node, label)
    await c.connect()
    await c.hello()
    reply = await c.request({"t": "register", "name": name, "password": PASSWORD},
                            "registered")
    assert reply["t"] == "registered", reply
    return c


async def until_status(c, number, wanted, limit=120.0):
    deadline = time.monotonic() + limit
    while True:
        t = (await c.request(op("standings", number), "standings"))["tournament"]
        if t["status"] == wanted or time.monotonic() > deadline:
            return t
        await asyncio.sleep(0.2)


def logged(cluster, pattern):
    """How many times the nodes' logs, all together, match pattern."""
    return sum(len(re.findall(pattern, n.log(), re.M)) for n in cluster.nodes)


async def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"SKIP: {why}")
        sys.exit(SKIP)
    checks = Checks()
    cluster = Cluster(args.ramparts, nodes=3)
    clock = os.path.join(cluster.dir, "clock")
    advance(clock, 0)
    cluster.extra += ["--test-clock", clock]
    cluster.start()
    try:
        n1, n2, n3 = cluster.nodes
        ann = await account(n1, "ann", "Ann")
        ben = await account(n2, "ben", "Ben")
        cat = await account(n3, "cat", "Cat")
        numbers = []
        for i in range(DUE):
            reply = await ann.request({"t": "tournament", "op": "create", "name": f"Due {i}",
                                       "type": "castle-danger", "format": "swiss",
                                       "rounds": 1, "starts_in": 600}, "tournament")
            numbers.append(reply["tournament"]["id"])
            for c in (ben, cat):
                await c.request(op("join", numbers[-1]), "done")
        reply = await ann.request({"t": "tournament", "op": "create", "name": "Short",
                                   "type": "castle-danger", "format": "swiss", "rounds": 1,
                                   "starts_in": 600}, "tournament")
        short = reply["tournament"]["id"]
        await ben.request(op("join", short), "done")
        advance(clock, 601 * 1000)  # every node's sweep finds the four due at once
        for number in numbers:
            t = await until_status(ann, number, "running")
            checks.eq((t["status"], t["round"], len(t["pairings"])), ("running", 1, 1),
                      f"tournament {number} started, one board")
            checks.eq(logged(cluster, rf"tournament {number}: started at its start time$"), 1,
                      f"tournament {number}: one node started it")
            checks.eq(logged(cluster, rf"tournament {number}: round 1 paired"), 1,
                      f"tournament {number}: round 1 paired once")
        for c in (ben, cat):
            await c.drain(1.0)
            paired = [m["tournament"] for m in c.messages if m["t"] == "paired"]
            checks.eq(sorted(paired), sorted(numbers), f"{c.label}: one game a tournament")
        checks.eq((await until_status(ann, short, "open"))["status"], "open",
                  "the one short of players waits open")
        advance(clock, HOUR_MS)
        t = await until_status(ann, short, "cancelled")
        checks.eq((t["status"], t["pairings"]), ("cancelled", []), "an hour on: cancelled")
        checks.eq(logged(cluster, rf"tournament {short}: cancelled"), 1,
                  "one node cancelled it")
        checks.eq(await asyncio.to_thread(cluster.stop), [0, 0, 0], "the nodes stop cleanly")
    except BaseException:
        cluster.destroy_showing_logs()
        raise
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
