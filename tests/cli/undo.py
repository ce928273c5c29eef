#!/usr/bin/env python3
"""undo.py — taking a move back against the AI never teaches the player anything.

In every game with hidden information, a human (seat 0) plays the first listed move until the
AI has answered, looks at what followed (the peeked future), types `undo`, and plays the same
move again. The AIs are seeded by the position (the match seed, the seat, the move count), so
if undo only took the moves back, the same future would come again, screen for screen. Undo
re-samples everything the human cannot see, so the future after the redo must differ from the
peeked one in most games; and the table shown right after the undo must be the one the human
saw before their move (the re-sample keeps their view). The record notes the undo and the
re-sample, and replays.

Seeds per game: RAMPARTS_CLI_UNDO_SEEDS (default 40). Usage: undo.py RAMPARTS
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, PipeSession, hidden_games  # noqa: E402

PROMPT = re.compile(r"\n[A-Za-z0-9 ]+> $")


def table_part(screen, lines):
    """The last `lines` lines of a screen before its prompt line."""
    body = screen.rstrip("\n").split("\n")[:-1]
    return body[-lines:] if lines else []


def undo_screen_table(screen):
    body = screen.rstrip("\n").split("\n")[:-1]
    for i, line in enumerate(body):
        if line.startswith("Took back"):
            after = body[i + 1:]
            if after and after[0].startswith("('undo' again"):
                after = after[1:]  # what one more undo would take back
            return after
    return None


def one_seed(ramparts, game, seed, record, checks):
    """True when the future after the redo equals the peeked one."""
    s = PipeSession([ramparts, "play", game, "--seed", str(seed), "--seat", "1=random",
                     "--record", record], PROMPT)
    before = s.screen
    for _ in range(40):
        if not PROMPT.search(before):
            return None  # the game ended before the human could try (the AI won at once)
        peeked = s.send("1")
        if not PROMPT.search(peeked):
            return None  # the human's move ended the game: nothing to take back and redo
        undone = s.send("undo")
        taken = re.search(r"Took back your last move, '[^']*'(, and the (\d+) repl)?", undone)
        if not taken:
            checks.fail(f"{game} seed {seed}: undo was refused: {undone[-300:]}")
            s.close()
            return None
        table = undo_screen_table(undone)
        checks.expect(table is not None and table == table_part(before, len(table)),
                      f"{game} seed {seed}: the table after undo is not the one before the move")
        redone = s.send("1")
        if taken.group(2):  # the AI had answered: its answer was the peek
            s.close()
            text = open(record).read()
            checks.expect(re.search(r"^\[undo 0 \d+\]$", text, re.M) is not None,
                          f"{game} seed {seed}: the record does not note the undo")
            checks.expect(re.search(r"^\[resample 0 \d+\]$", text, re.M) is not None,
                          f"{game} seed {seed}: the record does not note the re-sample")
            replay = subprocess.run([ramparts, "replay", record], capture_output=True,
                                    text=True)
            checks.expect(replay.returncode == 0,
                          f"{game} seed {seed}: the record with an undo does not replay: "
                          f"{replay.stderr.strip()}")
            return peeked.split("\n")[1:] == redone.split("\n")[1:]
        before = redone
    s.close()
    checks.fail(f"{game} seed {seed}: the AI never answered in 40 moves")
    return None


def main():
    ramparts = sys.argv[1]
    checks = Checks()
    seeds = int(os.environ.get("RAMPARTS_CLI_UNDO_SEEDS", "40"))
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "u.rec")
        for game in hidden_games(ramparts):
            same = done = 0
            for seed in range(1, seeds + 1):
                result = one_seed(ramparts, game, seed, record, checks)
                if result is None:
                    continue
                done += 1
                same += result
            # Without the re-sample every redo would repeat the peek (same == done). With it,
            # a repeat needs the re-dealt hidden cards to give the very same screens: rare in
            # every game (measured below 1 in 4); more than half is then practically
            # impossible (binomial tail below 1e-3 at 40 seeds, far lower in practice).
            print(f"{game}: the redo repeated the peeked future in {same} of {done} games")
            checks.expect(done >= seeds * 3 // 4, f"{game}: only {done} of {seeds} games ran")
            checks.expect(same * 2 <= done,
                          f"{game}: the redo repeated the peeked future in {same} of {done} "
                          "games: undo does not re-sample what the player cannot see")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
