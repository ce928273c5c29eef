#!/usr/bin/env python3
"""test_kill9_load.py — `kill -9` of the server at random instants under load, restarted on the
same port and database, 10 times in `make test` and 20 in `make soak` (RAMPARTS_SOAK=1;
RAMPARTS_KILLS sets another count). The load generator's clients reconnect
with their tokens, re-open their games from the last version they saw, and play on until at
least ten games have ended (a count, however slow the machine: ending none within ten minutes
is a failure of liveness); at the end every game is finished. Afterwards: every acknowledged move is in the store at its ply
and seat and in the game's record with its notation (moves committed but not acknowledged,
because the kill fell between the commit and the ack, are allowed), no ply acknowledged
twice as new, and every frame each player and spectator received, before and after the
restarts, passes the hidden-information checker."""
import os
import random
import subprocess
import tempfile
import time

from loadlib import Checks, Server, arguments, check_games, check_store, free_port, \
    raise_fd_limit, read_acklog
import json

MIN_FINISHED = 10


def main():
    args = arguments()
    checks = Checks()
    raise_fd_limit(4096)
    rng = random.Random(int(os.environ.get("RAMPARTS_TEST_SEED", "15")))
    soak = os.environ.get("RAMPARTS_SOAK", "0") not in ("", "0")
    kills = int(os.environ.get("RAMPARTS_KILLS", "20" if soak else "10"))
    work = tempfile.mkdtemp(prefix="ramparts-kill9-")
    port = free_port()
    server = Server(args.ramparts, workdir=work,
                    extra=["--rate", "100000", "--max-per-ip", "1000",
                           "--max-open-games-per-ip", "100000", "--max-seeks-per-ip", "100000",
                           "--guests-per-ip", "100000"]).start(port)
    acklog, frames = os.path.join(work, "acks.jsonl"), os.path.join(work, "frames.jsonl")
    load = subprocess.Popen(
        [args.loadgen, "--port", str(port), "--games", "10", "--spectate", "--rate", "100",
         "--duration", str(kills * 1.2 + 5), "--acklog", acklog, "--frames", frames,
         "--ramp", "500", "--seed", "15", "--min-finished", str(MIN_FINISHED),
         "--finish-timeout", "600"], stdout=subprocess.PIPE, text=True)
    time.sleep(2)
    restarted = 0
    for _ in range(kills):
        time.sleep(rng.uniform(0.3, 1.0))
        server.kill9()
        time.sleep(rng.uniform(0.0, 0.3))
        server.start(port)
        restarted += 1
    out, _ = load.communicate(timeout=1500)
    s = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    print("loadgen:", s, flush=True)
    checks.eq(restarted, kills, "the server was killed and restarted each time")
    checks.eq(load.returncode, 0, f"{MIN_FINISHED} games ended and every game finished after "
                                  "the restarts")
    checks.ok(s["reconnects"] >= kills, f"the clients reconnected ({s['reconnects']})")
    checks.ok(s["acks"] >= 100, f"moves were acknowledged across the kills ({s['acks']})")
    checks.eq(s["errors_other"], 0, "no move was refused but as stale (or a join repeated "
                                    "after a kill that had taken the first)")
    acks = read_acklog(acklog)
    checked, nframes, _ = check_games(checks, server, acks, frames, args.checker, work, "kill9",
                                      acks_may_be_missing=True)
    checks.ok(checked >= s["games_finished"] >= MIN_FINISHED,
              f"every game the clients saw end was checked frame by frame ({checked} of "
              f"{s['games_finished']} ended, {nframes} frames)")
    checks.eq(server.stop(), 0, "the server drains and exits 0")
    fresh, stored, unacked = check_store(checks, server.db, acks, "kill9", acks_may_be_missing=True)
    print(f"{kills} kills: {fresh} acknowledged moves all stored; {unacked} stored moves "
          f"committed but unacknowledged at a kill", flush=True)
    checks.finish()


if __name__ == "__main__":
    main()
