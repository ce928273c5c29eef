""""My games" (`mine`, docs/server-protocol.md; issue 41) on one server: the unfinished games a
player is seated in and no others, the ones waiting for them first by deadline, `waiting`
counting them; pushed again when a move changes whose turn it is; a finished game leaves the
list; `watch: false` stops the pushes (answered `done`)."""

import asyncio

from rsclient import Checks, Server, arguments, guest

GAME = "castle-danger"


async def live_game(creator, joiner, clock=None):
    """A started two-player game: (id, the creator's seat)."""
    msg = {"t": "create", "type": GAME, "seats": ["me", "open"]}
    if clock:
        msg["clock"] = clock
    game = (await creator.request(msg, "created"))["game"]
    await joiner.request({"t": "join", "game": game}, "joined")
    return game, 0


async def turn_to(game, seat, players):
    """Moves are played (the first legal one) until it is `seat`'s turn; the state then."""
    state = await players[0].state_at(game, ply=0)
    while state["to_move"] != seat:
        mover = players[state["to_move"]]
        mine = await mover.state_at(game, ply=state["ply"])
        await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                             "move": mine["legal"][0]["text"]}, "ack")
        state = await players[seat].state_at(game, ply=mine["ply"] + 1)
    return state


async def play_one(game, players):
    """The seat to move plays its first legal move; the ply after it."""
    state = await players[0].state_at(game, ply=0)
    mover = players[state["to_move"]]
    mine = await mover.state_at(game, ply=state["ply"])
    await mover.request({"t": "move", "game": game, "ply": mine["ply"],
                         "move": mine["legal"][0]["text"]}, "ack")
    return mine["ply"] + 1


def ids(m):
    return [g["game"] for g in m["games"]]


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        alice = await guest(server, "alice")
        bob = await guest(server, "bob")
        carol = await guest(server, "carol")
        empty = await alice.request({"t": "mine"}, "mine")
        checks.eq((empty["games"], empty["waiting"], empty["challenges"], empty["seeks"],
                   empty["settings"]),
                  ([], 0, {"received": [], "sent": []}, [], {"challenges": True}),
                  "a new player's list is empty, challenges allowed")
        # Alice to move in two correspondence games (2 days and 1 day per move), Bob to move
        # in a live-clock game, an untimed game with Carol, an open game of her own, and games
        # she is not seated in.
        slow, _ = await live_game(alice, bob, {"kind": "correspondence", "days": 2})
        fast, _ = await live_game(alice, bob, {"kind": "correspondence", "days": 1})
        timed, _ = await live_game(alice, bob, {"kind": "live", "initial_ms": 3600000})
        untimed, _ = await live_game(carol, alice)
        waiting_for_players = (await alice.request(
            {"t": "create", "type": GAME, "seats": ["me", "open"]}, "created"))["game"]
        others, _ = await live_game(bob, carol)
        finished, _ = await live_game(alice, carol)
        await alice.request({"t": "resign", "game": finished}, "done")
        ab = {0: alice, 1: bob}
        await turn_to(slow, 0, ab)
        await turn_to(fast, 0, ab)
        await turn_to(timed, 1, ab)
        await turn_to(untimed, 1, {0: carol, 1: alice})
        mine = await alice.request({"t": "mine"}, "mine")
        listed = ids(mine)
        checks.eq(sorted(listed), sorted([slow, fast, timed, untimed, waiting_for_players]),
                  "every unfinished game Alice is seated in, and no other")
        checks.eq(listed[:2], [fast, slow],
                  "the games waiting for her first, the soonest deadline first")
        checks.eq(listed[2], untimed, "her other turn without a clock after those")
        checks.eq(mine["waiting"], 3, "waiting counts the games waiting for her")
        by_id = {g["game"]: g for g in mine["games"]}
        checks.eq([by_id[g]["your_turn"] for g in (fast, slow, untimed, timed)],
                  [True, True, True, False], "your_turn says whose turn it is")
        checks.eq((by_id[slow]["seat"], by_id[untimed]["seat"]), (0, 1), "her seat in each")
        checks.ok("deadline_ms" in by_id[fast] and "deadline_ms" in by_id[timed]
                  and "deadline_ms" not in by_id[untimed]
                  and "deadline_ms" not in by_id[waiting_for_players],
                  "a deadline where a clock runs, none elsewhere")
        gap = by_id[slow]["deadline_ms"] - by_id[fast]["deadline_ms"]
        checks.ok(86400000 - 60000 < gap < 86400000 + 60000,
                  f"the deadlines are a day apart: {gap}")
        checks.eq((by_id[slow]["type"], by_id[slow]["status"], by_id[waiting_for_players]["status"]),
                  (GAME, "live", "open"), "each entry is the lobby's entry")
        bob_mine = await bob.request({"t": "mine"}, "mine")
        checks.eq(bob_mine["waiting"], 2, "Bob waits in two games (the live clock; Carol's)")
        checks.eq(ids(bob_mine)[:2], [timed, others], "the one with a clock first in his list")
        # A move: Alice's turn in `fast` ends, it is Bob's; both watch, both are pushed.
        await play_one(fast, ab)
        pushed = await alice.expect(lambda m: m["t"] == "mine" and "id" not in m
                                    and m["waiting"] == 2, "Alice's list pushed after her move")
        checks.eq(ids(pushed)[:2], [slow, untimed], "Alice's list: fast is no longer first")
        checks.ok(not {g["game"]: g for g in pushed["games"]}[fast]["your_turn"],
                  "fast is now Bob's turn in her list")
        bob_pushed = await bob.expect(lambda m: m["t"] == "mine" and "id" not in m
                                      and m["waiting"] == 3, "Bob's list pushed")
        checks.eq(sorted(ids(bob_pushed)[:3]), sorted([timed, fast, others]),
                  "Bob waits in three now")
        # The game ends: it leaves both lists (it is in the history).
        await bob.request({"t": "resign", "game": fast}, "done")
        gone = await alice.expect(lambda m: m["t"] == "mine" and "id" not in m
                                  and fast not in ids(m), "the finished game leaves her list")
        checks.eq(gone["waiting"], 2, "her waiting count is unchanged")
        await bob.expect(lambda m: m["t"] == "mine" and "id" not in m and fast not in ids(m),
                         "and Bob's")
        # Not watching: done, and no more pushes.
        stop = await carol.request({"t": "mine", "watch": False}, "done")
        checks.eq((stop["t"], stop.get("re")), ("done", "mine"), "watch false is answered done")
        await carol.request({"t": "resign", "game": untimed}, "done")
        await alice.expect(lambda m: m["t"] == "mine" and "id" not in m
                           and untimed not in ids(m), "Alice's list without the game")
        await carol.drain(0.5)
        checks.ok(not [m for m in carol.messages if m["t"] == "mine"],
                  "Carol, who never watched, gets no list")
        bad = await alice.request({"t": "mine", "watch": 3}, "mine")
        checks.eq(bad.get("code"), "bad-message", "watch must be a boolean")
        for c in (alice, bob, carol):
            await c.close()
    finally:
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


asyncio.run(main())
