"""Games nobody comes back to (docs/server.md; issues 25 and 27): one server on SQLite with
`--expire 2`.

- An open game (a seek) stays while its creator is connected, even not watching it; once the
  creator has left the server it is aborted (reason `expired`) and leaves the lobby.
- A game against the AI its player stopped watching ends as `abandoned` (the player loses),
  its spectator told with cause `expire`; the record is stored like any finished game's and
  every frame the spectator received matches the referee.
- Never expired: a game against the AI with a correspondence clock, a game between people."""

import asyncio
import time

from rsclient import Checks, Server, arguments, guest, run_checker

EXPIRE_S = 2


async def until(client, pred, what, limit=60.0):
    """The first message client received (at any time) that pred accepts, waited for; the
    limit is a bound for a hang, never a measure of speed."""
    deadline = time.monotonic() + limit
    while True:
        for m in client.messages:
            if pred(m):
                return m
        if time.monotonic() > deadline:
            raise TimeoutError(f"{client.label}: no {what} within {limit} s")
        await client.drain(0.1)


def ended(game):
    return lambda m: (m.get("game") == game and m["t"] == "update"
                      and m["status"] in ("over", "aborted"))


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000", "--expire", str(EXPIRE_S)]).start()
    try:
        spectator = await guest(server, "spectator")
        # A seek whose creator stays connected, not watching it: kept.
        kept_by = await guest(server, "keeper")
        kept = (await kept_by.request({"t": "create", "type": "castle-danger",
                                       "seats": ["me", "open"]}, "created"))["game"]
        closed = await kept_by.request({"t": "close", "game": kept}, "closed")
        checks.eq(closed["t"], "closed", "the keeper stops watching the seek, still connected")
        # Games between people and correspondence games against the AI: never expired.
        human = await guest(server, "human")
        people = (await human.request({"t": "create", "type": "castle-danger",
                                       "seats": ["me", "open"]}, "created"))["game"]
        other = await guest(server, "other")
        await other.request({"t": "join", "game": people}, "joined")
        slow = (await human.request({"t": "create", "type": "castle-danger",
                                     "seats": ["me", "ai:random"],
                                     "clock": {"kind": "correspondence", "days": 1}},
                                    "created"))
        checks.eq(slow["t"], "created", "a correspondence game against the AI")
        # A game against the AI, then a seek, both left by their players.
        leaver = await guest(server, "leaver")
        ai_game = (await leaver.request({"t": "create", "type": "castle-danger",
                                         "seats": ["me", "ai:random"]}, "created"))["game"]
        seeker = await guest(server, "seeker")
        seek = (await seeker.request({"t": "create", "type": "castle-danger",
                                      "seats": ["me", "open"]}, "created"))["game"]
        for g in (ai_game, seek, kept, people, slow["game"]):
            await spectator.request({"t": "open", "game": g}, "snapshot")
        left_at = time.monotonic()
        await leaver.close()
        await seeker.close()
        await human.close()
        await other.close()

        over = await until(spectator, ended(ai_game), "the AI game's end")
        checks.ok(time.monotonic() - left_at >= EXPIRE_S,
                  "not ended before the delay (counted from the player's leaving)")
        checks.eq(over["status"], "over", "the game against the AI is over")
        checks.eq(over.get("cause", {}).get("kind"), "expire", "with cause expire")
        checks.eq(over.get("result", {}).get("reason"), "abandoned", "as abandoned")
        checks.eq(over.get("result", {}).get("returns"), [0, 1], "its player loses")
        aborted = await until(spectator, ended(seek), "the seek's end")
        checks.eq(aborted["status"], "aborted", "the seek whose creator left is aborted")
        checks.eq(aborted.get("cause", {}).get("kind"), "abort", "with cause abort")
        # Every game above was expirable before the two just ended, had it been expirable:
        # one more sweep, then they must all still be there.
        await spectator.drain(1.5)
        states = {g: spectator.latest(g) or {} for g in (kept, people, slow["game"])}
        checks.eq(states[kept].get("status"), "open", "the seek of a connected creator stays")
        checks.eq(states[people].get("status"), "live", "a game between people stays")
        checks.eq(states[slow["game"]].get("status"), "live",
                  "a correspondence game against the AI stays")
        lobby = await spectator.request({"t": "lobby"}, "lobby")
        listed = {g["game"] for g in lobby["open"] + lobby["live"]}
        checks.ok(seek not in listed and ai_game not in listed and kept in listed,
                  f"the lobby lists neither ended game: {sorted(listed)}")
        status, summary = server.http_json(f"/api/v1/games/{ai_game}")
        checks.eq((status, summary.get("status"), summary.get("result", {}).get("reason")),
                  (200, "over", "abandoned"), "the ended game's summary says so")
        status, finished = server.http_json("/api/v1/games?status=finished")
        checks.ok(ai_game in {g["id"] for g in finished.get("finished", [])},
                  "it is listed among the finished games, like any other")
        await kept_by.close()
        ended_kept = await until(spectator, ended(kept), "the kept seek's end")
        checks.eq(ended_kept["status"], "aborted", "the kept seek goes once its creator left")
        await spectator.drain(0.1)
        run_checker(checks, args.checker, server, ai_game, [(spectator, -2)], server.dir,
                    "expired game against the AI")
        await spectator.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    finally:
        if server.proc:
            server.kill9()
    checks.finish()


asyncio.run(main())
