#!/usr/bin/env python3
"""peeking.py — the record of an unfinished game against the AI shows nothing the human did not
see, and resuming it deals anew what the human could not see (docs/terminal.md, "Records").

In every game with hidden information or chance, a human (the first seat or, for every other
seed, the last, so that an AI acts before them) plays a few moves against the AI and quits; in
the games that seat three or more, two humans sharing the terminal do the same with one AI
(Rush the Wall, three clans) or two (King of Danger, four players). Then every way back into
the record is tried: `replay --show` and `--step`
as each seat and as the spectator, `engine` `loadrecord` followed by the referee's commands
(view, showboard, state, secrets, events), `play --resume` handing an AI's seat to a human,
and a plain `play --resume`. The referee's state comes from a copy of the record whose seats
are all human (a shared table, which the tools open whole). Each AI seat's private lines (its
board lines that name a card the human may not learn) must appear in no output; the human's
own view must be shown exactly as the referee draws it; and resuming must keep every human's
view while changing the referee's state (the unseen cards dealt anew: with two humans, what
neither saw, and in some game of each such kind the cards an AI holds).

Seeds per game: RAMPARTS_CLI_PEEK_SEEDS (default 2, `make test`'s size: one seed of each parity,
so both the first and the last seat are the human's; `make soak` runs 4). Usage: peeking.py
RAMPARTS
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, engine_session, games, play_piped  # noqa: E402

def hidden_or_chance(ramparts):
    """Game ids whose `list` line says hidden or chance."""
    out = subprocess.run([ramparts, "list"], capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines()
            if " hidden " in line or " chance" in line}


def run(argv, stdin=""):
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                          env=dict(os.environ, NO_COLOR="1"))
    return done.returncode, done.stdout + done.stderr


def all_human_copy(record, path):
    """The record with every seat played by a human: a referee's copy the tools open whole."""
    with open(record) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(re.sub(r"^\[seat (\d+) \S+\]$", r"[seat \1 human]", text, flags=re.M))


def answer_body(answer):
    return answer[2:] if answer.startswith("= ") else answer


def referee(ramparts, record, tmp, players, humans):
    """The referee's picture of the record's end: boards per viewer, the secrets no human seat
    may learn (those of every human's), the full state."""
    copy = os.path.join(tmp, "referee.rec")
    all_human_copy(record, copy)
    viewers = [str(p) for p in range(players)] + ["spectator"]
    answers = engine_session(ramparts, [f"loadrecord {copy}", "state"] +
                             [f"secrets {h}" for h in humans] +
                             [f"showboard {v}" for v in viewers])
    if not all(a.startswith("=") for a in answers):
        raise RuntimeError(f"the referee's copy does not load: {answers}")
    secrets = [set(answer_body(answers[2 + i]).split()) for i in range(len(humans))]
    first_board = 2 + len(humans)
    boards = {v: answer_body(answers[first_board + i]).strip("\n").split("\n")
              for i, v in enumerate(viewers)}
    return {"secrets": set.intersection(*secrets), "state": answer_body(answers[1]),
            "boards": boards}


def private_lines(ref, seat, humans, named):
    """Lines of seat's board that neither a human nor the spectator sees (leaving out those
    that only say whose board it is); with `named`, only those naming a card no human may
    learn (Rush the Wall's seats hold the same warriors, so there the names are no secret but
    where each lies is)."""
    others = set(ref["boards"]["spectator"]).union(*(ref["boards"][str(h)] for h in humans))
    lines = [line for line in ref["boards"][str(seat)]
             if line.strip() and line not in others and not re.search(r"\byou\b", line, re.I)]
    if not named:
        return lines
    names = [n for n in ref["secrets"] if len(n) >= 3]
    if not names:
        return []
    pattern = re.compile(r"(?<![A-Za-z0-9-])(" + "|".join(map(re.escape, names)) +
                         r")(?![A-Za-z0-9-])")
    return [line for line in lines if pattern.search(line)]


