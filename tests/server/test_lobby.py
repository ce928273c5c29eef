"""Issue 49, finding 5: lobby flooding. 12 guests with 10 open games each pushed every real
open game out of the lobby, which showed the 100 newest. Now the lobby shows a page of 50,
the viewer's own games first, then every creator's newest game before anyone's second
(registered players' before guests' within a round, then the creators' ratings nearest the
viewer's, in bands of 100 points), paged with the cursor `more` gives; and
games waiting for players, seeks and challenges are limited per player and per address
(--max-open-games, --max-open-games-per-ip, --max-seeks, --max-seeks-per-ip,
--max-challenges, --max-challenges-per-ip). Each guest of the flood connects from its own
loopback address (127.0.0.N), as twelve people would, so the limits per address allow them."""

import asyncio

from rsclient import Checks, Client, Server, arguments, guest

PASSWORD = "a long passphrase for lobby tests"
PAGE = 50


def open_game():
    return {"t": "create", "type": "danger-at-the-walls", "seats": ["me", "open"]}


async def registered(server, name, source=None):
    c = await guest(server, name, source=source)
    r = await c.request({"t": "register", "name": name, "password": PASSWORD}, "registered")
    assert r["t"] == "registered", r
    return c


async def whole_lobby(viewer, checks):
    """Every open game the viewer's pages list, in order, following `more`."""
    first = await viewer.request({"t": "lobby"}, "lobby")
    seen = [g["game"] for g in first["open"]]
    pages, at = [first], first.get("more", {}).get("open")
    while at and len(pages) < 10:
        page = await viewer.request({"t": "lobby", "open_after": at}, "lobby")
        checks.ok(len(page["open"]) <= PAGE, f"a page holds at most {PAGE}")
        seen += [g["game"] for g in page["open"]]
        pages.append(page)
        at = page["more"]["open"]
    return first, seen


async def flood(checks, server):
    """One real open game (a registered player's, made first, so the oldest) and 12 x 10
    guests' games: the real one stays on every viewer's first page."""
    alice = await registered(server, "Alice", source="127.0.0.2")
    real = (await alice.request(open_game(), "created"))["game"]
    flooders = [await guest(server, f"flood{i}", source=f"127.0.0.{10 + i}") for i in range(12)]
    newest = {}
    for f in flooders:
        for _ in range(10):
            r = await f.request(open_game(), "created")
            checks.eq(r["t"], "created", f"{f.label}: ten open games from its own address")
            newest[f.label] = r.get("game")
    viewer = await guest(server, "viewer", source="127.0.0.3")
    first, seen = await whole_lobby(viewer, checks)
    page = [g["game"] for g in first["open"]]
    checks.eq(len(page), PAGE, f"the first page holds {PAGE} of the 121 open games")
    checks.eq(first["total"]["open"], 121, "total counts every open game")
    checks.ok(real in page, f"the real open game (the oldest) is on the first page: {page[:5]}")
    checks.eq(page[0], real, "a registered player's game comes before guests' in a round")
    checks.eq(set(page[1:13]), set(newest.values()),
              "then each flooder's newest game, one each, before anyone's second")
    checks.eq(sorted(seen), sorted(set(seen)), "paging gives no game twice")
    checks.eq(len(seen), 121, "paging with the cursor reaches every open game")
    own = (await viewer.request(open_game(), "created"))["game"]
    again = await viewer.request({"t": "lobby"}, "lobby")
    checks.eq(again["open"][0]["game"], own, "the viewer's own game comes first on its page")
    pushed = await alice.request({"t": "lobby"}, "lobby")
    checks.ok(own in [g["game"] for g in pushed["open"]] and pushed["open"][0]["game"] == real,
              "another viewer's page starts with their own game, and lists this one too")
    bad = await viewer.request({"t": "lobby", "open_after": "x"}, "lobby")
    checks.eq(bad.get("code"), "bad-message", "a cursor the lobby did not give is bad-message")
    checks.ok("open_after" in bad.get("message", ""), "the refusal names the field")
    for c in flooders + [alice, viewer]:
        await c.close()


async def open_game_limits(checks, server):
    """--max-open-games 2 --max-open-games-per-ip 3: a player's third is refused, and so is a
    second player's second from the same address; another address is not counted."""
    a = await guest(server, "limit-a", source="127.0.0.40")
    b = await guest(server, "limit-b", source="127.0.0.40")
    for _ in range(2):
        await a.request(open_game(), "created")
    third = await a.request(open_game(), "error")
    checks.eq(third.get("code"), "too-many", "a player's third game waiting for players")
    await b.request(open_game(), "created")
    more = await b.request(open_game(), "error")
    checks.eq(more.get("code"), "too-many", "the address's fourth game waiting for players")
    checks.ok("from your address" in more.get("message", ""),
              f"the refusal names the address: {more.get('message')}")
    other = await guest(server, "limit-c", source="127.0.0.41")
    r = await other.request(open_game(), "created")
    checks.eq(r["t"], "created", "another address is not counted")
    created = sum(1 for c in (a, b) for m in c.messages if m.get("t") == "created")
    checks.eq(created, 3, "the refusals created nothing")
    for c in (a, b, other):
        await c.close()


