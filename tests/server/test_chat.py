"""Issue 49, finding 7: any guest could chat in any game, live or finished, to its players,
with no mute. Now a game's players and its spectators chat apart (as on lichess): each line
reaches its own channel only, live and after the end, in pushes and in snapshots; a player
mutes an author (their lines no longer reach that player, snapshots included, until unmuted);
a player's chat-switch turns the game's chat off for everyone (stored: it holds after a
restart); bidi and zero-width controls are left out of lines, and names cannot hold them.
Absence is checked after a ping: the server answers a connection's requests in order, so a
line sent to it before the ping would have come first."""

import asyncio

from rsclient import PASSWORD, Checks, Server, arguments, guest

BIDI = "\u202e\u2066\u200b\u200d\ufeff"


async def synced(c):
    """Everything the server sent c until now (a ping's pong comes after it)."""
    await c.request({"t": "ping"}, "pong")
    return c.messages


def lines(messages, text):
    return [m for m in messages if m.get("t") == "chat" and m.get("text") == text]


async def say(c, game, text):
    r = await c.request({"t": "chat", "game": game, "text": text}, "done")
    assert r["t"] == "done", r
    return r


async def channels(checks, game, alice, bob, carol, dave):
    await say(alice, game, "players only")
    got = await bob.expect(lambda m: m.get("t") == "chat", "alice's line")
    checks.eq((got["text"], got.get("channel"), got["from"]),
              ("players only", "players", alice.user["name"]), "a player's line reaches a player")
    for s in (carol, dave):
        checks.eq(lines(await synced(s), "players only"), [],
                  f"{s.label}: a spectator does not get the players' line")
    await say(carol, game, "spectators only")
    got = await dave.expect(lambda m: m.get("t") == "chat" and m["text"] == "spectators only",
                            "carol's line")
    checks.eq(got.get("channel"), "spectators", "a spectator's line reaches a spectator")
    for p in (alice, bob):
        checks.eq(lines(await synced(p), "spectators only"), [],
                  f"{p.label}: a player does not get the spectators' line")


async def snapshots(checks, server, game, alice):
    eve = await guest(server, "eve")
    snap = await eve.request({"t": "open", "game": game}, "snapshot")
    checks.eq(([c["text"] for c in snap["chat"]], snap["chat_channel"], snap["chat_on"]),
              (["spectators only"], "spectators", True),
              "a spectator's snapshot holds the spectators' lines only")
    again = await alice.request({"t": "open", "game": game}, "snapshot")
    checks.eq(([c["text"] for c in again["chat"]], again["chat_channel"]),
              (["players only"], "players"), "a player's snapshot holds the players' lines only")
    await eve.close()


async def mutes(checks, game, alice, bob):
    await alice.request({"t": "mute", "game": game, "name": bob.user["name"]}, "done")
    await say(bob, game, "muted line")
    checks.eq(len(lines(await synced(bob), "muted line")), 1, "the author still sees his line")
    checks.eq(lines(await synced(alice), "muted line"), [], "a muted author's line is not sent")
    snap = await alice.request({"t": "open", "game": game}, "snapshot")
    checks.ok("muted line" not in [c["text"] for c in snap["chat"]],
              "nor is it in the muting player's snapshot")
    await alice.request({"t": "mute", "game": game, "name": bob.user["name"], "mute": False},
                        "done")
    await say(bob, game, "heard again")
    got = await alice.expect(lambda m: m.get("t") == "chat" and m["text"] == "heard again",
                             "the unmuted line")
    checks.eq(got["from"], bob.user["name"], "unmuted, the author's lines come again")


async def invisible(checks, game, alice, bob):
    await say(alice, game, f"a{BIDI}b")
    got = await bob.expect(lambda m: m.get("t") == "chat" and m["text"].startswith("a"),
                           "the cleaned line")
    checks.eq(got["text"], "ab", "bidi and zero-width controls are left out of a line")
    only = await alice.request({"t": "chat", "game": game, "text": BIDI}, "done")
    checks.eq(only.get("code"), "bad-text", "a line of nothing else is bad-text")
    name = await alice.request({"t": "register", "name": "Ali\u202ece", "password": PASSWORD},
                               "registered")
    checks.eq(name.get("code"), "bad-name", "a name cannot hold a bidi control")


async def switch(checks, game, alice, bob, carol):
    await alice.request({"t": "chat-switch", "game": game, "on": False}, "done")
    for c in (bob, carol):
        told = await c.expect(lambda m: m.get("t") == "chat-switch", "the switch")
        checks.eq((told["on"], told["by"]), (False, alice.user["name"]),
                  f"{c.label} is told the chat is off, and by whom")
    for c in (bob, carol):
        r = await c.request({"t": "chat", "game": game, "text": "still there?"}, "done")
        checks.eq(r.get("code"), "chat-off", f"{c.label}: no line while the chat is off")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        alice, bob, carol, dave = [await guest(server, n) for n in ("alice", "bob", "carol",
                                                                      "dave")]
        game = (await alice.request({"t": "create", "type": "castle-danger",
                                     "seats": ["me", "open"]}, "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        for s in (carol, dave):
            await s.request({"t": "open", "game": game}, "snapshot")
        await channels(checks, game, alice, bob, carol, dave)
        await snapshots(checks, server, game, alice)
        await mutes(checks, game, alice, bob)
        await invisible(checks, game, alice, bob)
        await alice.request({"t": "resign", "game": game}, "done")
        await say(carol, game, "after the end")
        checks.eq(lines(await synced(bob), "after the end"), [],
                  "after the end the players still do not get the spectators' lines")
        await switch(checks, game, alice, bob, carol)
        for c in (alice, bob, carol, dave):
            await c.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
        server.start()
        later = await guest(server, "later")
        snap = await later.request({"t": "open", "game": game}, "snapshot")
        checks.eq(snap.get("chat_on"), False, "the switch is stored: off after a restart")
        checks.eq([c["text"] for c in snap.get("chat", [])], ["spectators only", "after the end"],
                  "a finished game's spectator reads the spectators' lines only")
        r = await later.request({"t": "chat", "game": game, "text": "anyone?"}, "done")
        checks.eq(r.get("code"), "chat-off", "and refused lines after the restart too")
        await later.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server drains and exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
