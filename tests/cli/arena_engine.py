#!/usr/bin/env python3
"""arena_engine.py — `ramparts arena --engine NAME=PATH`: AIs played by another program through
the text protocol (docs/ai.md, "Measuring").

This build plays as an engine against itself (`self/SPEC`) in two games, Danger at the Walls
and King of Danger with four players, and the results add up, with each side's thinking time
reported. Engines that misbehave (tests/cli/engines/fake_engine.py: nonsense, an illegal move,
a refusal, death mid-game, silence, deafness to quit) each stop the arena with exit 1 and a
message naming the engine, the command and its answer, never a hang, and leave no process
behind. Bad --engine arguments are usage errors (exit 2). Hidden information: what the engine
was sent (logged by the fake engine) is a position determinized for the seat to act: the seat's
own view is the referee's at every decision, the hidden cards are not (compared with the
referee's state, replayed from the same deal and moves).

Usage: arena_engine.py RAMPARTS
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks  # noqa: E402

RAMPARTS = os.path.abspath(sys.argv[1])
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engines", "fake_engine.py")
# A hang's bound, never a speed limit: the slowest run here takes seconds.
HANG_S = 600
TIMES = re.compile(r',"a_ms_per_move":[-0-9.e+]+,"b_ms_per_move":[-0-9.e+]+')

checks = Checks()


def arena(args, env=None):
    """`ramparts arena ARGS`: (exit code, stdout, stderr)."""
    run = subprocess.run([RAMPARTS, "arena", *args], capture_output=True, text=True,
                         timeout=HANG_S, env=dict(os.environ, NO_COLOR="1", **(env or {})))
    return run.returncode, run.stdout, run.stderr


def check_json(label, out, games):
    """The pairing's games add up and both thinking times are there and not negative."""
    try:
        rows = json.loads(out)["pairings"]
    except (ValueError, KeyError) as e:
        checks.fail(f"{label}: no JSON ({e}): {out!r}")
        return
    for row in rows:
        total = row["a_wins"] + row["draws"] + row["b_wins"] + row["unfinished"]
        checks.expect(total == games, f"{label}: {total} results for {games} games: {row}")
        for key in ("a_ms_per_move", "b_ms_per_move"):
            checks.expect(key in row and row[key] >= 0, f"{label}: {key} missing or < 0: {row}")


