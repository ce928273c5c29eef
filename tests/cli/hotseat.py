#!/usr/bin/env python3
"""hotseat.py — two people at one terminal each see only their own cards.

In every game with hidden information, two humans share `ramparts play` (the second seat is
`--seat 1=human`), pressing Enter at each hand-over screen and playing the first listed move.
Where neither holds anything private (Walls and Armies) the turn passes without a hand-over,
on a line "NAME (seat N) to play.", and the move may be taken back at the next one's prompt.
Each human's screen (between two clears) is compared with the referee: it must name no card
that was secret from that seat in every state since that seat's previous screen (the debug
verb `secrets SEAT` over the game's record). Taking back a move at the hand-over is allowed
exactly when the move revealed nothing (the events' "reveal" flag, asked through `events`).

Seeds per game: RAMPARTS_CLI_HOTSEAT_SEEDS (default 3, `make test`'s size; `make soak` runs 24).
Usage: hotseat.py RAMPARTS
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, PipeSession, engine_session, hidden_games  # noqa: E402
from leaks import leaked  # noqa: E402

PROMPT = re.compile(r"\n([A-Za-z0-9 ]+)> $")
HANDOVER = re.compile(r"Pass the terminal to .* \(seat (\d+)\)\. .*press Enter when ready\.\n"
                      r"(\(.*\)\n)?$")
CLEAR = "-------- the screen is cleared here --------"
OPEN_TURN = re.compile(r"\(seat (\d+)\) to play\.")
MOVES = 50
READY = re.compile(PROMPT.pattern + "|" + HANDOVER.pattern)


def secrets_by_moves(ramparts, record, seat, moves):
    commands = [f"loadrecord {record}"]
    for _ in range(moves):
        commands += [f"secrets {seat}", "undo"]
    commands.append(f"secrets {seat}")
    answers = engine_session(ramparts, commands)
    found = [set(answers[1 + 2 * i][1:].split()) for i in range(moves + 1)]
    found.reverse()
    return found


def first_move_reveals(ramparts, game):
    answers = engine_session(ramparts, [f"new {game} players=2 seed=1", "legal"])
    first = answers[1][2:].split("\n")[0]
    answers = engine_session(ramparts, [f"new {game} players=2 seed=1", f"play {first}",
                                        "events spectator"])
    events = json.loads(answers[2][2:])
    return any(e.get("reveal") for e in events)


def play_one(ramparts, game, seed, record, checks):
    s = PipeSession([ramparts, "play", game, "players=2", "--seed", str(seed), "--seat",
                     "0=human", "--seat", "1=human", "--record", record], READY)
    screens = []  # (seat, moves played when shown, text)
    moves = 0
    seat = None
    for _ in range(4 * MOVES):
        hand = HANDOVER.search(s.screen)
        if hand:
            seat = int(hand.group(1))
            s.send("")
            continue
        prompt = PROMPT.search(s.screen)
        if not prompt or moves >= MOVES:
            break
        passed = OPEN_TURN.findall(s.screen.split(CLEAR)[-1])
        if passed:
            seat = int(passed[-1])
        screens.append((seat, moves, s.screen.split(CLEAR)[-1]))
        s.send("1")
        moves += 1
    s.close()
    if not screens:
        checks.fail(f"{game} seed {seed}: no screen")
        return
    played = len([l for l in open(record).read().splitlines() if l and l[0] not in "#["])
    if played != moves:
        checks.fail(f"{game} seed {seed}: {moves} moves typed, {played} in the record")
        return
    secrets = {p: secrets_by_moves(ramparts, record, p, moves) for p in (0, 1)}
    last_seen = {0: 0, 1: 0}
    for seat, at, text in screens:
        window = set.intersection(*secrets[seat][last_seen[seat]:at + 1])
        problem = leaked(text.split("\n"), window)
        checks.expect(problem is None,
                      f"{game} seed {seed}: seat {seat}'s screen after {at} moves: {problem}")
        last_seen[seat] = at


def undo_at_hand_over(ramparts, game, record, checks):
    reveals = first_move_reveals(ramparts, game)
    s = PipeSession([ramparts, "play", game, "players=2", "--seed", "1", "--seat", "1=human",
                     "--record", record], READY)
    s.send("")  # Blue takes the terminal
    s.send("1")
    text = s.send("undo")
    s.close()
    if reveals:
        checks.expect("cannot be taken back at a shared table" in text,
                      f"{game}: a revealing first move was taken back in hot seat")
    else:
        checks.expect("took back their last move" in text,
                      f"{game}: a first move that revealed nothing could not be taken back")


def main():
    ramparts = sys.argv[1]
    checks = Checks()
    seeds = int(os.environ.get("RAMPARTS_CLI_HOTSEAT_SEEDS", "3"))
    hidden = hidden_games(ramparts)
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "h.rec")
        for game in hidden:
            probe = engine_session(ramparts, [f"new {game}", "secrets 0"])
            if not probe[1].startswith("="):
                checks.fail(f"{game}: the referee cannot name secrets: {probe[1]}")
                continue
            for seed in range(1, seeds + 1):
                play_one(ramparts, game, seed, record, checks)
            undo_at_hand_over(ramparts, game, record, checks)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
