"""tournaments.py — `ramparts tournaments` against a real server (issue 44): a `ramparts serve`
on a free loopback port with a fresh database, tournaments created and played over the
WebSocket (tests/server/rsclient.py), then the command's table and --json output checked
against the HTTP API's answer: the list, one tournament's standings and pairings, a
scheduled start shown in local time, a name's control characters never reaching the
terminal, colour only on a terminal and never with NO_COLOR; and its errors: no server, no
such tournament (exit 1), a bad ID, URL or option (exit 2)."""
import asyncio
import json
import os
import re
import socket
import socketserver
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from harness import Checks, Terminal  # noqa: E402
from rsclient import Server, account  # noqa: E402

RAMPARTS = sys.argv[1]
ENV = dict(os.environ, TZ="UTC")
ENV.pop("NO_COLOR", None)
ENV.pop("RAMPARTS_SERVER", None)


def run(*args, env=None):
    r = subprocess.run([RAMPARTS, "tournaments", *args], capture_output=True, text=True,
                       env=env or ENV, timeout=120)
    return r.returncode, r.stdout, r.stderr


def free_port():
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def op(name, number):
    return {"t": "tournament", "op": name, "tournament": number}


async def next_game(c, tournament, known):
    """c's next `paired` for a game of the tournament not in known, received before or after
    its cursor (a push may come before the reply to what caused it)."""
    def wanted(m):
        return (m["t"] == "paired" and m.get("tournament") == tournament
                and m["game"] not in known)
    m = next((m for m in c.messages if wanted(m)), None)
    m = m or await c.expect(wanted, f"{c.label}'s next game", 120)
    known.add(m["game"])
    return m


async def make_tournaments(server):
    """A Swiss of 4 over 2 rounds, round 1 played (each board's seat 0 resigns) and round 2
    being played; a set; one starting in an hour, with the computer as its house player; one
    whose name holds an escape sequence."""
    players = [await account(server, f"p{i}", name)
               for i, name in enumerate(("Ann", "Ben", "Cat", "Dan"))]
    ann = players[0]

    async def create(**fields):
        msg = {"t": "tournament", "op": "create", "type": "castle-danger", **fields}
        reply = await ann.request(msg, "tournament")
        assert reply["t"] == "tournament", reply
        return reply["tournament"]["id"]

    swiss = await create(name="Sunday Swiss", format="swiss", rounds=2,
                         options={"tournament": 1},
                         clock={"kind": "live", "initial_ms": 300000, "increment_ms": 2000})
    await create(name="A set", format="sets")
    later = await create(name="Later", format="swiss", rounds=3, starts_in=3600,
                         computer="easy")
    evil = await create(name="Evil\x1b[2J\x07name", format="swiss", rounds=1)
    for c in players:
        await c.request(op("join", swiss), "done")
    await players[1].request(op("join", later), "done")
    reply = await ann.request(op("start", swiss), "done")
    assert reply["t"] == "done", reply
    known = {c: set() for c in players}
    for round_number in (1, 2):
        seen = {}
        for c in players:
            m = await next_game(c, swiss, known[c])
            seen.setdefault(m["game"], []).append((m["seat"], c))
        if round_number == 2:
            break  # round 2 stays in play: a pairing with its game being played
        for game, seats in seen.items():
            loser = min(seats, key=lambda s: s[0])[1]
            reply = await loser.request({"t": "resign", "game": game}, "done")
            assert reply["t"] == "done", reply
    return swiss, later, evil


def api(server, path):
    status, _, body = server.http(path)
    return status, json.loads(body)


def check_usage(checks):
    rc, out, _ = run("--help")
    checks.expect(rc == 0 and out.startswith("usage: ramparts tournaments"),
                  f"--help: {rc} {out!r}")
    for args, reason in ((["x"], "ID x: expected a whole number"),
                         (["0"], "ID 0: expected a whole number"),
                         (["-3"], "ID -3: expected a whole number"),
                         (["1", "2"], "one tournament at a time"),
                         (["--bogus"], "unknown option '--bogus'"),
                         (["--server"], "--server needs a value"),
                         (["--server", "ftp://h"], "expected http://HOST"),
                         (["--server", "http://h:99999"], "expected http://HOST"),
                         (["--server", "https://example.org"], "https is not supported")):
        rc, out, err = run(*args)
        checks.expect(rc == 2 and reason in err and not out,
                      f"{args}: exit 2 naming it ({reason}): {rc} {err!r} {out!r}")
    port = free_port()
    rc, out, err = run("--server", f"http://127.0.0.1:{port}")
    checks.expect(rc == 1 and f"cannot reach http://127.0.0.1:{port}" in err and not out,
                  f"no server: exit 1 saying so: {rc} {err!r}")


