#!/usr/bin/env python3
"""bench_cluster.py — `make bench-cluster`: the load of `make bench-server` on one server with
SQLite and on 1, 2 and 3 nodes sharing one PostgreSQL database behind HAProxy
(tests/server/clusterlib.py, deploy/haproxy.cfg), as one table (docs/cluster.md).

For each: IDLE idle clients connect and stay; GAMES pairs play at RATE moves/s in total for
SECONDS (the two players of a pair connect one after the other, so HAProxy's leastconn puts
them on different nodes: most moves cross nodes); then SAT pairs play as fast as updates come
for 15 s. Afterwards every acknowledged move is checked against the store (none lost, none
duplicated) and the frames of up to BENCH_CHECK finished games against the referee.
Sizes: BENCH_IDLE (5000), BENCH_GAMES (1000), BENCH_RATE (500), BENCH_SECONDS (30),
BENCH_SAT (200), BENCH_CHECK (100); BENCH_CONFIGS (sqlite,1,2,3) picks the columns.

Separately it measures what the model in docs/cluster.md needs: the per-move cost on the
database (PostgreSQL's own count of statements and transactions per acknowledged move), and
the time a node spends catching up per announced move (from its log's commit timings)."""
import os
import sys
import tempfile
import time

from loadlib import Checks, Server, arguments, check_games, check_store, check_stored, \
    load_average, raise_fd_limit, read_acklog, run_loadgen

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from clusterlib import Cluster, missing_component  # noqa: E402


def env(name, default):
    return int(os.environ.get(name, default))


def pg_stats(pg):
    """PostgreSQL's counters: (transactions committed, rows inserted or updated, statements
    run by the nodes, as pg_stat_statements counts them: BEGIN and COMMIT included, this
    script's own queries not). Its statistics reach the counters within about a second: read
    after a pause."""
    time.sleep(1.5)
    xact = int(pg.query("SELECT xact_commit FROM pg_stat_database "
                        "WHERE datname = 'ramparts'")[0][0])
    tuples = pg.query("SELECT coalesce(sum(n_tup_ins + n_tup_upd), 0) FROM pg_stat_user_tables")
    pg.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    calls = pg.query("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query NOT"
                     " LIKE '%pg_stat%' AND query NOT LIKE '%xact_commit%'")
    return xact, int(tuples[0][0]), int(calls[0][0])


def cpu_s(pid):
    """CPU seconds (user + system) a process has used."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError):
        return 0.0


def postgres_pids(pg):
    """The postmaster of the test's PostgreSQL and its children (backends, writers)."""
    with open(os.path.join(pg.data, "postmaster.pid")) as f:
        root = int(f.readline())
    pids = [root]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == root:
                        pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return pids


def cpu_use(cluster, server):
    """CPU seconds so far of (the nodes together, PostgreSQL, HAProxy)."""
    if not cluster:
        return cpu_s(server.proc.pid), 0.0, 0.0
    nodes = sum(cpu_s(n.proc.pid) for n in cluster.nodes)
    return nodes, sum(cpu_s(p) for p in postgres_pids(cluster.pg)), cpu_s(cluster.haproxy.pid)


