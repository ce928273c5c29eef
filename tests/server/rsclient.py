"""rsclient.py — helpers for the server tests: start `ramparts serve` on a free loopback port
with a fresh database, talk to it over real WebSockets (Debian's python3-websockets) and
HTTP, record every frame each client receives, and check frames against the referee with
the C checker (server_frames_check). Every test script takes --ramparts BINARY and
--checker BINARY and prints 'N passed, N failed'."""

import argparse
import asyncio
import json
import re
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

# Seconds any one expected message may take: a bound for a hang, generous for sanitizer builds
# on a busy machine (a test waits only as long as the message takes).
TIMEOUT = 120.0


# Passwords the server's rule accepts (libpwquality, issue 49), for every test that registers:
# one place, so that no test goes on using a password the rule refuses.
PASSWORD = "lantern-quiet-harbor-97"
NEW_PASSWORD = "copper-meadow-violin-42"


class Checks:
    """Counts checks; a failed check is reported, not raised, so one run shows them all."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: " + what, file=sys.stderr, flush=True)
        return condition

    def eq(self, actual, expected, what):
        return self.ok(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        sys.exit(1 if self.failed or self.passed == 0 else 0)


def arguments():
    p = argparse.ArgumentParser()
    p.add_argument("--ramparts", required=True)
    p.add_argument("--checker", required=False)
    return p.parse_args()


def registry_games(binary):
    """The ids of every game the binary knows (`ramparts list --json`: the registry), in its
    order, so tests cover each game without naming them."""
    out = subprocess.run([binary, "list", "--json"], capture_output=True, text=True,
                         check=True).stdout
    return [g["id"] for g in json.loads(out)]


async def claim_after_grace(client, game, limit=60.0):
    """Claim `game` once the opponent has been gone for the grace period: asked again while
    the server answers not-allowed, since it counts the grace from when it saw the connection
    go, which on a busy machine may be a while after the client closed it. The last reply,
    after at most `limit` seconds (a bound for a hang, not for speed)."""
    deadline = time.monotonic() + limit
    while True:
        reply = await client.request({"t": "claim", "game": game}, "done")
        if reply.get("code") != "not-allowed" or time.monotonic() >= deadline:
            return reply
        await asyncio.sleep(0.25)


def restartable_port():
    """A free loopback port below the kernel's ephemeral range, for a server killed and started
    again on the same port. A port from bind(0) is in that range, where the kernel may hand it
    to another test's server or connection while ours is down (tests run side by side), and
    the server then cannot start again, or HAProxy's check reaches someone else's server."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            ephemeral = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = 32768
    low = max(1024, ephemeral - 12000)
    rng = random.SystemRandom()
    for _ in range(500):
        port = rng.randrange(low, ephemeral)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {low} and {ephemeral}")


