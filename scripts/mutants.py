#!/usr/bin/env python3
"""mutants.py — a small mutation run over each game's src/games/GAME/rules.c (make mutants, run
by make soak): one small change at a time (a comparison flipped, && and || swapped, a negation
dropped, a constant moved by one), each built and run against that game's test program and the
conformance test; prints the mutants that no test kills.

usage: scripts/mutants.py [--games a,b] [--max N] [--seed S] [--dir build-mutants] [--sanitize]
A mutant is killed when a test program fails (or runs past --timeout seconds: a mutant can loop
for ever); one that does not compile is stillborn and counted apart. The source is copied into
DIR/tree and built in DIR/build, so the working tree is never changed. Exit 1 when a mutant
survives that docs/testing.md does not list as equivalent ("equivalent: GAME:LINE: FROM -> TO").
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (pattern, replacement) pairs applied at one site each. The comparisons are matched with
# spaces around, as clang-format writes them, so a pointer's -> or a shift is never one.
OPERATORS = [
    (" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "),
    (" == ", " != "), (" != ", " == "), (" && ", " || "), (" || ", " && "),
]
NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
NEGATION = re.compile(r"(?<![\w)\]])!(?=[\w(])")


def code_part(line):
    """The line without its comment and string literals (nothing is mutated there); None for a
    preprocessor line or a comment's continuation."""
    stripped = line.strip()
    if stripped.startswith(("#", "*", "/*", "//")):
        return None
    line = re.sub(r'"(\\.|[^"\\])*"', lambda m: " " * len(m.group(0)), line)
    line = re.sub(r"'(\\.|[^'\\])'", lambda m: " " * len(m.group(0)), line)
    for mark in ("//", "/*"):
        if mark in line:
            line = line[:line.index(mark)]
    return line


def mutants_of(lines):
    """Every (line index, description, new line) of the file."""
    out = []
    for i, line in enumerate(lines):
        code = code_part(line)
        if code is None or not code.strip():
            continue
        # a table's initializer or an array's size is data, not a rule's logic: leave it
        if re.match(r"\s*(static\s+)?(const\s+)?\w+(\s+const)?\s*\**\s*\w+\s*\[", code):
            continue
        for old, new in OPERATORS:
            for m in re.finditer(re.escape(old), code):
                out.append((i, f"'{old.strip()}' -> '{new.strip()}'",
                            line[:m.start()] + new + line[m.end():]))
        for m in NEGATION.finditer(code):
            out.append((i, "'!' dropped", line[:m.start()] + line[m.end():]))
        for m in NUMBER.finditer(code):
            value = int(m.group(1))
            for moved in (value + 1, value - 1):
                if moved >= 0:
                    out.append((i, f"{value} -> {moved}",
                                line[:m.start()] + str(moved) + line[m.end():]))
    return out


def run(cmd, cwd=None, timeout=None):
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def equivalents():
    """The mutants docs/testing.md lists as equivalent, as "GAME:LINE: FROM -> TO" keys."""
    path = os.path.join(ROOT, "docs", "testing.md")
    found = set()
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            m = re.search(r"equivalent: (\S+:\d+: .*?)(?: —|$)", line.strip())
            if m:
                found.add(m.group(1).strip())
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(sorted(os.listdir(os.path.join(ROOT, "src",
                                                                                 "games")))))
    ap.add_argument("--max", type=int, default=40, help="mutants per game (a seeded sample)")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--dir", default=os.path.join(ROOT, "build-mutants"))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--sanitize", action="store_true",
                    help="build with ASan+UBSan as make test does (slower; kills mutants that "
                         "only read or write out of bounds)")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if os.path.isdir(os.path.join(ROOT, "src", "games", g))]
    tree, build = os.path.join(args.dir, "tree"), os.path.join(args.dir, "build")
    # The committed tree and the working tree's changes, without build directories. A file is
    # copied only where its content differs, and then with a new time: a copy that kept an
    # older time would leave a mutant of an earlier, interrupted run in the build unnoticed.
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for f in filter(None, files):
        source, copy = os.path.join(ROOT, f), os.path.join(tree, f)
        if not os.path.isfile(source):
            continue
        with open(source, "rb") as a:
            content = a.read()
        if os.path.isfile(copy):
            with open(copy, "rb") as b:
                if b.read() == content:
                    continue
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with open(copy, "wb") as b:
            b.write(content)
    # Every game's rules.c written anew (test_conformance plays them all): a build left with a
    # mutant by an interrupted run compiles the real one again.
    for rules in glob.glob(os.path.join(tree, "src", "games", "*", "rules.c")):
        with open(rules, "rb") as b:
            content = b.read()
        with open(rules, "wb") as b:
            b.write(content)
    rc, out = run(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Debug",
                   f"-DRP_SANITIZE={'ON' if args.sanitize else 'OFF'}"])
    if rc != 0:
        sys.exit(f"cmake failed:\n{out[-3000:]}")
    known = equivalents()
    totals = {"killed": 0, "survived": 0, "stillborn": 0}
    unexplained = []
    for game in games:
        program = "test_" + game.replace("-", "_")
        targets = [program, "test_conformance"]
        rules = os.path.join(tree, "src", "games", game, "rules.c")
        original = open(rules, encoding="utf-8").read()
        lines = original.split("\n")
        rc, out = run(["cmake", "--build", build, "-j", args.jobs, "--target"] + targets)
        if rc != 0:
            sys.exit(f"{game}: the unmutated tests do not build:\n{out[-3000:]}")
        for t in targets:
            rc, out = run([os.path.join(build, t)], cwd=build, timeout=args.timeout)
            if rc != 0:
                sys.exit(f"{game}: {t} fails before any mutation:\n{out[-3000:]}")
        every = mutants_of(lines)
        chosen = sorted(random.Random(f"{args.seed}:{game}").sample(every, min(args.max,
                                                                              len(every))))
        counts = {"killed": 0, "survived": 0, "stillborn": 0}
        try:
            for i, what, new_line in chosen:
                mutated = lines[:i] + [new_line] + lines[i + 1:]
                with open(rules, "w", encoding="utf-8") as f:
                    f.write("\n".join(mutated))
                key = f"{game}:{i + 1}: {what}"
                rc, out = run(["cmake", "--build", build, "-j", args.jobs, "--target"] + targets)
                if rc != 0:
                    counts["stillborn"] += 1
                    print(f"stillborn {key}", flush=True)
                    continue
                verdict = "survived"
                for t in targets:
                    rc, _ = run([os.path.join(build, t)], cwd=build, timeout=args.timeout)
                    if rc != 0:
                        verdict = f"killed by {t}" + (" (timeout)" if rc == "timeout" else "")
                        break
                counts["killed" if verdict != "survived" else "survived"] += 1
                print(f"{verdict.upper() if verdict == 'survived' else verdict} {key}"
                      f"    {new_line.strip()}", flush=True)
                if verdict == "survived" and key not in known:
                    unexplained.append(key)
        finally:
            with open(rules, "w", encoding="utf-8") as f:
                f.write(original)
        print(f"{game}: {len(chosen)} of {len(every)} mutants: {counts['killed']} killed, "
              f"{counts['survived']} survived, {counts['stillborn']} did not compile", flush=True)
        for k in totals:
            totals[k] += counts[k]
    print(f"all: {totals['killed']} killed, {totals['survived']} survived, "
          f"{totals['stillborn']} did not compile; {len(unexplained)} surviving mutants not "
          "listed as equivalent in docs/testing.md" + "".join(f"\n  {k}" for k in unexplained))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