EMPTY = b'{"tournaments":[]}'
REFUSAL = b'{"error":"unavailable","message":"cannot read the tournaments"}'
CANNED = {  # a fake server's answers by path prefix: the ways HTTP/1.x may frame a reply
    "/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"7\r\n" + EMPTY[:7] + b"\r\n" + f"{len(EMPTY) - 7:x}".encode() + b"\r\n"
                + EMPTY[7:] + b"\r\n0\r\n\r\n",
    "/close": b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + EMPTY,
    "/error": b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: %d\r\n\r\n%s"
              % (len(REFUSAL), REFUSAL),
    "/short": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + EMPTY,
    "/garbage": b"SSH-2.0-OpenSSH\r\n\r\n",
}


class Canned(socketserver.StreamRequestHandler):
    def handle(self):
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            byte = self.rfile.read(1)
            if not byte:
                return
            head += byte
        self.server.requests.append(head.decode())
        path = head.split(b" ")[1].decode()
        self.wfile.write(next(v for k, v in CANNED.items() if path.startswith(k)))


def check_framing(checks):
    """The HTTP client against a fake server: a chunked reply, one ended by the close, an
    error status with the API's message, a reply cut short, an answer that is not HTTP."""
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Canned) as fake:
        fake.requests = []
        threading.Thread(target=fake.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{fake.server_address[1]}"
        for prefix in ("/chunked", "/close"):
            rc, out, err = run("--server", base + prefix + "/")
            checks.expect(rc == 0 and out == "No tournaments.\n", f"{prefix}: {rc} {out!r} {err!r}")
            rc, out, err = run("--server", base + prefix, "--json")
            checks.expect(rc == 0 and out == EMPTY.decode() + "\n", f"{prefix} --json: {out!r}")
        checks.expect(fake.requests[0].startswith("GET /chunked/api/v1/tournaments HTTP/1.1\r\n")
                      and f"\r\nHost: 127.0.0.1:{fake.server_address[1]}\r\n" in fake.requests[0],
                      f"the request: the path under the prefix, the host: {fake.requests[0]!r}")
        for prefix, said in (("/error", "answered 503: cannot read the tournaments"),
                             ("/short", "the answer is not HTTP"),
                             ("/garbage", "the answer is not HTTP")):
            rc, out, err = run("--server", base + prefix)
            checks.expect(rc == 1 and said in err and not out, f"{prefix}: exit 1, {said}: "
                                                               f"{rc} {err!r}")
        fake.shutdown()


def list_lines(out):
    return [line for line in out.splitlines() if line]


def check_list(checks, server, later):
    url = server.url
    status, body = api(server, "/api/v1/tournaments")
    checks.expect(status == 200 and len(body["tournaments"]) == 4, f"the API lists 4: {body}")
    rc, out, err = run("--server", url, "--json")
    checks.expect(rc == 0 and json.loads(out) == body, f"--json is the API's list: {err!r}")
    rc, out, err = run("--server", url)
    lines = list_lines(out)
    checks.expect(rc == 0 and lines[0].split() == ["ID", "STATUS", "ROUND", "PLAYERS", "GAME",
                                                   "FORMAT", "START", "NAME"],
                  f"the list's heading: {rc} {err!r} {out!r}")
    checks.expect(len(lines) == 1 + len(body["tournaments"]), f"a line a tournament: {out!r}")
    for t, line in zip(body["tournaments"], lines[1:]):
        round_text = (f"{t['round']}/{t['rounds']}" if t["format"] == "swiss"
                      else str(t["round"]))
        start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t["starts_ms"] / 1000))
        if t["status"] == "open" and t["starts_ms"] <= t["created_ms"]:
            start = "by its creator"
        want = (rf"^{t['id']}\s+{t['status']}\s+{re.escape(round_text)}\s+{t['entries']}\s+"
                rf"{re.escape(t['title'])}\s+{t['format']}: .*\s{re.escape(start)}\s+")
        checks.expect(re.match(want, line), f"tournament {t['id']}'s line: {line!r} !~ {want}")
        if t["id"] == later:
            checks.expect(line.endswith(" Later") and "UTC" in line,
                          f"the scheduled one shows its start time in TZ: {line!r}")
            rc, full, _ = run(str(later), "--server", url)
            start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t["starts_ms"] / 1000))
            checks.expect(rc == 0 and f"  Starts: {start}, by itself" in full.splitlines()
                          and "  House player: the computer (easy), in each round whose "
                              "people are an odd number" in full.splitlines(),
                          f"its start time and house player in full: {full!r}")
    evil = [line for line in lines if "Evil" in line]
    checks.expect(evil and evil[0].endswith("Evil?[2J?name") and "\x1b" not in out
                  and "\x07" not in out,
                  f"a name's control characters are shown as '?': {evil!r}")
    rc, out2, _ = run(env=dict(ENV, RAMPARTS_SERVER=url))
    checks.expect(rc == 0 and out2 == out, "RAMPARTS_SERVER names the server")


