"""Both event loops the server can run on (--event-loop libuv, the default where
libwebsockets' libuv plugin is installed, and poll, libwebsockets' own loop and the fallback):
on each, a whole game with a spectator, every frame checked against the referee; a flooding
client closed with 1008 and its reason (the close frame must reach the client: under libuv
Debian's libwebsockets once cut it); SIGTERM closing open clients with 1001 and exiting 0.
Then the option itself: a bad value is a usage error (exit 2) naming it, from the command
line or RAMPARTS_EVENT_LOOP."""

import asyncio
import json
import random
import subprocess
import tempfile
import time

import websockets

from rsclient import Checks, Server, arguments, guest, play_out, run_checker

LOG_NAMES = {"libuv": "libuv event loop", "poll": "poll(2) event loop"}


async def closed_code(client, message, limit):
    """Send message until the server closes the connection: (close code, reason, replies)."""
    replies = 0
    try:
        for _ in range(limit):
            await client.ws.send(json.dumps(message))
            await client._receive_one(60)  # a bound for a hang, not for speed
            replies += 1
    except websockets.ConnectionClosed as closed:
        return closed.code, closed.reason, replies
    return None, None, replies


async def on_loop(checks, args, loop):
    label = f"--event-loop {loop}"
    work = tempfile.mkdtemp(prefix=f"ramparts-loop-{loop}-")
    server = Server(args.ramparts, workdir=work,
                    extra=["--event-loop", loop, "--rate", "20"]).start()
    try:
        deadline = time.monotonic() + 60  # stdout's "listening on" comes before the log line
        while LOG_NAMES[loop] not in server.log() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        checks.ok(LOG_NAMES[loop] in server.log(), f"{label}: the log names the loop")
        alice, bob, eve = [await guest(server, n) for n in ("alice", "bob", "eve")]
        game = (await alice.request({"t": "create", "type": "walls-and-armies",
                                     "seats": ["me", "open"]}, "created"))["game"]
        await bob.request({"t": "join", "game": game}, "joined")
        await eve.request({"t": "open", "game": game}, "snapshot")
        final = await play_out(checks, game, {0: alice, 1: bob}, random.Random(7),
                               watchers=[eve], label=label, max_moves=18)
        checks.ok(final["ply"] >= 1, f"{label}: moves were played ({final['ply']})")
        if final["status"] == "live":
            done = await alice.request({"t": "resign", "game": game}, "done")
            checks.eq(done["t"], "done", f"{label}: alice resigns the rest")
        over = await eve.expect(lambda m: m.get("game") == game and m.get("status") == "over",
                                "the game over") if final["status"] == "live" else final
        checks.eq(over["status"], "over", f"{label}: the spectator sees the game end")
        for c in (alice, bob):
            await c.expect(lambda m: m.get("game") == game and m.get("status") == "over",
                           "the game over") if c.latest(game)["status"] != "over" else None
        run_checker(checks, args.checker, server, game, [(alice, 0), (bob, 1), (eve, -2)], work,
                    label)

        flood = await guest(server, "flood")
        code, reason, replies = await closed_code(flood, {"t": "lobby", "watch": False}, 200)
        checks.eq(code, 1008, f"{label}: a flooding client is closed with 1008")
        checks.ok(reason and "rate" in reason, f"{label}: the close says why ({reason!r})")
        checks.ok(replies >= 10, f"{label}: it was answered until then ({replies})")

        waiting = await guest(server, "waiting")
        rc = await asyncio.to_thread(server.stop)
        checks.eq(rc, 0, f"{label}: SIGTERM drains and exits 0")
        try:
            await asyncio.wait_for(waiting.ws.recv(), 10)
            code = None
        except websockets.ConnectionClosed as closed:
            code = closed.code
        checks.eq(code, 1001, f"{label}: an open client is closed with 1001 (going away)")
    finally:
        await asyncio.to_thread(server.stop)


def bad_option(checks, args):
    with tempfile.TemporaryDirectory() as work:
        db = f"{work}/server.db"
        r = subprocess.run([args.ramparts, "serve", "--listen", "127.0.0.1:0", "--db", db,
                            "--event-loop", "epoll"], capture_output=True, text=True, timeout=30)
        checks.eq(r.returncode, 2, "--event-loop epoll is a usage error")
        checks.ok("--event-loop epoll" in r.stderr and "libuv" in r.stderr,
                  f"the error names the option and the choices ({r.stderr.strip()!r})")
        r = subprocess.run([args.ramparts, "serve", "--listen", "127.0.0.1:0", "--db", db],
                           capture_output=True, text=True, timeout=30,
                           env={"RAMPARTS_EVENT_LOOP": "select", "PATH": "/usr/bin:/bin"})
        checks.eq(r.returncode, 2, "RAMPARTS_EVENT_LOOP=select is a usage error")
        checks.ok("select" in r.stderr, f"the error names the value ({r.stderr.strip()!r})")
        r = subprocess.run([args.ramparts, "serve", "--help"], capture_output=True, text=True,
                           timeout=30)
        checks.ok("--event-loop" in r.stdout, "--help lists --event-loop")


async def main():
    args = arguments()
    checks = Checks()
    for loop in ("libuv", "poll"):
        await on_loop(checks, args, loop)
    bad_option(checks, args)
    checks.finish()


if __name__ == "__main__":
    asyncio.run(main())