class Server:
    """A `ramparts serve` process of its own, on a free port, with its own database."""

    def __init__(self, binary, workdir=None, extra=(), env=None):
        self.binary = binary
        self.dir = workdir or tempfile.mkdtemp(prefix="ramparts-serve-")
        self.db = os.path.join(self.dir, "server.db")
        self.extra = list(extra)
        self.env = dict(os.environ, **(env or {}))
        self.proc = None
        self.port = None
        self.log_path = os.path.join(self.dir, "server.log")

    def start(self, port=0):
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--listen", f"127.0.0.1:{port}", "--db", self.db,
             "--ai-threads", "1"] + self.extra,
            stdout=subprocess.PIPE, stderr=log, text=True, env=self.env)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"server did not start: {line!r}; log:\n{self.log()}")
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        return self

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def stop(self, timeout=120):
        """SIGTERM and wait: returns the exit status (0 for a clean drain). The limit only
        catches a hang: a drain waits for AI searches in flight, which a loaded machine with
        sanitizers slows many times over. From a coroutine, call it in a thread
        (`await asyncio.to_thread(server.stop)`): the test's clients still connected then
        answer the server's closing handshakes, instead of the server waiting out its 3 s
        limit for them."""
        if not self.proc:
            return None
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = "timeout"
        self.proc = None
        return rc

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def http(self, path):
        """(status, content type, body text)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=TIMEOUT) as r:
                return r.status, r.headers.get("content-type"), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("content-type"), e.read().decode()

    def http_json(self, path):
        status, _, body = self.http(path)
        return status, json.loads(body)


async def raw_upgrade(port, source, forwarded=()):
    """A WebSocket upgrade to 127.0.0.1:port/ws from the loopback address `source` (all of
    127.0.0.0/8 is loopback) with these X-Forwarded-For header lines, on a raw socket (the
    server refuses with an HTTP/1.0 status line, which the websockets client cannot read):
    the open stream writer, or the HTTP status that refused it."""
    import base64
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    lines += [f"X-Forwarded-For: {v}" for v in forwarded]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    words = (await asyncio.wait_for(reader.readline(), TIMEOUT)).split()
    status = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
    if status == 101:
        return writer
    writer.close()
    return status


class Client:
    """One WebSocket connection. Every frame received is kept in `frames` (raw text) and
    `messages` (parsed); `expect` waits for a message that matches."""

    def __init__(self, server, label):
        self.server = server
        self.label = label
        self.ws = None
        self.frames = []
        self.messages = []
        self.cursor = 0
        self.token = None
        self.user = None
        self.next_id = 0

    async def connect(self, origin=None, subprotocol=None, source=None):
        """source: a loopback address (127.0.0.N) to connect from, another client address for
        the server's limits per address."""
        kwargs = {"max_size": 2 ** 22}
        if origin:
            kwargs["origin"] = origin
        if source:
            kwargs["local_addr"] = (source, 0)
        self.ws = await websockets.connect(self.server.ws_url, **kwargs)
        return self

    async def close(self):
        if self.ws:
            await self.ws.close()
            self.ws = None

    async def send(self, obj):
        text = obj if isinstance(obj, str) else json.dumps(obj)
        await self.ws.send(text)

    async def _receive_one(self, timeout):
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        return msg

    async def expect(self, pred, what="a message", timeout=TIMEOUT):
        """The first message after the cursor for which pred holds; moves the cursor."""
        deadline = time.monotonic() + timeout
        while True:
            while self.cursor < len(self.messages):
                msg = self.messages[self.cursor]
                self.cursor += 1
                if pred(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label}: no {what} within {timeout} s; last: "
                                   f"{self.messages[-3:]}")
            try:
                await self._receive_one(left)
            except asyncio.TimeoutError:
                pass

    async def drain(self, seconds=0.2):
        """Read whatever arrives for a moment (for tests that check nothing more comes)."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                await self._receive_one(left)
            except asyncio.TimeoutError:
                return

    async def request(self, obj, reply_type):
        """Send obj with a fresh id; return the reply of reply_type (or the error) with it."""
        self.next_id += 1
        rid = f"{self.label}-{self.next_id}"
        obj = dict(obj, id=rid)
        await self.send(obj)
        return await self.expect(lambda m: m.get("id") == rid and m["t"] in (reply_type, "error"),
                                 f"reply to {obj['t']}")

    async def hello(self, token=None):
        msg = {"t": "hello", "proto": 1}
        if token:
            msg["token"] = token
        reply = await self.request(msg, "welcome")
        if reply["t"] == "welcome":
            self.user = reply["user"]
            self.token = reply.get("token", token)
        return reply

    def latest(self, game):
        """The latest snapshot or update for game."""
        for m in reversed(self.messages):
            if m.get("game") == game and m["t"] in ("snapshot", "update"):
                return m
        return None

    async def state_at(self, game, ply=None, v=None):
        """Wait for a snapshot/update of the started game at (at least) ply or version v."""
        def ok(m):
            if m.get("game") != game or m["t"] not in ("snapshot", "update"):
                return False
            if m["status"] == "open":
                return False
            if v is not None and m["v"] < v:
                return False
            return ply is None or m["ply"] >= ply or m["status"] in ("over", "aborted")
        latest = self.latest(game)
        if latest and ok(latest):
            return latest
        return await self.expect(ok, f"game {game} at ply {ply} v {v}")


async def identified(c):
    """True when the connection still has a user (a lobby request needs one)."""
    reply = await c.request({"t": "lobby", "watch": False}, "done")
    return reply["t"] == "done"


async def told_logged_out(checks, c, why=""):
    """c is sent logged-out and has no identity left (a lobby request is refused)."""
    out = await c.expect(lambda m: m["t"] == "logged-out", "logged-out")
    checks.eq(out["t"], "logged-out", f"{c.label} is told it is logged out{why}")
    reply = await c.request({"t": "lobby"}, "lobby")
    checks.eq(reply.get("code"), "no-identity", f"{c.label} has no identity left{why}")


async def login(server, label, name, password):
    """A new connection logged in as a registered player: (client, the login's reply)."""
    c = Client(server, label)
    await c.connect()
    await c.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
    reply = await c.request({"t": "login", "name": name, "password": password}, "welcome")
    if reply["t"] == "welcome":
        c.token, c.user = reply["token"], reply["user"]
    return c, reply


async def guest(server, label, origin=None, source=None):
    c = Client(server, label)
    await c.connect(origin=origin, source=source)
    reply = await c.hello()
    assert reply["t"] == "welcome", reply
    return c


async def account(server, label, name, password=PASSWORD):
    """A guest connection registered as name."""
    c = await guest(server, label)
    reply = await c.request({"t": "register", "name": name, "password": password}, "registered")
    assert reply["t"] == "registered", reply
    return c


def dump_frames(path, game, viewers):
    """Write every frame each client received as JSON lines {viewer, frame} for the checker:
    viewers is a list of (client, seat or -2 for the spectator). A frame that names another
    game is left out: a connection that watched two games in turn has each checked against
    its own game's referee (the other game's run of the checker sees it)."""
    with open(path, "w") as f:
        for client, viewer in viewers:
            for text in client.frames:
                if json.loads(text).get("game", game) != game:
                    continue
                f.write(json.dumps({"viewer": viewer, "game": game, "frame": text}) + "\n")


def run_checker(checks, checker, server, game, viewers, workdir, label):
    """Download the finished game's record and check every frame against the referee."""
    status, ctype, record = server.http(f"/api/v1/games/{game}/record")
    checks.eq(status, 200, f"{label}: record of game {game} downloads")
    rec_path = os.path.join(workdir, f"game-{game}.rec")
    with open(rec_path, "w") as f:
        f.write(record)
    frames_path = os.path.join(workdir, f"game-{game}.frames")
    dump_frames(frames_path, game, viewers)
    r = subprocess.run([checker, rec_path, frames_path], capture_output=True, text=True)
    checks.ok(r.returncode == 0, f"{label}: every frame matches the referee:\n"
                                 f"{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return rec_path


async def play_out(checks, game, players, rng, watchers=(), max_moves=5000, label=""):
    """Play game to its end with random legal moves from each seat's own list; players maps
    seat -> Client; every client in players and watchers is waited for after each move, so
    all of them receive every update. Returns the final state."""
    everyone = list(players.values()) + list(watchers)
    some = next(iter(players.values()))
    state = await some.state_at(game, ply=0)
    moves = 0
    while state["status"] == "live" and moves < max_moves:
        seat = state["to_move"]
        mover = players[seat]
        mine = await mover.state_at(game, ply=state["ply"])
        if mine["status"] != "live":
            # It ended before the client `state` came from heard of it: the mover's frame
            # is the final state.
            state = mine
            break
        checks.ok("legal" in mine and mine["legal"], f"{label}: seat {seat} is sent its moves")
        for other_seat, c in players.items():
            if other_seat != seat:
                theirs = await c.state_at(game, ply=state["ply"])
                checks.ok("legal" not in theirs,
                          f"{label}: seat {other_seat} gets no legal list off its turn")
        choice = rng.choice(mine["legal"])
        ack = await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                                   "move": choice["text"]}, "ack")
        if not checks.eq(ack["t"], "ack", f"{label}: move {choice['text']} at ply {mine['ply']}"):
            print(ack, file=sys.stderr)
            break
        moves += 1
        for c in everyone:
            state = await c.state_at(game, ply=mine["ply"] + 1)
    return state


