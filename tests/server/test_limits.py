"""Issue 49, finding 1: games against the computer are bounded, per player and per address.
One address once created 5,903 of them (each a search at every move and ~29 KB until it
expired). With `--max-ai-games 2 --max-ai-games-per-ip 3`: a player's third unfinished game
against the computer is refused (`too-many`), as is a rematch that would make it; finishing
one frees its place; a second guest from the same address (loopback here) is refused once the
address holds three; games between people are not counted. A refusal creates nothing."""

import asyncio

from rsclient import Checks, Server, arguments, guest


def against_ai():
    # Castle Danger waits for the person's move: the game stays unfinished until resigned.
    return {"t": "create", "type": "castle-danger", "seats": ["me", "ai:random"]}


async def created_games(client):
    return [m["game"] for m in client.messages if m.get("t") == "created"]


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
    finally:
        checks.eq(server.stop(), 0, "the server drains and exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
