#!/usr/bin/env python3
"""leaks.py — no hidden card ever reaches a screen that may not show it.

Many AI-against-AI games of every game are watched (`ramparts watch`) from every seat and as a
spectator, each saved as a record. The record is then loaded into the text protocol, and the
referee is asked, at every step, which card names that viewer may not learn (the debug verb
`secrets VIEWER`, the game's secret_names). The screen of each step must name none of them:
the events of move k none that were secret both before and after it (a card turned up by the
move is named by it), and the board after move k none secret after it.

Games per (game, viewer): RAMPARTS_CLI_GAMES (default 4, `make test`'s size; `make soak` runs
48). Usage: leaks.py RAMPARTS
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, engine_session, games  # noqa: E402

HEADER = re.compile(r"^-- (Move \d+: .*|.* took back .*|everything .*|.* resigns) --$")


def split_screen(screen):
    """The watch screen as (initial board, [(events, board) per history entry], ending)."""
    lines = screen.split("\n")
    steps, current, initial, ending = [], None, [], []
    for line in lines:
        if HEADER.match(line):
            current = {"events": [], "board": [], "in_board": False}
            steps.append(current)
        elif current is None:
            initial.append(line)
        elif line.startswith("Game over") or line.startswith("Stopped after"):
            ending.append(line)
        elif not current["in_board"] and line == "":
            current["in_board"] = True
        elif current["in_board"]:
            current["board"].append(line)
        else:
            current["events"].append(line)
    return initial, steps, ending


def name_pattern(names, ignore_case):
    """Any of the names as a whole word. Short names ("AS", the ace of spades) are matched as
    spelled, so English words ("as") do not count; names of four letters or more also in any
    case, so a board spelling "Zvord" for "zvord" is caught."""
    chosen = [n for n in names if not ignore_case or len(n) >= 4]
    if not chosen:
        return None
    alternatives = sorted((re.escape(n) for n in chosen), key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9])(" + "|".join(alternatives) + r")(?![A-Za-z0-9])",
                      re.IGNORECASE if ignore_case else 0)


def leaked(text_lines, names):
    for pattern in (name_pattern(names, False), name_pattern(names, True)):
        if not pattern:
            continue
        for line in text_lines:
            m = pattern.search(line)
            if m:
                return f"'{m.group(1)}' in: {line.strip()}"
    return None


def referee_secrets(ramparts, record, viewer, moves):
    """Secret names for viewer after each of the record's history entries, from the last
    back to the start (loadrecord, then secrets/undo pairs)."""
    commands = [f"loadrecord {record}"]
    for _ in range(moves):
        commands += [f"secrets {viewer}", "undo"]
    commands.append(f"secrets {viewer}")
    answers = engine_session(ramparts, commands)
    if not answers[0].startswith("="):
        raise RuntimeError(f"loadrecord failed: {answers[0]}")
    secrets = []
    for i in range(moves + 1):
        answer = answers[1 + 2 * i]
        if not answer.startswith("="):
            raise RuntimeError(f"secrets failed: {answer}")
        secrets.append(set(answer[1:].split()))
    secrets.reverse()  # secrets[k]: after k moves
    return secrets


def main():
    ramparts = sys.argv[1]
    checks = Checks()
    per_viewer = int(os.environ.get("RAMPARTS_CLI_GAMES", "4"))
    watched = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game, players in games(ramparts):
            probe = engine_session(ramparts, [f"new {game}", "secrets spectator"])
            if not probe[1].startswith("="):
                checks.fail(f"{game}: the referee cannot name secrets: {probe[1]}")
                continue
            for viewer in [str(p) for p in range(players)] + ["spectator"]:
                for n in range(per_viewer):
                    seed = 1000 + n
                    record = os.path.join(tmp, "w.rec")
                    run = subprocess.run(
                        [ramparts, "watch", game, "--seat", viewer, "--ai", "random",
                         "--pace", "0", "--seed", str(seed), "--record", record],
                        capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
                    if run.returncode != 0:
                        checks.fail(f"{game} seed {seed} as {viewer}: watch failed: "
                                    f"{run.stderr.strip()}")
                        continue
                    watched += 1
                    initial, steps, ending = split_screen(run.stdout)
                    secrets = referee_secrets(ramparts, record, viewer, len(steps))
                    where = f"{game} seed {seed} as {viewer}"
                    problem = leaked(initial, secrets[0])
                    for k, step in enumerate(steps, start=1):
                        if problem:
                            break
                        problem = leaked(step["events"], secrets[k - 1] & secrets[k])
                        if not problem:
                            problem = leaked(step["board"], secrets[k])
                        if problem:
                            problem = f"step {k}: {problem}"
                    if not problem:
                        problem = leaked(ending, secrets[-1])
                    if problem:
                        checks.fail(f"{where}: a secret on the screen: {problem}")
                    else:
                        checks.ok()
                    if not steps:
                        checks.fail(f"{where}: no moves on the screen")
    print(f"watched {watched} games")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
