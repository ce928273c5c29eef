"""harness.py — what the Python command-line tests share: counting checks (closing with the
plain 'N passed, N failed' line), the text protocol driven through a pipe, the list of games,
and `ramparts play` driven through a pipe or a pseudo-terminal."""
import os
import pty
import re
import select
import signal
import subprocess
import time

# Lines stay whole through pipes unless a test asks for a width (COLUMNS).
os.environ.pop("COLUMNS", None)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self):
        self.passed += 1

    def fail(self, message):
        self.failed += 1
        print(f"FAIL: {message}", flush=True)

    def expect(self, condition, message):
        if condition:
            self.ok()
        else:
            self.fail(message)

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def engine_session(ramparts, commands):
    """Run protocol commands through `ramparts engine`; the answers, one string each."""
    text = "\n".join(commands) + "\nquit\n"
    out = subprocess.run([ramparts, "engine"], input=text, capture_output=True, text=True,
                         check=True).stdout
    answers = [a for a in out.split("\n\n") if a.strip()]
    return answers[:len(commands)]


def only(ids):
    """The ids to test: all, or those RAMPARTS_CLI_ONLY names (comma-separated)."""
    wanted = os.environ.get("RAMPARTS_CLI_ONLY")
    return [i for i in ids if not wanted or i in wanted.split(",")]


def hidden_games(ramparts):
    """The games with hidden information."""
    out = subprocess.run([ramparts, "list"], capture_output=True, text=True, check=True).stdout
    return only([line.split()[0] for line in out.splitlines() if " hidden " in line])


def games(ramparts):
    """(game id, default players) for every game."""
    ids = subprocess.run([ramparts, "list"], capture_output=True, text=True,
                         check=True).stdout.split()
    ids = only([i for i in ids if re.match(r"^[a-z]+(-[a-z]+)+$", i)])
    result = []
    for game in ids:
        answer = engine_session(ramparts, [f"new {game}"])[0]
        players = int(re.search(r"players=(\d+)", answer).group(1))
        result.append((game, players))
    return result


def play_piped(ramparts, args, lines, env=None):
    """`ramparts play ARGS` with `lines` typed through a pipe; (exit code, output)."""
    run = subprocess.run([ramparts, "play", *args], input="".join(l + "\n" for l in lines),
                         capture_output=True, text=True,
                         env=dict(os.environ, NO_COLOR="1", **(env or {})))
    return run.returncode, run.stdout + run.stderr


class Terminal:
    """A program on a pseudo-terminal: type into it, read what it shows."""

    def __init__(self, argv, env=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(env or {})
            os.execv(argv[0], argv)
        self.output = b""
        self.mark = 0  # where the output since the last typed text starts

    def read_until(self, pattern, timeout=180.0):
        """Read until the output since the last typed text matches the regex; all the
        output, or None on timeout."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern.encode() if isinstance(pattern, str) else pattern)
        while not regex.search(self.output, self.mark):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    return None
                if not chunk:
                    return None
                self.output += chunk
        return self.output.decode(errors="replace")

    def type(self, text):
        self.mark = len(self.output)
        os.write(self.fd, text.encode() if isinstance(text, str) else text)

    def interrupt(self):
        self.type(b"\x03")

    def wait(self, timeout=180.0):
        """The exit code (128 + N for signal N), reading what is left meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.drain()
                os.close(self.fd)
                if os.WIFSIGNALED(status):
                    return 128 + os.WTERMSIG(status)
                return os.WEXITSTATUS(status)
            self.drain(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        return None

    def drain(self, wait=0.0):
        while True:
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk


class PipeSession:
    """A command through pipes, one typed line at a time: each answer is the output up to
    the next point where `ready` (a compiled regex) matches its end, or to the end."""

    def __init__(self, argv, ready):
        self.ready = ready
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     env=dict(os.environ, NO_COLOR="1"))
        self.screen = self.read()

    def read(self):
        out = ""
        while not self.ready.search(out):
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                break
            out += chunk.decode(errors="replace")
        return out

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        self.screen = self.read()
        return self.screen

    def close(self):
        try:
            self.proc.stdin.write(b"quit\n")
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        rest = self.proc.stdout.read().decode(errors="replace")
        self.proc.wait()
        return rest