def alive(pid):
    """Running (a zombie left to init counts as gone: it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


# ---- this build as an engine ----

self_engine = ["--engine", f"self={RAMPARTS}"]
code, out, err = arena(["danger-at-the-walls", *self_engine, "--ai", "self/random,greedy",
                        "--games", "4", "--json"])
checks.expect(code == 0, f"self/random against greedy: exit {code}: {err}")
check_json("self/random against greedy", out, 4)
code, out, err = arena(["danger-at-the-walls", *self_engine, "--ai",
                        "self/hard:iters=50,hard:iters=50", "--games", "2", "--json"])
checks.expect(code == 0, f"self/hard against hard: exit {code}: {err}")
check_json("self/hard:iters=50 against hard:iters=50", out, 2)
again = arena(["danger-at-the-walls", *self_engine, "--ai", "self/hard:iters=50,hard:iters=50",
               "--games", "2", "--json", "--threads", "2"])[1]
checks.expect(TIMES.sub("", again) == TIMES.sub("", out),
              f"an engine at fixed iterations plays the same on 2 threads: {again} / {out}")
code, out, err = arena(["king-of-danger", "players=4", *self_engine, "--ai",
                        "self/random,greedy", "--games", "4", "--json"])
checks.expect(code == 0, f"king-of-danger players=4: exit {code}: {err}")
check_json("king-of-danger players=4", out, 4)
checks.expect('"players":4' in out, f"four players: {out}")
code, out, err = arena(["danger-at-the-walls", *self_engine, "--ai", "self/random,greedy",
                        "--games", "2"])
checks.expect(re.search(r"A ms/move +B ms/move\n", out) is not None, f"table columns: {out}")
checks.expect(re.search(r"self/random +greedy +2 .* +\d+\.\d\d +\d+\.\d\d\n", out) is not None,
              f"table row with both times: {out}")

# ---- usage errors ----

for label, args, says in [
    ("--engine without =", ["--engine", "self", "--ai", "random,greedy"], "NAME=PATH"),
    ("a missing PATH", ["--engine", "ref=/nonexistent/ramparts", "--ai", "ref/random,greedy"],
     "/nonexistent/ramparts"),
    ("an empty PATH", ["--engine", "ref=", "--ai", "ref/random,greedy"], "which program"),
    ("an unknown NAME", [*self_engine, "--ai", "nobody/random,greedy"], "nobody"),
    ("no spec after NAME/", [*self_engine, "--ai", "self/,greedy"], "spec must follow"),
    ("a NAME given twice", [*self_engine, *self_engine, "--ai", "self/random,greedy"], "twice"),
]:
    code, out, err = arena(["danger-at-the-walls", *args, "--games", "2"])
    checks.expect(code == 2, f"{label}: exit {code}, expected 2: {err}")
    checks.expect(says in err, f"{label}: the message should say '{says}': {err}")
help_text = arena(["--help"])[1]
checks.expect("--engine NAME=PATH" in help_text, f"--help lists --engine: {help_text}")

# ---- engines that misbehave ----

with tempfile.TemporaryDirectory() as work:
    for mode, says in [
        ("nonsense", "answered 'hello, I am not an engine' to 'new danger-at-the-walls"),
        ("illegal", "engine 'bad' answered '"),
        ("refuse", "engine 'bad' refused 'genmove random': refused"),
        ("die", "engine 'bad' closed its output (exited with status 3) before answering "
                "'genmove random'"),
        ("silent", "engine 'bad' did not answer 'genmove random' within 10 s"),
        ("deaf", None),
    ]:
        pids = os.path.join(work, f"{mode}.pids")
        env = {"FAKE_ENGINE_MODE": mode, "FAKE_ENGINE_RAMPARTS": RAMPARTS,
               "FAKE_ENGINE_PIDS": pids}
        try:
            # the silent engine's wait; every other answer may take the default 300 s (a
            # loaded machine starting Python and an ASan build), and comes in well under 1
            timeout = ["--engine-timeout", "10"] if mode == "silent" else []
            code, out, err = arena(["danger-at-the-walls", "--engine", f"bad={FAKE}", *timeout,
                                    "--ai", "bad/random,greedy", "--games", "2"], env)
        except subprocess.TimeoutExpired:
            checks.fail(f"{mode}: the arena hung")
            continue
        if says is None:
            checks.expect(code == 0, f"{mode}: exit {code}: {err}")
        else:
            checks.expect(code == 1, f"{mode}: exit {code}, expected 1: {out} {err}")
            checks.expect(says in err, f"{mode}: the message should say '{says}': {err}")
        with open(pids) as f:
            started = [int(p) for p in f.read().split()]
        checks.expect(len(started) >= 1, f"{mode}: the engine never started")
        left = [p for p in started if alive(p)]
        checks.expect(not left, f"{mode}: processes left running: {left}")

    # ---- hidden information: what the engine is sent ----
    log = os.path.join(work, "sent.log")
    code, out, err = arena(["danger-at-the-walls", "--engine", f"log={FAKE}", "--ai",
                            "log/random,log/greedy", "--games", "2", "--threads", "1"],
                           {"FAKE_ENGINE_MODE": "log", "FAKE_ENGINE_RAMPARTS": RAMPARTS,
                            "FAKE_ENGINE_LOG": log})
    checks.expect(code == 0, f"logged arena: exit {code}: {err}")
    with open(log) as f:
        sent = f.read().splitlines()


class Session:
    """A `ramparts engine` kept open, asked one command at a time."""

    def __init__(self):
        self.p = subprocess.Popen([RAMPARTS, "engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            got = self.p.stdout.readline()
            if got in ("", "\n"):
                answer = "\n".join(lines)
                if not answer.startswith("="):
                    raise RuntimeError(f"{line!r}: {answer!r}")
                return answer[2:]
            lines.append(got.rstrip("\n"))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def notation_fields(notation):
    """A full-state notation's key=value fields (after its version tag)."""
    return dict(f.split("=", 1) for f in notation.split()[1:])


# Replay each game: the referee from the deal (`new`) and the moves the engine answered; at
# each decision the position sent (`load`) must show the seat to act what the referee's shows
# it, and hide the rest differently at least once.
referee, loaded = Session(), Session()
decisions = same_view = differs = 0
games = 0
i = 0
while i < len(sent):
    line = sent[i]
    if line.startswith("new "):
        referee.ask(line)
        loaded.ask(line)
        games += 1
    elif line.startswith("load "):
        notation = line[len("load "):]
        genmove = next(j for j in range(i, len(sent)) if sent[j].startswith("genmove"))
        seat = referee.ask("turn")
        loaded.ask(line)
        decisions += 1
        same_view += referee.ask(f"view {seat}") == loaded.ask(f"view {seat}")
        truth = referee.ask("state")
        checks.expect(truth != notation, "the referee's state was sent")
        # Danger at the Walls' notation: to=<colour of the seat to act>, <colour>-hand=...
        fields, true_fields = notation_fields(notation), notation_fields(truth)
        mine = f"{fields['to']}-hand"
        checks.expect(fields[mine] == true_fields[mine], f"own hand sent as it is: {line}")
        differs += any(fields[k] != true_fields[k] for k in fields
                       if k.endswith("-hand") and k != mine)
        # the move the engine answered, played on the referee as the arena did
        move = sent[genmove + 1]
        checks.expect(move.startswith("> = "), f"genmove's answer logged: {move}")
        referee.ask(f"play {move[len('> = '):]}")
        i = genmove
    i += 1
referee.close()
loaded.close()
checks.expect(games == 2, f"two games logged, found {games}")
checks.expect(decisions > 10, f"decisions logged: {decisions}")
checks.expect(same_view == decisions,
              f"the seat's own view matches the referee's: {same_view} of {decisions}")
checks.expect(differs > 0,
              f"the opponent's hand differs from the referee's: {differs} of {decisions}")
sys.exit(checks.finish())
