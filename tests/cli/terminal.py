#!/usr/bin/env python3
"""terminal.py — `ramparts play` on a pseudo-terminal, as a person runs it: Ctrl-C saves the
game and says where, and --resume continues it; line editing and history (libedit): a
backspace edits the line and the up arrow recalls the last one; colour on a terminal but never
with TERM=dumb or NO_COLOR; `rules` goes through the pager.

Usage: terminal.py RAMPARTS
"""
import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Terminal  # noqa: E402

PROMPT = r"Blue> $"


def moves_in(record):
    return [l for l in open(record).read().splitlines() if l and l[0] not in "#["]


def ctrl_c_and_resume(ramparts, tmp, checks):
    record = os.path.join(tmp, "int.rec")
    env = {"TERM": "xterm", "NO_COLOR": "1"}
    t = Terminal([ramparts, "play", "danger-at-the-walls", "--seed", "7", "--record", record],
                 env)
    checks.expect(t.read_until(PROMPT) is not None, "no prompt on a terminal")
    t.type("1\r")
    checks.expect(t.read_until(r"1\r?\n[\s\S]*Blue> $") is not None, "no prompt after a move")
    t.interrupt()
    code = t.wait()
    screen = t.output.decode(errors="replace")
    checks.expect(code == 130, f"Ctrl-C: exit code {code}, expected 130")
    checks.expect(f"Game saved: {record}" in screen, "Ctrl-C does not say where the game is saved")
    checks.expect(len(moves_in(record)) >= 1, "Ctrl-C saved no moves")
    replay = subprocess.run([ramparts, "replay", record], capture_output=True, text=True)
    checks.expect(replay.returncode == 0 and "Unfinished" in replay.stdout,
                  f"the interrupted record does not replay as ongoing: {replay.stderr}")
    saved = len(moves_in(record))
    t = Terminal([ramparts, "play", "--resume", record], env)
    text = t.read_until(PROMPT)
    checks.expect(text is not None and re.search(r"resumed after \d+ moves?", text),
                  "resume does not say where it starts")
    t.type("1\r")
    t.read_until(r"1\r?\n[\s\S]*Blue> $")
    t.type("quit\r")
    checks.expect(t.wait() == 0, "quit after resume does not exit 0")
    checks.expect(len(moves_in(record)) > saved, "the resumed game added no moves")


def editing_and_history(ramparts, tmp, checks):
    record = os.path.join(tmp, "edit.rec")
    t = Terminal([ramparts, "play", "castle-danger", "--seed", "4", "--record", record],
                 {"TERM": "xterm", "NO_COLOR": "1"})
    t.read_until(PROMPT)
    t.type("movesx\x7f\r")  # a backspace removes the stray x
    checks.expect(t.read_until(r"add wizard[\s\S]*Blue> $") is not None,
                  "a line edited with backspace was not 'moves'")
    before = t.output.count(b"add wizard")
    t.type("\x1b[A\r")  # up arrow: the last line again
    # Only what came after the up arrow is searched: the recalled 'moves' lists once more.
    checks.expect(t.read_until(r"add wizard[\s\S]*Blue> $", timeout=60) is not None,
                  "no prompt after the up arrow")
    checks.expect(t.output.count(b"add wizard") > before, "the up arrow did not recall 'moves'")
    t.type("quit\r")
    checks.expect(t.wait() == 0, "quit does not exit 0")


def tab_completion(ramparts, tmp, checks):
    """Issue 26: Tab completes the moves word by word and the commands; two Tabs list the
    choices; the completed line plays."""
    record = os.path.join(tmp, "tab.rec")
    t = Terminal([ramparts, "play", "danger-at-the-walls", "--seed", "5", "--record", record],
                 {"TERM": "xterm", "NO_COLOR": "1"})
    t.read_until(PROMPT)
    t.type("can\t")
    checks.expect(t.read_until(r"non $", timeout=20) is not None, "Tab did not complete 'cannon'")
    t.type("\t\t")
    checks.expect(t.read_until(r"wall $", timeout=20) is not None,
                  "Tab did not go on word by word ('7', 'wall')")
    t.type("\t\t")
    checks.expect(t.read_until(r"1 +2 +3 +4 +5", timeout=20) is not None,
                  "two Tabs did not list the walls")
    t.type("2\r")
    checks.expect(t.read_until(r"Blue plays cannon-7 at wall 2", timeout=20) is not None,
                  "the completed move was not played")
    t.type("qu\t\r")
    checks.expect(t.wait() == 0, "'qu' + Tab did not complete 'quit'")


