#!/usr/bin/env python3
"""server_seeds.py — writes the seed corpus of fuzz_server_messages (tests/fuzz/corpus/
server-messages): for each game, a script where two guests create, join and play legal
moves (read from the server's own replies, through the target's RS_FUZZ_ECHO mode), then
chat, offer, take back, resign, rematch; plus an AI game, an account, and hostile lines.
The games are the registry's (`ramparts list --json` of RAMPARTS, by default the ramparts
next to the fuzz binary).
Usage: server_seeds.py FUZZ-OR-REPLAY-BINARY OUT-FOLDER [RAMPARTS]"""
import json
import os
import subprocess
import sys



def registry_games(ramparts):
    """Every game id the tool knows, in the registry's order."""
    out = subprocess.run([ramparts, "list", "--json"], capture_output=True, text=True,
                         check=True).stdout
    return [g["id"] for g in json.loads(out)]


def run(binary, lines):
    """The server's replies to a script: a list of (conn, message)."""
    path = os.path.join(OUT, ".probe")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    env = dict(os.environ, RS_FUZZ_ECHO="1")
    out = subprocess.run([binary, path], env=env, capture_output=True, text=True).stdout
    os.unlink(path)
    sent = []
    for line in out.splitlines():
        conn, _, text = line.partition(" ")
        if conn.isdigit() and text.startswith("{"):
            sent.append((int(conn), json.loads(text)))
    return sent


def legal_for_mover(sent):
    """The latest message carrying legal moves: (conn, game, ply, moves)."""
    for conn, m in reversed(sent):
        if m.get("t") in ("snapshot", "update") and m.get("legal"):
            return conn, m["game"], m["ply"], [e["text"] for e in m["legal"]]
    return None


def game_script(binary, game, plies):
    lines = ['0{"t":"hello","proto":1,"id":1}', '1{"t":"hello","proto":1,"id":1}',
             '0{"t":"create","type":"%s","seats":["me","open"],"id":2}' % game,
             '1{"t":"join","game":1,"id":2}']
    for i in range(plies):
        found = legal_for_mover(run(binary, lines))
        if not found:
            break
        conn, gid, ply, moves = found
        move = moves[(i * 7) % len(moves)]
        lines.append('%d{"t":"move","game":%d,"ply":%d,"move":%s,"id":%d}'
                     % (conn - 1, gid, ply, json.dumps(move), 10 + i))
    return lines


def main():
    global OUT
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    binary, OUT = sys.argv[1], sys.argv[2]
    ramparts = sys.argv[3] if len(sys.argv) == 4 else os.path.join(
        os.path.dirname(os.path.abspath(binary)), "ramparts")
    os.makedirs(OUT, exist_ok=True)
    seeds = {}
    for game in registry_games(ramparts):
        lines = game_script(binary, game, 12)
        seeds["game-" + game] = lines
        seeds["extras-" + game] = lines[:8] + [
            '0{"t":"chat","game":1,"text":"good luck"}',
            '1{"t":"takeback","game":1,"op":"offer"}', '0{"t":"takeback","game":1,"op":"accept"}',
            '0{"t":"draw","game":1,"op":"offer"}', '1{"t":"draw","game":1,"op":"accept"}',
            '2{"t":"hello","proto":1}', '2{"t":"open","game":1,"v":1}',
            '-\x01', '1{"t":"hello","proto":1}', '+\xff', '+\xff', '0{"t":"claim","game":1}',
            '0{"t":"resign","game":1}', '1{"t":"rematch","game":1}', '0{"t":"lobby"}',
            '0{"t":"close","game":1}', '0{"t":"logout"}']
        seeds["ai-" + game] = [
            '0{"t":"hello","proto":1}',
            '0{"t":"create","type":"%s","seats":["me","ai:random"],'
            '"clock":{"kind":"live","initial_ms":60000,"increment_ms":1000}}' % game,
            '*', '+\x10', '0{"t":"open","game":1,"v":0}']
    seeds["account"] = ['0{"t":"hello","proto":1}',
                        '0{"t":"register","name":"Alice","password":"wonderland!"}', '*',
                        '1{"t":"hello","proto":1,"guest":false}',
                        '1{"t":"login","name":"alice","password":"wonderland!"}', '*',
                        '1{"t":"login","name":"alice","password":"wrong-password"}']
    seeds["hostile"] = ['{"t":"move","game":1,"ply":0,"move":"x"}', '0[1,2,3]', '0{"t":',
                        '0{"t":"hello","proto":99}', '0{"t":"hello","proto":1,"token":"forged"}',
                        '0{"t":"hello","proto":1}', '0{"t":"nope"}',
                        '0{"t":"create","type":"rush-the-wall","seats":["me","open"],'
                        '"options":{"cards":"/etc/passwd"}}',
                        '0{"t":"create","type":"castle-danger","seats":["me","ai:--threads 64"]}',
                        '0{"t":"join","game":99}', '0{"t":"chat","game":1,"text":"\\u0001"}',
                        '0{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{}}}}}}}}}}',
                        '0{"t":"move","game":"1","ply":-1,"move":7}']
    for name, lines in seeds.items():
        with open(os.path.join(OUT, name), "w", encoding="latin-1") as f:
            f.write("\n".join(lines) + "\n")
    print("wrote %d seeds to %s" % (len(seeds), OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