def shows_none(checks, where, output, secret_lines):
    shown = [line for line in secret_lines if line in output]
    checks.expect(not shown, f"{where}: an AI's private line is shown: {shown[:1]}")


def last_board(output, board):
    """Whether the output holds the board lines, in order, as one block."""
    return "\n".join(board) in output


def human_seats(players, seed, two):
    """One human (the first seat, or for even seeds the last: an AI acts before them), or two
    (the first and last, or for even seeds the two middle ones)."""
    if not two:
        return [0 if seed % 2 else players - 1]
    return [0, players - 1] if seed % 2 else [1, 2]


def try_every_way(ramparts, checks, game, players, seed, tmp, two=False):
    """Play, quit and try every way back in; (private lines looked for, whether the new deal
    changed what an AI seat sees)."""
    record = os.path.join(tmp, f"{game}-{players}-{seed}.rec")
    humans = human_seats(players, seed, two)
    ai_seats = [p for p in range(players) if p not in humans]
    seats = [a for p in range(players)
             for a in ("--seat", f"{p}={'human' if p in humans else 'random'}")]
    # An empty line answers a hand-over screen (and only prompts again elsewhere).
    for typed in (12, 6, 3, 1):  # fewer moves when the game ended before the quit
        code, out = play_piped(ramparts, [game, f"players={players}", "--seed", str(seed),
                                          "--record", record, *seats],
                               ["", "1"] * typed + ["", "quit"])
        if code != 0 or "[result ongoing]" in open(record).read():
            break
    where = f"{game} players={players} seed {seed} (human seats {humans})"
    if code != 0 or "[result ongoing]" not in open(record).read():
        checks.fail(f"{where}: the game to peek at did not stay unfinished (exit {code})")
        return 0, False
    ref = referee(ramparts, record, tmp, players, humans)
    # Shown nowhere: the AI seats' private lines. Shown in none of the humans' screens (which
    # may name the same cards elsewhere): those that name a card no human may learn.
    secret = [line for p in ai_seats for line in private_lines(ref, p, humans, False)]
    named = [line for p in ai_seats for line in private_lines(ref, p, humans, True)]
    # Walls and Armies shows no seat anything private (its secrets are the decks' order and
    # face-down walls): there the referee's state and the new deal carry the test.
    # Each human's own view and the spectator's are shown, exactly as the referee draws them.
    for viewer in [str(h) for h in humans] + ["spectator"]:
        code, out = run([ramparts, "replay", record, "--show", "--seat", viewer])
        checks.expect(code == 0 and last_board(out, ref["boards"][viewer]),
                      f"{where}: replay --show --seat {viewer}: exit {code}, the final board "
                      f"is not the referee's:\n{out[-1500:]}")
        shows_none(checks, f"{where}: replay --show --seat {viewer}", out, named)
    # An AI's seat is refused, by --show and by --step.
    for p in ai_seats:
        for mode, typed in (("--show", ""), ("--step", "n\n" * (12 * players + 4))):
            code, out = run([ramparts, "replay", record, mode, "--seat", str(p)], typed)
            checks.expect(code == 1 and "not over" in out,
                          f"{where}: replay {mode} --seat {p}: exit {code}: {out[-300:]}")
            shows_none(checks, f"{where}: replay {mode} --seat {p}", out, secret)
    # The referee's commands never get the record.
    commands = [f"loadrecord {record}", "state"] + [f"secrets {h}" for h in humans] + [
        f"{verb} {p}" for p in ai_seats for verb in ("events", "view", "showboard")]
    answers = engine_session(ramparts, commands)
    checks.expect(answers[0].startswith("?") and "unfinished game against the AI" in answers[0],
                  f"{where}: engine loadrecord: {answers[0]}")
    together = "\n".join(answers)
    shows_none(checks, f"{where}: engine", together, secret)
    checks.expect(ref["state"] not in together, f"{where}: engine shows the referee's state")
    # An AI's seat cannot be handed to a human on resuming.
    before = open(record).read()
    for p in ai_seats:
        for extra in ([], ["--seat", f"{humans[0]}=random"]):
            code, out = play_piped(ramparts, ["--resume", record, "--seat", f"{p}=human", *extra],
                                   ["", "board", "quit"])
            checks.expect(code == 2 and "stays an AI" in out,
                          f"{where}: --resume --seat {p}=human {extra}: exit {code}: {out[-300:]}")
            shows_none(checks, f"{where}: --resume --seat {p}=human", out, secret)
    checks.expect(open(record).read() == before, f"{where}: a refused resume changed the record")
    # Resuming deals anew what no human could see: the same views, another state.
    code, out = play_piped(ramparts, ["--resume", record], ["", "board", "quit"])
    checks.expect(code == 0 and "dealt anew" in out, f"{where}: resume: exit {code}: {out[-300:]}")
    shows_none(checks, f"{where}: resume", out, named)
    checks.expect(any(last_board(out, ref["boards"][str(h)]) for h in humans),
                  f"{where}: the resumed table is not the one the humans left:\n{out[-1500:]}")
    after = referee(ramparts, record, tmp, players, humans)
    for h in humans:
        checks.expect(after["boards"][str(h)] == ref["boards"][str(h)],
                      f"{where}: resuming changed what seat {h} sees")
    checks.expect(after["state"] != ref["state"],
                  f"{where}: resuming kept every unseen card where it was")
    noted = "+".join(str(h) for h in sorted(humans))
    checks.expect(re.search(rf"^\[resample {re.escape(noted)} \d+\]$", open(record).read(), re.M),
                  f"{where}: the record does not note the new deal for seats {noted}")
    ai_dealt = any(after["boards"][str(p)] != ref["boards"][str(p)] for p in ai_seats)
    return len(secret), ai_dealt


