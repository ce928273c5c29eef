#!/usr/bin/env python3
"""bench_server.py — `make bench-server`: the server under load on loopback, as a table.
Phases, on one server (release build, fresh database, --rate and --max-per-ip raised):
  1. IDLE idle clients connect and say hello (each a guest): memory per idle socket;
  2. GAMES pairs start games of every kind (the registry's games in turn) and play at RATE
     moves/s in total for SECONDS, the idle clients still open: open sockets, live games, the
     p50/p99 latency from a move sent to the opponent's update, memory per live game;
     STALLED more clients watch the lobby and 40 games each, then never read again: the
     latency above is measured with them there, and the server must drop them (its queue
     cap, then its keepalive: no pong for 30 s) while everyone else plays on;
  3. SAT pairs play as fast as updates come: moves/s at saturation.
Afterwards every acknowledged move is checked against the store (none lost, none duplicated)
and every frame of every finished game against the referee (BENCH_CHECK caps the number of
games checked; 0, the default, checks them all). Sizes: environment
BENCH_IDLE (5000), BENCH_GAMES (1000), BENCH_RATE (500), BENCH_SECONDS (30), BENCH_SAT (200),
BENCH_STALLED (50), BENCH_CHECK (0: all); BENCH_EVENT_LOOP (auto) is the server's
--event-loop (poll: libwebsockets' own loop, for comparison); BENCH_SYNC (full) its --sync
(normal: SQLite syncs only at checkpoints, for the cost of syncing every commit)."""
import json
import os
import signal
import sys
import tempfile
import time

from loadlib import Checks, Server, arguments, check_games, check_store, load_average, \
    raise_fd_limit, read_acklog, rss_kb, run_loadgen


def stalled_gone(server, expected, started_play, limit):
    """Wait until /healthz counts `expected` connections, at most `limit` s after play began:
    (seconds since play began, connections then)."""
    while True:
        connections = server.http_json("/healthz")[1]["connections"]
        waited = time.monotonic() - started_play
        if connections <= expected or waited > limit:
            return waited, connections
        time.sleep(0.5)


def env(name, default):
    return int(os.environ.get(name, default))