def checker_catches_leaks(checks, checker, game, seat0, spectator, workdir, label, hidden):
    """The checker must fail on frames that leak, or it proves nothing: the spectator shown
    seat 0's view, and (in games with secrets) a name secret to the spectator at some ply
    slipped into a chat line it receives there. `hidden`: the game hides something from the
    spectator (`ramparts list --json`), so both tamperings must find a frame to change: a
    self-test that finds nothing to tamper with fails rather than pass (issue 48)."""
    record = os.path.join(workdir, f"game-{game}.rec")
    views0 = {}
    for text in seat0.frames:
        m = json.loads(text)
        if m.get("game") == game and "view" in m:
            views0[m["ply"]] = m["view"]

    def run(frames, what, because="frames line"):
        path = os.path.join(workdir, f"game-{game}-tampered.frames")
        with open(path, "w") as f:
            for text in frames:
                f.write(json.dumps({"viewer": -2, "game": game, "frame": text}) + "\n")
        r = subprocess.run([checker, record, path], capture_output=True, text=True)
        checks.ok(r.returncode == 1 and because in r.stderr,
                  f"{label}: the checker catches {what} (saying '{because}'):\n{r.stderr[-1500:]}")

    frames = list(spectator.frames)
    for i, text in enumerate(frames):
        m = json.loads(text)
        if m.get("game") == game and m.get("ply") in views0 and "view" in m \
                and m["view"] != views0[m["ply"]]:
            m["view"] = views0[m["ply"]]
            run(frames[:i] + [json.dumps(m)] + frames[i + 1:], "the spectator shown a seat's view")
            break
    else:
        checks.ok(not hidden, f"{label}: the self-test found a spectator view unlike seat 0's "
                              "to tamper with")
    listing = subprocess.run([checker, "--secrets", record, "-2"], capture_output=True,
                             text=True).stdout.split("\n")
    secret_at = {int(line.split()[0]): line.split()[1:] for line in listing if line.strip()}
    for i, text in enumerate(frames):
        m = json.loads(text)
        if m.get("game") == game and "view" in m and secret_at.get(m["ply"]):
            tamper_each_field(checks, run, game, frames, i, pick_secret(secret_at[m["ply"]]))
            return
    checks.ok(not hidden, f"{label}: the self-test found a secret of the spectator to slip in")


