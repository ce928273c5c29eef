"""Issue 49, finding 1: games against the computer are bounded, per player and per address.
One address once created 5,903 of them (each a search at every move and ~29 KB until it
expired). With `--max-ai-games 2 --max-ai-games-per-ip 3`: a player's third unfinished game
against the computer is refused (`too-many`), as is a rematch that would make it; finishing
one frees its place; a second guest from the same address (loopback here) is refused once the
address holds three; games between people are not counted. A refusal creates nothing.
And the same finding's 2.4 MB reply: GET /api/v1/games lists at most 50 games a list, newest
first, paged with before=ID and told by `more`; and its unlimited HTTP: with `--http-rate 10`
an address is answered 429 with Retry-After once past its budget, while /healthz, another
address and the WebSocket are still served."""

import asyncio
import http.client
import json

from rsclient import Checks, Server, arguments, guest


def against_ai():
    # Castle Danger waits for the person's move: the game stays unfinished until resigned.
    return {"t": "create", "type": "castle-danger", "seats": ["me", "ai:random"]}


async def created_games(client):
    return [m["game"] for m in client.messages if m.get("t") == "created"]


async def paged_lists(checks, server):
    """60 open games: the list comes in pages of 50, newest first, and says when more follow."""
    # Each host from its own address: 60 open games are more than one address may have.
    hosts = [await guest(server, f"host{i}", source=f"127.0.0.{20 + i}") for i in range(6)]
    for h in hosts:
        for _ in range(10):
            await h.request({"t": "create", "type": "danger-at-the-walls",
                             "seats": ["me", "open"]}, "created")
    ids = sorted((m["game"] for h in hosts for m in h.messages if m.get("t") == "created"),
                 reverse=True)
    status, first = server.http_json("/api/v1/games?status=open")
    got = [g["game"] for g in first.get("open", [])]
    checks.eq((status, got[:50]), (200, ids[:50]), "the first page: the 50 newest open games")
    checks.eq(len(got), 50, "a page holds 50")
    checks.eq(first.get("more"), {"open": True}, "more says that open games follow")
    status, second = server.http_json(f"/api/v1/games?status=open&before={got[-1]}")
    got2 = [g["game"] for g in second.get("open", [])]
    checks.eq([i for i in got2 if i in ids], ids[50:], "before=ID: the next page")
    checks.eq(got2, sorted(got2, reverse=True), "newest first on it too")
    checks.eq(second.get("more"), {"open": False}, "and nothing after it")
    status, everything = server.http_json("/api/v1/games")
    checks.eq(sorted(everything.get("more", {})), ["finished", "live", "open"],
              "every list says whether more follow")
    checks.ok(len(everything.get("open", [])) <= 50 and len(everything.get("live", [])) <= 50,
              "no list is longer than a page")
    for h in hosts:
        await h.close()


def get(server, path, source="127.0.0.1"):
    """(status, headers, body) of GET path from a loopback source address."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read().decode()
    finally:
        conn.close()


async def http_budget(checks, args):
    """Requests until the first 429 (the budget refills at 10 per 20 s: only a machine taking
    2 s a request would never meet one in 1,000)."""
    server = Server(args.ramparts, extra=["--http-rate", "10"]).start()
    try:
        statuses = []
        for _ in range(1000):
            status, headers, body = get(server, "/api/v1/types")
            statuses.append(status)
            if status == 429:
                break
        checks.eq(statuses[:10], [200] * 10, "a budget's worth of requests is answered")
        checks.eq(statuses[-1], 429, "then the address is refused with 429")
        checks.ok(int(headers.get("retry-after", headers.get("Retry-After", "0"))) >= 1,
                  f"the refusal says when to come back: {headers}")
        checks.eq(json.loads(body).get("error"), "rate-limited", "and why, as the API's errors do")
        checks.eq(get(server, "/healthz")[0], 200, "the health check is never refused")
        checks.eq(get(server, "/api/v1/types", source="127.0.0.2")[0], 200,
                  "another address has its own budget")
        player = await guest(server, "still-playing")
        created = await player.request({"t": "create", "type": "castle-danger",
                                        "seats": ["me", "open"]}, "created")
        checks.eq(created["t"], "created", "the WebSocket is not an HTTP request")
        await player.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the second server stops cleanly")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000", "--max-ai-games", "2",
                                          "--max-ai-games-per-ip", "3"]).start()
    try:
        a = await guest(server, "a")
        g1 = (await a.request(against_ai(), "created"))["game"]
        g2 = (await a.request(against_ai(), "created"))["game"]
        before = len(await created_games(a))
        refused = await a.request(against_ai(), "error")
        checks.eq(refused.get("code"), "too-many", "a player's third game against the AI")
        checks.ok("2 games against the computer" in refused.get("message", ""),
                  f"the refusal says how many: {refused.get('message')}")
        checks.eq(len(await created_games(a)), before, "the refusal created nothing")
        await a.request({"t": "resign", "game": g1}, "done")
        g3 = await a.request(against_ai(), "created")
        checks.eq(g3["t"], "created", "a resigned game frees its place")
        again = await a.request({"t": "rematch", "game": g1}, "error")
        checks.eq(again.get("code"), "too-many", "a rematch against the AI counts too")
        b = await guest(server, "b")
        h1 = await b.request(against_ai(), "created")
        checks.eq(h1["t"], "created", "another player from the address, under its limit")
        h2 = await b.request(against_ai(), "error")
        checks.eq(h2.get("code"), "too-many", "the address's fourth game against the AI")
        checks.ok("from your address" in h2.get("message", ""),
                  f"the refusal names the address: {h2.get('message')}")
        people = await b.request({"t": "create", "type": "castle-danger",
                                  "seats": ["me", "open"]}, "created")
        checks.eq(people["t"], "created", "a game between people is not counted")
        await a.request({"t": "resign", "game": g2}, "done")
        h3 = await b.request(against_ai(), "created")
        checks.eq(h3["t"], "created", "a game ended by one player frees the address's place")
        await a.close()
        await b.close()
        await paged_lists(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    await http_budget(checks, args)
    checks.finish()


asyncio.run(main())