def in_place(ramparts, tmp, checks):
    """Issue 26: on a terminal each turn's screen is drawn in place from the top, what happened
    above the board, the whole fitting the window; --scroll prints boards one below the other."""
    clear = b"\x1b[H\x1b[2J"
    for scroll in (False, True):
        record = os.path.join(tmp, "place.rec")
        argv = [ramparts, "play", "danger-at-the-walls", "--seed", "5", "--record", record]
        t = Terminal(argv + (["--scroll"] if scroll else []), {"TERM": "xterm", "NO_COLOR": "1"})
        fcntl.ioctl(t.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        t.read_until(PROMPT)
        for typed in ("2", "1", "1"):  # a play and two refill draws: the turn passes to Red
            t.type(typed + "\r")
            t.read_until(r"\nBlue> $", timeout=60)
        t.type("quit\r")
        t.wait()
        if scroll:
            checks.expect(clear not in t.output, "--scroll still redraws in place")
            continue
        checks.expect(t.output.count(clear) >= 3, "the screens are not drawn in place")
        last = t.output.split(clear)[-1].decode(errors="replace")
        screen = last[:last.find("Blue> ")].rstrip("\r\n").split("\n")
        checks.expect(len(screen) + 1 <= 24, f"the screen is taller than the window: {len(screen)}")
        checks.expect("Turn 3: Blue to play." in last and last.find("Turn 3") < last.find("Wall 1:"),
                      f"the log is not above the board:\n{last}")
        checks.expect("you are Blue" in t.output.split(clear)[1].decode(errors="replace"),
                      "the greeting is wiped by the first screen")


def colour(ramparts, tmp, checks):
    record = os.path.join(tmp, "colour.rec")
    for env, want in (({"TERM": "xterm"}, True), ({"TERM": "dumb"}, False),
                      ({"TERM": "xterm", "NO_COLOR": "1"}, False)):
        env = dict(env)
        if "NO_COLOR" not in env:
            env["NO_COLOR"] = ""
        t = Terminal([ramparts, "play", "castle-danger", "--seed", "4", "--record", record],
                     env)
        t.read_until(PROMPT)
        t.type("moves\r")
        t.read_until(r"add wizard[\s\S]*Blue> $")
        t.type("quit\r")
        t.wait()
        has = b"\x1b[1m" in t.output
        checks.expect(has == want, f"colour with {env}: {has}, expected {want}")


def pager(ramparts, tmp, checks):
    record = os.path.join(tmp, "pager.rec")
    paged = os.path.join(tmp, "paged.txt")
    t = Terminal([ramparts, "play", "castle-danger", "--seed", "4", "--record", record],
                 {"TERM": "xterm", "NO_COLOR": "1", "PAGER": f"cat > {paged}"})
    t.read_until(PROMPT)
    t.type("rules\r")
    t.read_until(r"rules\r?\n[\s\S]*Blue> $")
    t.type("quit\r")
    t.wait()
    checks.expect(os.path.exists(paged) and "Castle Danger" in open(paged).read(),
                  "rules did not go through the pager")


def main():
    ramparts = os.path.abspath(sys.argv[1])
    checks = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        ctrl_c_and_resume(ramparts, tmp, checks)
        editing_and_history(ramparts, tmp, checks)
        tab_completion(ramparts, tmp, checks)
        in_place(ramparts, tmp, checks)
        colour(ramparts, tmp, checks)
        pager(ramparts, tmp, checks)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