# The cards as the browser client shows them (web/client/src/games/*.js): cardTitle in
# king-of-danger.js, dwTitle in danger-at-the-walls.js, WARRIOR_NAMES in rush-the-wall.js,
# playingCardName in speech.js.
WARRIOR_NAMES = {"filchy": "Filchy", "qween": "Qween", "druhid": "Dru'hid", "zvord": "Zvord",
                 "archr": "Arch'r", "horsie": "Horsie", "axx": "Axx", "chariott": "Ch'ariott",
                 "laird": "Laird"}
PLAYING_CARD = re.compile(r"(10|[2-9JQKA])([CDHS])")
NUMBERED = re.compile(r"([a-z]+)-([0-9]+)")


def display_name(name):
    m = PLAYING_CARD.fullmatch(name)
    if m:
        ranks = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
        suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        return f"{ranks.get(m[1], m[1])} of {suits[m[2]]}"
    if name.startswith("king-of-"):
        return "King of " + name[len("king-of-"):].capitalize()
    if name in WARRIOR_NAMES:
        return WARRIOR_NAMES[name]
    if name == "attack":
        return "Cannon Attack"
    m = NUMBERED.fullmatch(name)
    return f"{m[1].capitalize()} {m[2]}" if m else name.capitalize()


def pick_secret(names):
    """A secret that no protocol field uses as a word (Danger at the Walls' "flag" card is also
    a cause kind), preferring one the game spells with a number ("walls-1", "7H")."""
    usable = [n for n in names if n not in ("flag", "draw", "claim", "open", "live", "over")]
    numbered = [n for n in usable if NUMBERED.fullmatch(n) or PLAYING_CARD.fullmatch(n)]
    return (numbered or usable or names)[0]


def tamper_each_field(checks, run, game, frames, i, name):
    """Frame i (a state with a view, where `name` is secret to the spectator) tampered once per
    way a secret could ride past a checker that reads only whole ids in string values: each must
    fail the checker, for the reason given (issue 48)."""
    def state_with(change):
        m = json.loads(frames[i])
        change(m)
        return frames[:i] + [json.dumps(m)] + frames[i + 1:]

    def after(message):
        return frames[:i + 1] + [json.dumps(message)] + frames[i + 1:]

    shown = display_name(name)
    run(after({"t": "chat", "game": game, "from": "x", "at": 0, "text": f"psst: {name}"}),
        f"the secret '{name}' sent in passing", "secret name")
    run(after({"t": "chat", "game": game, "from": "x", "at": 0, "text": f"psst: {shown}"}),
        f"the secret '{name}' spelled as the client shows it, '{shown}'", "secret name")
    run(state_with(lambda m: m["view"].update({"note": shown})),
        f"the secret '{name}' in the view itself", "secret name")
    run(state_with(lambda m: m["options"].update({name: True})),
        f"the secret '{name}' as an object key", "an object key")
    numbered, card = NUMBERED.fullmatch(name), PLAYING_CARD.fullmatch(name)
    if numbered:
        data = {"kind": numbered[1], "value": int(numbered[2])}
        run(state_with(lambda m: m["options"].update({"card": data})),
            f"the secret '{name}' as data {data}", "as data")
        run(state_with(lambda m: m["options"].update({numbered[1]: int(numbered[2])})),
            f"the secret '{name}' as a key and a number", "a key and a number")
    elif card:
        data = {"rank": int(card[1]) if card[1].isdigit() else card[1], "suit": card[2]}
        run(state_with(lambda m: m["options"].update({"card": data})),
            f"the secret '{name}' as data {data}", "as data")
    run(after({"t": "error", "code": name, "message": "no", "re": "move", "game": game}),
        f"the secret '{name}' as an error code", "vocabulary field 'code'")
    run(after({"t": "presence", "game": game, "seats": [{"seat": 0, "kind": shown}],
               "spectators": 1}),
        f"the secret '{name}' as a seat's kind", "vocabulary field 'kind'")
    run(state_with(lambda m: m.update({"peek": 1})), "an unknown field in a state",
        "unknown field 'peek'")
    run(after({"t": "whisper", "game": game}), "an unknown message of this game",
        "does not know")