def check_one(checks, server, swiss):
    url = server.url
    status, body = api(server, f"/api/v1/tournaments/{swiss}")
    checks.expect(status == 200, f"the API has tournament {swiss}")
    rc, out, err = run(str(swiss), "--server", url, "--json")
    checks.expect(rc == 0 and json.loads(out) == body, f"--json is the API's tournament: {err!r}")
    rc, out, err = run(str(swiss), "--server", url)
    checks.expect(rc == 0 and "\x1b" not in out, f"the tables, without colour through a pipe: "
                                                 f"{rc} {err!r}")
    lines = out.splitlines()
    checks.expect(lines[0] == f"Sunday Swiss (tournament {swiss})", f"the title: {lines[:1]}")
    checks.expect("  Game: Castle Danger (tournament=1); 2 players a game; live, 5 min + 2 s; "
                  "unrated" in lines, f"the game's terms: {lines[:6]}")
    checks.expect("  Status: running, round 2 of 2; 4 players" in lines, f"the status: {lines[:6]}")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(body["starts_ms"] / 1000))
    checks.expect(f"  Started: {started}" in lines, f"when it started: {lines[:7]}")
    start = lines.index("Standings")
    checks.expect(lines[start + 1].split() == ["RANK", "POINTS", "BUCHHOLZ", "SONN-BER",
                                               "DIRECT", "PLAYED", "BYES", "NAME"],
                  f"the standings' heading: {lines[start + 1]!r}")
    for s, line in zip(body["standings"], lines[start + 2:]):
        direct = f"{s['direct']:g}" if "direct" in s else "-"
        want = [f"{s['rank']}", f"{s['points']:g}", f"{s['buchholz']:g}",
                f"{s['sonneborn_berger']:g}", direct, f"{s['played']}", f"{s['byes']}",
                s["name"]]
        checks.expect(line.split() == want, f"standing {s['rank']}: {line!r}, expected {want}")
    checks.expect(sum(s["points"] for s in body["standings"]) == 2, "round 1's two wins count")
    for r in (1, 2):
        at = lines.index(f"Round {r}")
        pairings = [p for p in body["pairings"] if p["round"] == r]
        checks.expect(len(pairings) == 2, f"round {r}: two boards in the API")
        for p, line in zip(pairings, lines[at + 2:]):
            points = "-".join(f"{x:g}" for x in p["points"])
            want = (rf"^\s*{p['board']}\s+{p['games_done']}/1\s+{points}\s+"
                    rf"{p['players'][0]} - {p['players'][1]}")
            if "game" in p:
                want += rf"  \(game {p['game']} being played\)"
            checks.expect(re.match(want + "$", line), f"round {r} board {p['board']}: "
                                                      f"{line!r} !~ {want}")
    rc, out, err = run("424242", "--server", url)
    checks.expect(rc == 1 and f"{url} has no tournament 424242" in err and not out,
                  f"no such tournament: exit 1 saying so: {rc} {err!r}")


def check_colour(checks, server, swiss):
    """Bold headings on a terminal; none with NO_COLOR."""
    argv = [RAMPARTS, "tournaments", str(swiss), "--server", server.url]
    for env, bold in (({"TERM": "xterm"}, True), ({"TERM": "xterm", "NO_COLOR": "1"}, False)):
        term = Terminal(argv, env=dict(ENV, **env))
        rc = term.wait(120)
        text = term.output.decode(errors="replace")
        checks.expect(rc == 0 and ("\x1b[1mStandings\x1b[0m" in text) == bold
                      and ("\x1b" in text) == bold,
                      f"on a terminal with {env}: bold {bold}: {rc} {text[:200]!r}")


async def main():
    checks = Checks()
    check_usage(checks)
    check_framing(checks)
    server = Server(RAMPARTS, extra=["--rate", "100000"]).start()
    try:
        rc, out, err = run("--server", server.url)
        checks.expect(rc == 0 and out == "No tournaments.\n", f"none at first: {out!r} {err!r}")
        swiss, later, _ = await make_tournaments(server)
        check_list(checks, server, later)
        check_one(checks, server, swiss)
        check_colour(checks, server, swiss)
    finally:
        checks.expect(await asyncio.to_thread(server.stop) == 0, "the server stops cleanly")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
