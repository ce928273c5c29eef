"""loadlib.py — what the load tests and `make bench-server` share: raise the open-file limit,
start `ramparts serve` (tests/server/rsclient.py's Server) and the C load generator, and check
a run afterwards: every acknowledged move is in the store once and in the record with the same
notation, no stored move is unacknowledged, and every frame each client received passes the
hidden-information checker (server_frames_check) against the finished game's record."""
import argparse
import collections
import json
import os
import resource
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from rsclient import Checks, Server, restartable_port  # noqa: E402  (the server tests' own helpers)

__all__ = ["Checks", "Server", "arguments", "raise_fd_limit", "run_loadgen", "check_run",
           "rss_kb", "free_port"]


def arguments():
    p = argparse.ArgumentParser()
    p.add_argument("--ramparts", required=True)
    p.add_argument("--checker", required=True)
    p.add_argument("--loadgen", required=True)
    return p.parse_args()


def raise_fd_limit(wanted):
    """Raise this process's open-file limit (inherited by the server and the generator) as
    far as the hard limit allows (root may raise the hard limit too). Returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
        except (ValueError, OSError):
            wanted = hard
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port():
    """A port the server can be started on again after a kill (rsclient.restartable_port)."""
    return restartable_port()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def run_loadgen(loadgen, port, args, hold=False):
    """Start the generator; with hold, return the process (it prints READY, then its summary,
    and stays until SIGTERM); else wait and return the summary as a dict."""
    cmd = [loadgen, "--port", str(port)] + [str(a) for a in args]
    if hold:
        return subprocess.Popen(cmd + ["--hold"], stdout=subprocess.PIPE, text=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=1200)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    if not lines:
        raise RuntimeError(f"loadgen printed no summary (exit {r.returncode})")
    summary = json.loads(lines[-1])
    summary["exit"] = r.returncode
    return summary


def read_acklog(path):
    acks = []
    with open(path) as f:
        for line in f:
            acks.append(json.loads(line))
    return acks


def record_moves(record):
    """The move lines of a record (neither headers nor comments), as frames_check reads them."""
    moves = []
    for line in record.splitlines():
        text = line.strip()
        if text and not text.startswith("#") and not text.startswith("["):
            moves.append(text)
    return moves


def check_store(checks, db_path, acks, label, acks_may_be_missing=False):
    """Zero lost and zero duplicated moves: every acknowledged move is in the store at its
    ply with its seat, no ply was acknowledged twice as new, and (unless the server was
    killed between a commit and its ack) every stored move was acknowledged."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    stored = {(g, p): s for g, p, s in db.execute("SELECT game_id, ply, seat FROM moves")}
    db.close()
    return check_stored(checks, stored, acks, label, acks_may_be_missing)


def check_stored(checks, stored, acks, label, acks_may_be_missing=False):
    """check_store over the stored moves as {(game, ply): seat} (from any database)."""
    fresh = collections.Counter((a["game"], a["ply"]) for a in acks if not a["dup"])
    seat_of = {(a["game"], a["ply"]): a["seat"] for a in acks if not a["dup"]}
    lost = [k for k in fresh if k not in stored]
    wrong_seat = [k for k in fresh if k in stored and stored[k] != seat_of[k]]
    duplicated = [k for k, n in fresh.items() if n > 1]
    unacked = [k for k in stored if k not in fresh]
    checks.eq(len(lost), 0, f"{label}: acknowledged moves missing from the store {lost[:5]}")
    checks.eq(len(duplicated), 0, f"{label}: plies acknowledged twice as new {duplicated[:5]}")
    checks.eq(len(wrong_seat), 0, f"{label}: acknowledged moves stored for another seat")
    if not acks_may_be_missing:
        checks.eq(len(unacked), 0, f"{label}: stored moves nobody was told of {unacked[:5]}")
    return len(fresh), len(stored), len(unacked)


def check_games(checks, server, acks, frames_path, checker, workdir, label, limit=None,
                acks_may_be_missing=False):
    """For every finished game of the run: the record's moves are the acknowledged ones, in
    order (with acks_may_be_missing, after kill -9: every acknowledged one is there), and
    every frame each player and spectator received passes the checker."""
    by_game = collections.defaultdict(dict)
    for a in acks:
        by_game[a["game"]][a["ply"]] = a["move"]
    frames = collections.defaultdict(list)
    with open(frames_path) as f:
        for line in f:
            frames[json.loads(line)["game"]].append(line)
    games = sorted(frames)[:limit] if limit else sorted(frames)
    checked = failed = 0
    for game in games:
        status, _, record = server.http(f"/api/v1/games/{game}/record")
        if status != 200:  # not over: no record yet
            continue
        moves = record_moves(record)
        acked = by_game.get(game, {})
        expected = [acked.get(p, moves[p] if acks_may_be_missing else None)
                    for p in range(len(moves))]
        if acks_may_be_missing and any(p >= len(moves) for p in acked):
            expected.append("an acknowledged move beyond the record's end")
        if not checks.eq(expected, moves,
                         f"{label}: game {game}'s record holds the acknowledged moves"):
            failed += 1
            continue
        rec_path = os.path.join(workdir, f"game-{game}.rec")
        frames_file = os.path.join(workdir, f"game-{game}.frames")
        with open(rec_path, "w") as f:
            f.write(record)
        with open(frames_file, "w") as f:
            f.writelines(frames[game])
        r = subprocess.run([checker, rec_path, frames_file], capture_output=True, text=True)
        if not checks.ok(r.returncode == 0, f"{label}: game {game}: every frame matches the "
                                            f"referee:\n{r.stdout[-2000:]}{r.stderr[-2000:]}"):
            failed += 1
        checked += 1
        os.unlink(rec_path)
        os.unlink(frames_file)
    return checked, sum(len(v) for v in frames.values()), failed


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])