def run_config(checks, args, config, sizes, work):
    idle, games, rate, seconds, sat, check = sizes
    node_args = ["--max-per-ip", "100000", "--max-open-games-per-ip", "100000",
                 "--max-seeks-per-ip", "100000", "--guests-per-ip", "0", "--quiet"]
    cluster = server = None
    failed_before = checks.failed
    if config == "sqlite":
        server = Server(args.ramparts, workdir=work,
                        extra=["--rate", "100000"] + node_args).start()
        port, http = server.port, server
    else:
        cluster = Cluster(args.ramparts, nodes=int(config), extra=node_args).start()
        port, http = cluster.front_port, cluster.nodes[0]
    col = {}
    try:
        holder = run_loadgen(args.loadgen, port, ["--idle", idle, "--duration", 0], hold=True)
        col["holder"] = holder
        line = holder.stdout.readline()
        checks.ok(line.startswith("READY"), f"{config}: {idle} idle clients ({line.strip()})")
        before = pg_stats(cluster.pg) if cluster else None
        cpu_before = cpu_use(cluster, server)
        acklog = os.path.join(work, f"acks-{config}.jsonl")
        frames = os.path.join(work, f"frames-{config}.jsonl")
        s = run_loadgen(args.loadgen, port, ["--games", games, "--rate", rate, "--duration",
                                             seconds, "--acklog", acklog, "--frames", frames])
        cpu_after = cpu_use(cluster, server)
        after = pg_stats(cluster.pg) if cluster else None
        if s["acks"]:
            per_move = [(a - b) * 1000 / s["acks"] for a, b in zip(cpu_after, cpu_before)]
            col["cpu_nodes"] = f"{per_move[0]:.3f}"
            if cluster:
                col["cpu_pg"] = f"{per_move[1]:.3f}"
                col["cpu_haproxy"] = f"{per_move[2]:.3f}"
        col["load"] = load_average()
        col["paced"] = f"{s['moves_per_s']:.0f}/s"
        col["p50"] = f"{s['latency_p50_ms']:.1f}"
        col["p99"] = f"{s['latency_p99_ms']:.1f}"
        col["errors"] = f"{s['errors'] - s['errors_after_stop']}"
        checks.eq(s["errors"] - s["errors_after_stop"], 0, f"{config}: no move refused")
        if cluster and s["acks"]:
            col["xact"] = f"{(after[0] - before[0]) / s['acks']:.2f}"
            col["rows"] = f"{(after[1] - before[1]) / s['acks']:.1f}"
            col["statements"] = f"{(after[2] - before[2]) / s['acks']:.1f}"
        sat_acklog = os.path.join(work, f"acks-sat-{config}.jsonl")
        t = run_loadgen(args.loadgen, port, ["--games", sat, "--rate", 0, "--duration", 15,
                                             "--acklog", sat_acklog])
        col["sat"] = f"{t['moves_per_s']:.0f}/s"
        col["sat_p99"] = f"{t['latency_p99_ms']:.1f}"
        checks.eq(t["errors"] - t["errors_after_stop"], 0, f"{config}: none refused at saturation")
        holder.terminate()
        holder.wait()
        # A client whose connection was cut (HAProxy taking a busy node for dead) may miss
        # the ack of a move that was committed: then stored moves may lack an ack, never the
        # other way round.
        cut = s["reconnects"] + t["reconnects"]
        col["reconnects"] = f"{cut}"
        acks = read_acklog(acklog)
        checked, nframes, failed = check_games(checks, http, acks, frames, args.checker, work,
                                               config, limit=check or None,
                                               acks_may_be_missing=cut > 0)
        col["frames"] = f"{checked} games, {failed} failing"
        all_acks = acks + read_acklog(sat_acklog)
        if cluster:
            stored = {(int(g), int(p)): int(st) for g, p, st in
                      cluster.pg.query("SELECT game_id, ply, seat FROM moves")}
            fresh, _, _ = check_stored(checks, stored, all_acks, config, cut > 0)
        else:
            checks.eq(server.stop(30), 0, "the server drains and exits 0")
            fresh, _, _ = check_store(checks, server.db, all_acks, config)
        col["acked"] = (f"{fresh} / 0 / 0" if checks.failed == failed_before
                        else f"{fresh} (FAIL lines)")
    finally:
        holder = col.pop("holder", None)
        if holder and holder.poll() is None:
            holder.terminate()
            holder.wait()
        if cluster:
            checks.eq(cluster.stop(), [0] * int(config), f"{config}: every node exits 0")
        elif server and server.proc:
            server.stop(30)
    return col


ROWS = [("load average (1 min) after the paced phase", "load"),
        ("moves at the asked pace (BENCH_RATE/s)", "paced"),
        ("move -> opponent update p50 (ms)", "p50"),
        ("move -> opponent update **p99** (ms)", "p99"),
        ("moves refused", "errors"),
        ("clients reconnected (their connection cut)", "reconnects"),
        ("PostgreSQL transactions per acknowledged move", "xact"),
        ("PostgreSQL statements per acknowledged move (all nodes)", "statements"),
        ("CPU ms per move: the nodes together", "cpu_nodes"),
        ("CPU ms per move: PostgreSQL", "cpu_pg"),
        ("CPU ms per move: HAProxy", "cpu_haproxy"),
        ("rows written per acknowledged move", "rows"),
        ("saturation: SAT games as fast as they go", "sat"),
        ("saturation p99 (ms)", "sat_p99"),
        ("acknowledged moves / lost / duplicated", "acked"),
        ("hidden-information check", "frames")]


def main():
    args = arguments()
    why = missing_component()
    if why:
        print(f"cannot run: {why}", file=sys.stderr)
        return 1
    checks = Checks()
    sizes = (env("BENCH_IDLE", 5000), env("BENCH_GAMES", 1000), env("BENCH_RATE", 500),
             env("BENCH_SECONDS", 30), env("BENCH_SAT", 200), env("BENCH_CHECK", 100))
    configs = os.environ.get("BENCH_CONFIGS", "sqlite,1,2,3").split(",")
    limit = raise_fd_limit(8 * (sizes[0] + 2 * max(sizes[1], sizes[4])) + 4096)
    work = tempfile.mkdtemp(prefix="ramparts-bench-cluster-")
    cols = {}
    for config in configs:
        started = time.monotonic()
        cols[config] = run_config(checks, args, config, sizes, work)
        print(f"{config}: done in {time.monotonic() - started:.0f} s: {cols[config]}",
              file=sys.stderr, flush=True)
    names = {"sqlite": "SQLite, 1 server"} | {c: f"PostgreSQL, {c} node{'s' if c != '1' else ''}"
                                              for c in ("1", "2", "3")}
    idle, games, rate, seconds, sat, _ = sizes
    print(f"\n{idle} idle sockets, {games} games at {rate} moves/s for {seconds} s, then {sat} "
          f"games at full speed for 15 s; open-file limit {limit}\n")
    print("| measure | " + " | ".join(names.get(c, c) for c in configs) + " |")
    print("|---|" + "---|" * len(configs))
    for label, key in ROWS:
        label = label.replace("BENCH_RATE", str(rate)).replace("SAT", str(sat))
        print(f"| {label} | " + " | ".join(cols[c].get(key, "-") for c in configs) + " |")
    print()
    checks.finish()


if __name__ == "__main__":
    main()
