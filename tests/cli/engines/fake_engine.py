#!/usr/bin/env python3
"""fake_engine.py — engines that misbehave, for tests/cli/arena_engine.py: `ramparts arena
--engine NAME=THIS` runs it as `THIS engine`. It passes the protocol through to a real
`ramparts engine` (FAKE_ENGINE_RAMPARTS) except where its mode (FAKE_ENGINE_MODE) says:
  log       every line received is appended to FAKE_ENGINE_LOG, and each answer's lines after
            it with "> " before them; nothing else changes;
  nonsense  every answer is a line outside the protocol;
  refuse    genmove is refused with "? refused";
  illegal   genmove answers a move of the position before the last load (a card played,
            a square taken: not legal any more, or not readable);
  die       exits with status 3 at the second genmove, without answering;
  silent    answers new, load and state itself at once (no real engine to wait for), and
            never answers genmove (it waits, alive, for ever);
  deaf      plays well, but stays alive after quit and end of file, and ignores SIGTERM,
            beside a child process of its own.
Its process id (and the deaf one's child's) go to FAKE_ENGINE_PIDS, one a line, so the test
can check that none outlives the arena."""
import os
import signal
import subprocess
import sys
import time

MODE = os.environ.get("FAKE_ENGINE_MODE", "log")


def note_pid(pid):
    path = os.environ.get("FAKE_ENGINE_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{pid}\n")


def forever():
    while True:
        time.sleep(1)


def silent():
    """Quick answers up to the first genmove, then nothing."""
    loaded = ""
    for line in sys.stdin:
        verb, _, rest = line.rstrip("\n").partition(" ")
        if verb == "genmove":
            forever()
        if verb == "load":
            loaded = rest
        sys.stdout.write(f"= {loaded if verb == 'state' else 'danger-at-the-walls'}\n\n")
        sys.stdout.flush()


def main():
    note_pid(os.getpid())
    if MODE == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        note_pid(subprocess.Popen(["sleep", "1000"]).pid)
    if MODE == "silent":
        silent()
        return
    real = subprocess.Popen([os.environ["FAKE_ENGINE_RAMPARTS"], "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(line):
        real.stdin.write(line + "\n")
        real.stdin.flush()
        lines = []
        while True:
            got = real.stdout.readline()
            if got in ("", "\n"):
                return lines
            lines.append(got.rstrip("\n"))

    def answer(lines):
        sys.stdout.write("\n".join(lines) + "\n\n")
        sys.stdout.flush()

    genmoves = 0
    previous_move = None
    log = open(os.environ["FAKE_ENGINE_LOG"], "a") if MODE == "log" else None
    for line in sys.stdin:
        line = line.rstrip("\n")
        if log:
            log.write(line + "\n")
            log.flush()
        if MODE == "nonsense":
            answer(["hello, I am not an engine"])
            continue
        if line == "quit" and MODE == "deaf":
            answer(["="])
            break
        if line.startswith("genmove"):
            genmoves += 1
            if MODE == "refuse":
                answer(["? refused"])
                continue
            if MODE == "die" and genmoves == 2:
                os._exit(3)
            if MODE == "illegal" and previous_move:
                answer([f"= {previous_move}"])
                continue
        got = ask(line)
        if line.startswith("genmove") and got and got[0].startswith("= "):
            previous_move = got[0][2:]
        if log:
            log.write("".join(f"> {a}\n" for a in got))
            log.flush()
        answer(got)
        if line == "quit":
            break
    if MODE == "deaf":
        forever()
    real.stdin.close()
    real.wait()


if __name__ == "__main__":
    main()
