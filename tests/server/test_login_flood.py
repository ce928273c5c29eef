"""Logins under a flood from one address (issue 49, finding 2: 62 sockets from one address once
made an unrelated user's login take 10 s, or `busy` once 256 hashes queued).

A server with its default limits (2 hashing threads, 4 password checks waiting or running per
address, 30 failed logins per 10 minutes per address). 40 sockets from 127.0.0.1 each send
logins to names nobody has, one after another, without pause. Once the flood is refused
(`busy`, its address's share of the queue full), a client at 127.0.0.2 logs into its own
account with the right password. It must be answered `welcome`, and the flood must still be
going then: its sockets receive refusals (`busy`, or `rate-limited` once its failures pile up)
after the login was sent, i.e. the unrelated login was served while the flooder's requests
were refused. No assertion is about time: each wait is for a message, with a generous bound
that only catches a hang. On the old server every flood request was queued (no `busy` from
an address's share, no back-off), so the first check fails there."""

import asyncio
import time

from rsclient import PASSWORD, Checks, Client, Server, arguments

SOCKETS = 40
FLOOD_ADDRESS, OTHER_ADDRESS = "127.0.0.1", "127.0.0.2"


class Flood:
    """The flooder's sockets and every answer they got, in the order they got them."""

    def __init__(self):
        self.answers = []  # (sequence number, code or type)
        self.stop = asyncio.Event()
        self.refused = asyncio.Event()  # set at the first busy or rate-limited

    def note(self, reply):
        code = reply.get("code") if reply["t"] == "error" else reply["t"]
        self.answers.append(code)
        if code in ("busy", "rate-limited"):
            self.refused.set()

    async def hammer(self, client, n):
        i = 0
        while not self.stop.is_set():
            i += 1
            reply = await client.request(
                {"t": "login", "name": f"flood{n}x{i}", "password": f"guess-{n}-{i}"}, "welcome")
            self.note(reply)
            if reply.get("code") in ("busy", "rate-limited"):
                await asyncio.sleep(0.05)  # refused at once: keep the test's own load down


async def main():
    args = arguments()
    checks = Checks()
    server = Server(args.ramparts, extra=["--rate", "100000"]).start()
    flooders = []
    try:
        owner = Client(server, "owner")
        await owner.connect(source=OTHER_ADDRESS)
        await owner.hello()
        reg = await owner.request({"t": "register", "name": "Patient", "password": PASSWORD},
                                  "registered")
        checks.eq(reg["t"], "registered", "the unrelated user's account")
        await owner.close()

        flood = Flood()
        for n in range(SOCKETS):
            c = Client(server, f"flood{n}")
            await c.connect(source=FLOOD_ADDRESS)
            await c.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
            flooders.append(c)
        tasks = [asyncio.create_task(flood.hammer(c, n)) for n, c in enumerate(flooders)]
        await asyncio.wait_for(flood.refused.wait(), 120)
        checks.ok("busy" in flood.answers,
                  "the flood from one address is refused busy once its share of the queue is "
                  f"full (answers so far: {sorted(set(flood.answers))})")

        patient = Client(server, "patient")
        await patient.connect(source=OTHER_ADDRESS)
        await patient.request({"t": "hello", "proto": 1, "guest": False}, "welcome")
        sent_at = len(flood.answers)
        started = time.monotonic()  # a figure printed, never asserted
        reply = await patient.request({"t": "login", "name": "patient", "password": PASSWORD},
                                      "welcome")
        served_at = len(flood.answers)
        waited_s = time.monotonic() - started
        hashed_meanwhile = flood.answers[sent_at:served_at].count("bad-login")
        checks.eq(reply["t"], "welcome",
                  "the unrelated address's login is served during the flood")
        # The flood goes on: refusals to it keep coming after the login was answered.
        deadline = asyncio.get_running_loop().time() + 120
        while (not any(a in ("busy", "rate-limited") for a in flood.answers[served_at:])
               and asyncio.get_running_loop().time() < deadline):
            await asyncio.sleep(0.05)
        checks.ok(any(a in ("busy", "rate-limited") for a in flood.answers[served_at:]),
                  "the flooder is still refused after the unrelated login was answered "
                  f"({served_at - sent_at} flood answers while it waited)")
        flood.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        refused = sum(a in ("busy", "rate-limited") for a in flood.answers)
        checks.ok(refused > 0 and "bad-login" in flood.answers,
                  f"flood: {len(flood.answers)} answers, {refused} refused, "
                  f"{flood.answers.count('bad-login')} checked and wrong")
        print(f"flood: {len(flood.answers)} answers ({flood.answers.count('busy')} busy, "
              f"{flood.answers.count('rate-limited')} rate-limited, "
              f"{flood.answers.count('bad-login')} bad-login); the unrelated login took "
              f"{waited_s:.2f} s, while {hashed_meanwhile} flood passwords were checked")
    finally:
        for c in flooders:
            await c.close()
        checks.eq(await asyncio.to_thread(server.stop), 0, "the server exits 0 on SIGTERM")
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