# Games that seat three or more: the player count where two humans share the table with AIs
# whose cards are more than what the humans' cards leave (King of Danger at three: the AI's
# hand is what the two humans do not hold, so only what is still to come is dealt anew).
SHARED_WITH_AN_AI = {"king-of-danger": 4, "rush-the-wall": 3}


def main():
    ramparts = sys.argv[1]
    checks = Checks()
    seeds = int(os.environ.get("RAMPARTS_CLI_PEEK_SEEDS", "2"))
    secretive = hidden_or_chance(ramparts)
    private_seen = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game, players in games(ramparts):
            if game not in secretive:
                # Nothing hidden, nothing left to chance: every tool opens the record whole.
                record = os.path.join(tmp, f"{game}.rec")
                play_piped(ramparts, [game, "--seed", "1", "--record", record], ["1", "quit"])
                answers = engine_session(ramparts, [f"loadrecord {record}", "view 1"])
                checks.expect(all(a.startswith("=") for a in answers),
                              f"{game}: an open game's record is refused: {answers}")
                code, out = run([ramparts, "replay", record, "--show", "--seat", "1"])
                checks.expect(code == 0, f"{game}: replay --seat 1 refused: {out[-300:]}")
                continue
            private = sum(try_every_way(ramparts, checks, game, players, seed, tmp)[0]
                          for seed in range(1, seeds + 1))
            print(f"{game}: {private} private lines of the AI looked for")
            private_seen += private
            if game in SHARED_WITH_AN_AI:
                tried = [try_every_way(ramparts, checks, game, SHARED_WITH_AN_AI[game], seed,
                                       tmp, two=True) for seed in range(1, seeds + 1)]
                print(f"{game}, two humans: {sum(t[0] for t in tried)} private lines of the AI "
                      f"looked for, {sum(t[1] for t in tried)} new deals of the AI's cards")
                checks.expect(any(t[1] for t in tried),
                              f"{game}: two humans resumed and no AI's cards were dealt anew")
    checks.expect(private_seen > 0, "no AI held a private line: the test proves little")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