def main():
    args = arguments()
    checks = Checks()
    idle, games, rate = env("BENCH_IDLE", 5000), env("BENCH_GAMES", 1000), env("BENCH_RATE", 500)
    seconds, sat, check = env("BENCH_SECONDS", 30), env("BENCH_SAT", 200), env("BENCH_CHECK", 0)
    stalled = env("BENCH_STALLED", 50)
    limit = raise_fd_limit(4 * (idle + 2 * games) + 1024)
    work = tempfile.mkdtemp(prefix="ramparts-bench-")
    server = Server(args.ramparts, workdir=work,
                    extra=["--rate", "100000", "--max-per-ip", "100000",
                           "--max-open-games-per-ip", "100000", "--max-seeks-per-ip", "100000",
                           "--guests-per-ip", "0", "--quiet", "--event-loop",
                           os.environ.get("BENCH_EVENT_LOOP", "auto"),
                           "--sync", os.environ.get("BENCH_SYNC", "full")]).start()
    time.sleep(1)
    rss0 = rss_kb(server.proc.pid)
    rows = [("server event loop", os.environ.get("BENCH_EVENT_LOOP", "auto")),
            ("SQLite sync (--sync)", os.environ.get("BENCH_SYNC", "full")),
            ("open-file limit", f"{limit}"), ("load average before", load_average())]

    holder = run_loadgen(args.loadgen, server.port, ["--idle", idle, "--duration", 0], hold=True)
    line = holder.stdout.readline()
    checks.ok(line.startswith("READY"), f"{idle} idle clients connected ({line.strip()})")
    time.sleep(2)
    rss1 = rss_kb(server.proc.pid)
    rows.append(("idle sockets open", f"{idle}"))
    rows.append(("server memory per idle socket", f"{(rss1 - rss0) / max(idle, 1):.1f} KiB"))

    acklog, frames = os.path.join(work, "acks.jsonl"), os.path.join(work, "frames.jsonl")
    player = run_loadgen(args.loadgen, server.port,
                         ["--games", games, "--rate", rate, "--duration", seconds,
                          "--acklog", acklog, "--frames", frames, "--stalled", stalled],
                         hold=True)
    line = player.stdout.readline()
    line_time = time.monotonic()
    checks.ok(line.startswith("READY"), f"the games started ({line.strip()})")
    words = line.split()
    live_now = int(words[3]) if len(words) > 3 else 0
    sockets_now = int(words[1]) if len(words) > 1 else 0
    checks.eq(live_now, games, "every pair has a live game")
    time.sleep(min(5, seconds / 2))
    rss2 = rss_kb(server.proc.pid)
    load_during = load_average()
    s = json.loads(player.stdout.readline())
    # The stalled clients stopped reading when play began: by now, or within the keepalive's
    # 30 s (+5 s for its sweep), the server has dropped every one; the players stay.
    expected = idle + 2 * games
    waited, connections = stalled_gone(server, expected, started_play=line_time, limit=40)
    stalled_row = (f"stalled clients (never reading), {stalled}: all dropped after",
                   f"{waited:.0f} s of play" if connections == expected
                   else f"not all: {connections - expected} still open")
    checks.eq(connections, expected, "the server dropped every stalled client, no one else")
    player.send_signal(signal.SIGTERM)
    player.wait()
    rows += [("sockets open at once", f"{idle + sockets_now}"),
             ("concurrent live games when the pace starts", f"{live_now}"),
             ("server memory per live game (2 sockets)",
              f"{(rss2 - rss1) / max(live_now, 1):.1f} KiB"),
             (f"moves at {rate}/s: played in {s['play_seconds']:.0f} s", f"{s['acks']} ({s['moves_per_s']:.0f}/s)"),
             ("move -> opponent update, p50", f"{s['latency_p50_ms']:.2f} ms"),
             ("move -> opponent update, p99", f"{s['latency_p99_ms']:.2f} ms"),
             ("move -> opponent update, max", f"{s['latency_max_ms']:.2f} ms"),
             ("errors (other than after the final resignations)", f"{s['errors'] - s['errors_after_stop']}"),
             stalled_row,
             ("load average during", load_during)]
    checks.eq(s["errors"] - s["errors_after_stop"], 0, "no move refused under load")
    holder.send_signal(signal.SIGTERM)
    holder.wait()

    sat_acklog = os.path.join(work, "acks-saturation.jsonl")
    t = run_loadgen(args.loadgen, server.port, ["--games", sat, "--rate", 0, "--duration", 15,
                                                "--acklog", sat_acklog])
    rows.append((f"saturation: {sat} games as fast as updates come", f"{t['moves_per_s']:.0f} moves/s"))
    rows.append(("saturation: p99 move -> opponent update", f"{t['latency_p99_ms']:.2f} ms"))
    rows.append(("load average after saturation", load_average()))
    checks.eq(t["errors"] - t["errors_after_stop"], 0, "no move refused at saturation")

    acks = read_acklog(acklog)
    checked, nframes, failed = check_games(checks, server, acks, frames, args.checker, work,
                                           "bench", limit=check or None)
    rows.append(("hidden-information check", f"{checked} games, {nframes} frames, {failed} failing"))
    checks.eq(server.stop(30), 0, "the server drains and exits 0")
    fresh, stored, unacked = check_store(checks, server.db, acks + read_acklog(sat_acklog),
                                         "bench")
    rows.append(("acknowledged moves (both phases) / lost / duplicated",
                 f"{fresh} / 0 / 0" if checks.failed == 0 else f"{fresh} (see FAIL lines)"))
    width = max(len(r[0]) for r in rows)
    print("\n| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    print()
    checks.finish()


if __name__ == "__main__":
    main()