async def rated_win(winner, loser):
    """A rated Castle Danger game between two registered players that `loser` resigns once both
    have moved (a game resigned before both sides moved may not count, issue 49)."""
    game = (await winner.request(dict(open_game(), type="castle-danger", rated=True),
                                 "created"))["game"]
    await loser.request({"t": "join", "game": game}, "joined")
    moved, ply = set(), 0
    while len(moved) < 2 and ply < 200:
        states = [await c.state_at(game, ply=ply) for c in (winner, loser)]
        mover = next(c for c, st in zip((winner, loser), states) if st.get("legal"))
        st = states[(winner, loser).index(mover)]
        await mover.request({"t": "move", "game": game, "ply": st["ply"],
                             "move": st["legal"][0]["text"]}, "ack")
        moved.add(st["you"])
        ply = st["ply"] + 1
    await loser.request({"t": "resign", "game": game}, "done")


async def rating_nearness(checks, server):
    """Within a round and a class, the open games whose creator's rating is nearest the
    viewer's come first (bands of 100 points): a winner (about 1662) sees the other winner's
    game, then the new player's (1500), then the loser's (about 1338); a guest (1500) sees the
    new player's first."""
    w1, l1, w2, l2, fresh = [await registered(server, n, source=f"127.0.0.{70 + i}")
                             for i, n in enumerate(("Winner1", "Loser1", "Winner2", "Loser2",
                                                    "Fresh"))]
    await rated_win(w1, l1)
    await rated_win(w2, l2)
    ids = {}
    for who in (w1, fresh, l1):
        ids[who.label] = (await who.request(dict(open_game(), type="castle-danger"),
                                            "created"))["game"]
    page = await w2.request({"t": "lobby"}, "lobby")
    order = [g["game"] for g in page["open"]]
    want = [ids["Winner1"], ids["Fresh"], ids["Loser1"]]
    checks.eq([i for i in order if i in want], want,
              "a rated viewer sees the nearest rating first (a winner, 1500, a loser)")
    viewer = await guest(server, "unrated", source="127.0.0.79")
    page = await viewer.request({"t": "lobby"}, "lobby")
    checks.eq([g["game"] for g in page["open"]][0], ids["Fresh"],
              "a viewer without ratings sees the 1500 player's game first")
    for c in (w1, l1, w2, l2, fresh, viewer):
        await c.close()


def seek(type_):
    return {"t": "seek", "type": type_}


async def seek_limits(checks, server):
    """--max-seeks 1 --max-seeks-per-ip 2."""
    a = await guest(server, "seek-a", source="127.0.0.50")
    b = await guest(server, "seek-b", source="127.0.0.50")
    c = await guest(server, "seek-c", source="127.0.0.50")
    await a.request(seek("castle-danger"), "seeking")
    second = await a.request(seek("king-of-danger"), "error")
    checks.eq(second.get("code"), "too-many", "a player's second seek (--max-seeks 1)")
    await b.request(seek("rush-the-wall"), "seeking")
    third = await c.request(seek("walls-and-armies"), "error")
    checks.eq(third.get("code"), "too-many", "the address's third seek (--max-seeks-per-ip 2)")
    checks.ok("from your address" in third.get("message", ""),
              f"the refusal names the address: {third.get('message')}")
    d = await guest(server, "seek-d", source="127.0.0.51")
    r = await d.request(seek("walls-and-armies"), "seeking")
    checks.eq(r["t"], "seeking", "another address may seek")
    mine = await c.request({"t": "mine"}, "mine")
    checks.eq(mine.get("seeks"), [], "the refused seek was not made")
    for x in (a, b, c, d):
        await x.close()


def challenge(to):
    return {"t": "challenge", "op": "send", "to": to, "type": "castle-danger"}


async def challenge_limits(checks, server):
    """--max-challenges 1 --max-challenges-per-ip 2."""
    target = await registered(server, "Target", source="127.0.0.60")
    a = await registered(server, "Sender1", source="127.0.0.61")
    b = await registered(server, "Sender2", source="127.0.0.61")
    c = await registered(server, "Sender3", source="127.0.0.61")
    await a.request(challenge("Target"), "challenged")
    second = await a.request(challenge("Target"), "error")
    checks.eq(second.get("code"), "too-many", "a player's second challenge (--max-challenges 1)")
    await b.request(challenge("Target"), "challenged")
    third = await c.request(challenge("Target"), "error")
    checks.eq(third.get("code"), "too-many",
              "the address's third challenge (--max-challenges-per-ip 2)")
    checks.ok("from your address" in third.get("message", ""),
              f"the refusal names the address: {third.get('message')}")
    got = await target.request({"t": "mine"}, "mine")
    checks.eq(len(got["challenges"]["received"]), 2, "the refused challenge was not sent")
    for x in (target, a, b, c):
        await x.close()


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await flood(checks, server)
        await rating_nearness(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    server = Server(args.ramparts, extra=[
        "--rate", "100000", "--max-open-games", "2", "--max-open-games-per-ip", "3",
        "--max-seeks", "1", "--max-seeks-per-ip", "2", "--max-challenges", "1",
        "--max-challenges-per-ip", "2"]).start()
    try:
        await open_game_limits(checks, server)
        await seek_limits(checks, server)
        await challenge_limits(checks, server)
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
