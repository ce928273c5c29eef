"""A Swiss on one server with a withdrawal and a late entry (issue 44; docs/tournaments.md):
9 players over 3 rounds; after round 1 one player withdraws and another enters late, before
round 2 is paired (round 1's last game is held until both are stored). Checked against the
stored pairings and a computation of the test's own (tourlib.py): the withdrawn player is in
no later pairing and the late one in no earlier one; no repeat pairing, a bye at most once
each, first moves balanced within one; the standings and tie-breaks equal the independent
computation, where the late entrant's round 1 and the withdrawn player's rounds 2 and 3 count
as unplayed rounds against a dummy opponent with the player's own points (FIDE C.07 Art.
16). Once it is over, an entry or a withdrawal is refused (`not-open`) and changes
nothing."""

import asyncio

from rsclient import Checks, Server, account, arguments
from tourlib import (Bot, finished, op, pairing_checks, results_of, standings,
                     standings_checks, swiss_entered)

ENTRANTS = 9
ROUNDS = 3


async def late_entry(checks, server):
    organiser = await account(server, "organiser", "Organiser")
    bots = [await Bot(server, f"bot{i}").connect() for i in range(ENTRANTS + 1)]
    entrants, late = bots[:ENTRANTS], bots[ENTRANTS]
    number = await swiss_entered(checks, organiser, "Late Swiss", ROUNDS, entrants)

    # Round 1 is played out except one game, held until the withdrawal and the late entry
    # are stored, so that both come after round 1 and before round 2 is paired.
    chosen, release = asyncio.Event(), asyncio.Event()
    held = {}

    async def hold(bot, rnd, game):
        if rnd == 1:
            await chosen.wait()
            if game == held["game"]:
                await release.wait()

    withdrawn = asyncio.Event()

    async def after(bot, rnd, game):
        """The leaver, once its game of round 1 is over, withdraws and plays no more."""
        if bot.name != held.get("leaver") or rnd != 1:
            return False
        for _ in range(1200):  # a bound for a hang
            t = await standings(bot, number)
            if [p["games_done"] for p in t["pairings"] if p.get("game") == game or
                    (p["round"] == 1 and bot.name in p["players"])] == [1]:
                break
            await asyncio.sleep(0.1)
        checks.eq(t["round"], 1, "round 1 is still being played (its held game)")
        checks.eq((await bot.request(op("withdraw", number), "done"))["t"], "done",
                  f"{bot.name} withdraws after round 1")
        withdrawn.set()
        return True

    tasks = {b: asyncio.create_task(b.play(number, hold, after)) for b in entrants}
    checks.eq((await organiser.request(op("start", number), "done"))["t"], "done", "started")
    first = await standings(organiser, number)
    boards = [p for p in first["pairings"] if p["round"] == 1 and len(p["players"]) == 2]
    checks.eq(len(boards), ENTRANTS // 2, "round 1: 4 games and a bye")
    held["game"] = boards[0]["game"]
    held["leaver"] = boards[1]["players"][0]
    leaver = next(b for b in entrants if b.name == held["leaver"])
    chosen.set()
    await asyncio.wait_for(withdrawn.wait(), 600)
    checks.eq((await late.request(op("join", number), "done"))["t"], "done",
              f"{late.name} enters late, before round 2")
    tasks[late] = asyncio.create_task(late.play(number, hold))
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks.values()), 600)
    over = await finished(organiser, number)

    checks.eq((over["status"], over["round"]), ("over", ROUNDS), f"over after {ROUNDS} rounds")
    by_round = pairing_checks(checks, over, "late entry")
    for rnd, ps in by_round.items():
        seated = {n for p in ps for n in p["players"]}
        checks.ok((leaver.name in seated) == (rnd == 1),
                  f"round {rnd}: the withdrawn player is paired in round 1 only")
        checks.ok((late.name in seated) == (rnd > 1),
                  f"round {rnd}: the late entrant is paired from round 2 on")
        checks.eq(len(seated), ENTRANTS, f"round {rnd}: every active player paired (9)")
    entries = [(b.name, 1500.0) for b in bots]  # unrated guests: join order is the seed
    results = results_of(checks, bots, over, "late entry")
    standings_checks(checks, over, entries, results, "late entry")
    lines = {line["name"]: line for line in over["standings"]}
    checks.eq((lines[leaver.name]["active"], lines[leaver.name]["played"]), (False, 1),
              "the withdrawn player: inactive, one game played")
    late_line = lines[late.name]
    checks.eq(late_line["played"] + late_line["byes"], ROUNDS - 1,
              "the late entrant: rounds 2 and 3 played (or a bye), round 1 not")
    # Art. 16: round 1 counts in the late entrant's Buchholz as a dummy opponent with its
    # own points (the full line is checked above; this is the rule on its own).
    opponents = sum(lines[n]["points"] for p in over["pairings"] if late.name in p["players"]
                    and len(p["players"]) == 2 for n in p["players"] if n != late.name)
    byes = late_line["byes"]
    checks.eq(late_line["buchholz"], opponents + (1 + byes) * late_line["points"],
              "the late entrant's round 1 counts its own points in its Buchholz")
    # Over, it takes no entry and no withdrawal: either would change its final standings.
    newcomer = await Bot(server, "newcomer").connect()
    checks.eq((await newcomer.request(op("join", number), "done")).get("code"), "not-open",
              "no entry into a tournament that is over")
    checks.eq((await late.request(op("withdraw", number), "done")).get("code"), "not-open",
              "no withdrawal from a tournament that is over")
    checks.eq(await standings(organiser, number), over, "and its standings stay as they were")
    for b in bots:
        await b.client.drain(0.2)
        checks.eq(sorted(set(b.games) - set(b.pushed(number))), [],
                  f"{b.name} was told of each of its games by `paired`")


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    try:
        await late_entry(checks, server)
    finally:  # in a thread: the bots answer the server's closing handshakes meanwhile
        await asyncio.to_thread(server.stop)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
