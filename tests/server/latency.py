"""latency.py — a measurement, not a test: two players play six games of Castle Danger
(tournament=1) against `ramparts serve` on loopback and the time from sending each move to
its acknowledgement (which comes after the commit) is summarized.
usage: /usr/bin/python3 tests/server/latency.py build/ramparts"""
import asyncio
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rsclient import Server, guest  # noqa: E402
async def main():
    s = Server(sys.argv[1], extra=["--rate","100000","--quiet"]).start()
    rng = random.Random(1)
    lat = []
    for g in range(6):
        a = await guest(s, "a"); b = await guest(s, "b")
        game = (await a.request({"t":"create","type":"castle-danger","seats":["me","open"],"options":{"tournament":1}},"created"))["game"]
        await b.request({"t":"join","game":game},"joined")
        st = await a.state_at(game, ply=0)
        while st["status"] == "live":
            c = a if st["to_move"] == 0 else b
            mine = await c.state_at(game, ply=st["ply"])
            t0 = time.perf_counter()
            await c.request({"t":"move","game":game,"ply":mine["ply"],"move":rng.choice(mine["legal"])["text"]},"ack")
            lat.append(time.perf_counter()-t0)
            st = await a.state_at(game, ply=mine["ply"]+1)
        await a.close(); await b.close()
    lat.sort()
    print(f"{len(lat)} moves: median {statistics.median(lat)*1000:.2f} ms, p99 {lat[int(len(lat)*0.99)]*1000:.2f} ms (send move -> ack, committed)")
    await asyncio.to_thread(s.stop)
asyncio.run(main())
