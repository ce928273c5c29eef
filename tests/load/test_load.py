#!/usr/bin/env python3
"""test_load.py — a small load run in `make test`: idle clients, games of every kind with a
spectator each, 600 random legal moves at a set pace over real WebSockets (tests/load/loadgen.c:
a count, not a time, so a slow machine plays them more slowly but plays them all), and a few
stalled clients that watch the lobby and many games and never read again (the
others must not notice: every check below holds with them there).
Afterwards the store and every client's log agree (no acknowledged move lost, none
duplicated, none stored unacknowledged), each finished game's record holds exactly the
acknowledged moves, and every frame each player and spectator received passes the
hidden-information checker against the referee."""
import os
import tempfile

from loadlib import Checks, Server, arguments, check_games, check_store, raise_fd_limit, \
    read_acklog, run_loadgen


def main():
    args = arguments()
    checks = Checks()
    raise_fd_limit(4096)
    work = tempfile.mkdtemp(prefix="ramparts-load-")
    server = Server(args.ramparts, workdir=work,
                    extra=["--rate", "100000", "--max-per-ip", "1000",
                           "--max-open-games-per-ip", "100000", "--max-seeks-per-ip", "100000",
                           "--guests-per-ip", "100000", "--quiet"]).start()
    acklog, frames = os.path.join(work, "acks.jsonl"), os.path.join(work, "frames.jsonl")
    s = run_loadgen(args.loadgen, server.port,
                    ["--games", 25, "--spectate", "--idle", 50, "--rate", 150,
                     "--max-moves", 600, "--duration", 600, "--acklog", acklog,
                     "--frames", frames, "--seed", 7, "--stalled", 5])
    print("loadgen:", s, flush=True)
    checks.eq(s["exit"], 0, "the load generator finished every game")
    checks.eq(s["sockets_max"], 130, "every client connected")
    checks.eq(s["stalled"], 5, "the stalled clients were there")
    checks.ok(s["games_started"] >= 25, "every pair played")
    checks.ok(s["acks"] >= 300, f"moves were played ({s['acks']})")
    checks.eq(s["acks"] + s["errors_after_stop"], s["moves_sent"],
              "every move sent was acknowledged (or crossed the final resignation)")
    checks.eq(s["errors"] - s["errors_after_stop"], 0, "no move was refused")
    checks.eq(s["dup_acks"], 0, "no move was acknowledged as a retry")
    checks.ok(s["latency_samples"] > 0, "the opponents' updates were timed")
    acks = read_acklog(acklog)
    checks.eq(len(acks), s["acks"], "every acknowledgement is in the log")
    checked, nframes, _ = check_games(checks, server, acks, frames, args.checker, work, "load")
    checks.ok(checked >= 25, f"finished games checked frame by frame ({checked}, {nframes} frames)")
    checks.eq(server.stop(), 0, "the server drains and exits 0")
    check_store(checks, server.db, acks, "load")
    checks.finish()


if __name__ == "__main__":
    main()
