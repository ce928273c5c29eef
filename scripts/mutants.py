#!/usr/bin/env python3
"""mutants.py — a small mutation run over each game's src/games/GAME/rules.c (make mutants; a
fixed sample of it ends make soak): one small change at a time (a comparison flipped, && and ||
swapped, a negation dropped, a constant moved by one), each built and run against that game's
test program and the conformance test; prints the mutants that no test kills.

usage: scripts/mutants.py [--games a,b] [--max N] [--seed S] [--dir build-mutants] [--sanitize]
       scripts/mutants.py --check-list
A mutant is killed when a test program fails (or runs past its time limit, ten times its
unmutated time: a mutant can loop for ever); one that does not compile is stillborn and counted
apart. The source is copied into DIR/tree and built in DIR/build, so the working tree is never
changed. docs/testing.md lists the equivalent mutants, each with its reason, as
"- equivalent: GAME:LINE: FROM -> TO on `the line's code` — why". Exit 1 when a mutant survives
that the list does not hold, when a listed one is killed (the list is wrong), or when an entry
names no mutant of today's rules.c (a stale entry); --check-list checks only the entries.
"""
import argparse
import glob
import os
import random
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "docs", "testing.md")

# (pattern, replacement) pairs applied at one site each. The comparisons are matched with
# spaces around, as clang-format writes them, so a pointer's -> or a shift is never one.
OPERATORS = [
    (" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "),
    (" == ", " != "), (" != ", " == "), (" && ", " || "), (" || ", " && "),
]
NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
NEGATION = re.compile(r"(?<![\w)\]])!(?=[\w(])")
ENTRY = re.compile(r"^- equivalent: (?P<game>[\w-]+):(?P<line>\d+): (?P<what>.+?) on "
                   r"`(?P<code>[^`]+)` — (?P<reason>\S.*)$")


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


def sites_of(line, code):
    """Every (description, new line) of one line of code, left to right within each kind."""
    out = []
    for old, new in OPERATORS:
        for m in re.finditer(re.escape(old), code):
            out.append((f"'{old.strip()}' -> '{new.strip()}'",
                        line[:m.start()] + new + line[m.end():]))
    for m in NEGATION.finditer(code):
        out.append(("'!' dropped", line[:m.start()] + line[m.end():]))
    for m in NUMBER.finditer(code):
        value = int(m.group(1))
        for moved in (value + 1, value - 1):
            if moved >= 0:
                out.append((f"{value} -> {moved}", line[:m.start()] + str(moved) + line[m.end():]))
    return out


def mutants_of(lines):
    """Every (line index, description, new line) of the file. A description that a line holds
    more than once (two '<' on one line) is numbered, "'<' -> '<=' #2", so each names one site."""
    out = []
    for i, line in enumerate(lines):
        code = code_part(line)
        if code is None or not code.strip():
            continue
        # a table's initializer or an array's size is data, not a rule's logic: leave it
        if re.match(r"\s*(static\s+)?(const\s+)?\w+(\s+const)?\s*\**\s*\w+\s*\[", code):
            continue
        sites = sites_of(line, code)
        whats = [what for what, _ in sites]
        seen = {}
        for what, new_line in sites:
            seen[what] = seen.get(what, 0) + 1
            if whats.count(what) > 1:
                what = f"{what} #{seen[what]}"
            out.append((i, what, new_line))
    return out


def rules_lines(game, root=ROOT):
    path = os.path.join(root, "src", "games", game, "rules.c")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def equivalents(root=ROOT):
    """The equivalent mutants the list holds, as {"GAME:LINE: WHAT": code}, and its problems: a
    malformed entry, or one that names no mutant of today's rules.c (stale)."""
    known, problems = {}, []
    entries, inside = [], False  # each list item whole: its first line and those indented
    with open(os.path.join(root, "docs", "testing.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("- equivalent:"):
                entries.append(line.strip())
                inside = True
            elif inside and line.startswith("  ") and line.strip():
                entries[-1] += " " + line.strip()
            else:
                inside = False
    for entry in entries:
        m = ENTRY.match(entry)
        if not m:
            problems.append(f"malformed (want '- equivalent: GAME:LINE: FROM -> TO on `code` — "
                            f"reason'): {entry}")
            continue
        game, number, what, code = m["game"], int(m["line"]), m["what"], m["code"]
        key = f"{game}:{number}: {what}"
        lines = rules_lines(game, root)
        if lines is None:
            problems.append(f"stale: {key}: no game {game}")
            continue
        here = lines[number - 1].strip() if 0 < number <= len(lines) else None
        if here != code:
            moved = [str(i + 1) for i, line in enumerate(lines) if line.strip() == code]
            problems.append(f"stale: {key}: line {number} reads `{here}`, not `{code}`" +
                            (f" (that code is now at line {', '.join(moved)})" if moved else ""))
            continue
        if not any(i == number - 1 and w == what for i, w, _ in mutants_of(lines)):
            problems.append(f"stale: {key}: line {number} has no mutant {what}")
            continue
        known[key] = code
    return known, problems


def run(cmd, cwd=None, timeout=None, env=None):
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def run_tests(programs, cwd, limits, env):
    """Run the test programs side by side (two cores); the verdict of the first that fails, the
    others then stopped (each in its own process group, ended by its id), or None if all pass.
    A program past its limit counts as failing (an endless loop)."""
    procs = {t: subprocess.Popen([os.path.join(cwd, t)], cwd=cwd, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True) for t in programs}
    start, verdict = time.monotonic(), None
    try:
        while procs and verdict is None:
            for t, p in list(procs.items()):
                rc = p.poll()
                if rc is None and time.monotonic() - start > limits[t]:
                    verdict = f"killed by {t} (past its {limits[t]:.0f} s limit)"
                elif rc is not None:
                    del procs[t]
                    if rc != 0:
                        verdict = f"killed by {t}"
                if verdict:
                    break
            time.sleep(0.05)
    finally:
        for p in procs.values():
            if p.poll() is None:
                os.killpg(p.pid, 9)
            p.wait()
    return verdict


def baseline(programs, cwd, env):
    """Run the unmutated programs side by side; exit if one fails (every mutant would then be
    "killed"). Returns each one's time limit: ten times its time, and a minute more."""
    limits = {}
    started = {t: (time.monotonic(), subprocess.Popen(
        [os.path.join(cwd, t)], cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)) for t in programs}
    for t, (start, p) in started.items():
        out, _ = p.communicate()
        if p.returncode != 0:
            sys.exit(f"{t} fails before any mutation:\n{out[-3000:]}")
        limits[t] = 60 + 10 * (time.monotonic() - start)
    return limits


def copy_tree(tree):
    """The committed tree and the working tree's changes, without build directories, into tree.
    A file is copied only where its content differs, and then with a new time: a copy that kept
    an older time would leave a mutant of an earlier, interrupted run in the build unnoticed.
    Every game's rules.c is written anew (test_conformance plays them all), so a build left
    with a mutant by an interrupted run compiles the real one again."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for f in filter(None, files):
        source, copy = os.path.join(ROOT, f), os.path.join(tree, f)
        if not os.path.isfile(source):
            continue
        with open(source, "rb") as a:
            content = a.read()
        if os.path.isfile(copy) and not copy.endswith("/rules.c"):
            with open(copy, "rb") as b:
                if b.read() == content:
                    continue
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with open(copy, "wb") as b:
            b.write(content)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    every_game = sorted(g for g in os.listdir(os.path.join(ROOT, "src", "games"))
                        if rules_lines(g) is not None)
    ap.add_argument("--games", default=",".join(every_game))
    ap.add_argument("--max", type=int, default=40, help="mutants per game (a seeded sample)")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--dir", default=os.path.join(ROOT, "build-mutants"))
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--sanitize", action="store_true",
                    help="build with ASan+UBSan as make test does (kills mutants that only "
                         "read or write out of bounds)")
    ap.add_argument("--mutant", action="append", default=[], metavar="KEY",
                    help="run this mutant (GAME:LINE: WHAT, as printed) instead of a sample; "
                         "repeatable")
    ap.add_argument("--check-list", action="store_true",
                    help="only check docs/testing.md's list of equivalent mutants")
    args = ap.parse_args()
    known, problems = equivalents()
    for p in problems:
        print(f"docs/testing.md: {p}", flush=True)
    if args.check_list or problems:
        print(f"{len(known)} equivalent mutants listed, {len(problems)} entries wrong")
        return 1 if problems else 0
    games = args.games.split(",")
    if args.mutant:
        games = sorted({key.split(":")[0] for key in args.mutant})
    for g in games:
        if rules_lines(g) is None:
            sys.exit(f"no game {g} (src/games/{g}/rules.c)")
    began = time.monotonic()
    tree, build = os.path.join(args.dir, "tree"), os.path.join(args.dir, "build")
    copy_tree(tree)
    # Unix Makefiles for the targets' /fast rules: a mutant rebuilds the library's objects, the
    # archive and the two programs, without walking the whole dependency graph each time.
    rc, out = run(["cmake", "-S", tree, "-B", build, "-G", "Unix Makefiles",
                   "-DCMAKE_BUILD_TYPE=Debug",
                   f"-DRP_SANITIZE={'ON' if args.sanitize else 'OFF'}"])
    if rc != 0:
        sys.exit(f"cmake failed:\n{out[-3000:]}")
    # A failed assertion aborts its program at once: the verdict is known, the rest is waste.
    env = dict(os.environ, CMOCKA_TEST_ABORT="1")
    # At make test's size, always: make soak runs this as a test (mutants_sample) with
    # RAMPARTS_SOAK=1 set, which would play each mutant's property runs 40 times longer.
    env.pop("RAMPARTS_SOAK", None)
    programs_of = {g: ["test_" + g.replace("-", "_"), "test_conformance"] for g in games}
    every_program = sorted({t for ts in programs_of.values() for t in ts})
    rc, out = run(["cmake", "--build", build, "-j", args.jobs, "--target"] + every_program)
    if rc != 0:
        sys.exit(f"the unmutated tests do not build:\n{out[-3000:]}")
    limits = baseline(every_program, build, env)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"built and ran the unmutated tests in {time.monotonic() - began:.0f} s "
          f"({used.ru_utime + used.ru_stime:.0f} s of processor time)", flush=True)
    totals = {"killed": 0, "survived": 0, "stillborn": 0}
    unexplained, wrongly_listed = [], []
    for game in games:
        game_began = time.monotonic()
        programs = programs_of[game]
        rules = os.path.join(tree, "src", "games", game, "rules.c")
        with open(rules, encoding="utf-8") as f:
            original = f.read()
        lines = original.split("\n")
        every = mutants_of(lines)
        # The seeded order's first --max: a smaller sample (make soak's) is a part of a larger
        # one (make mutants'), so what a larger run judged holds for the smaller.
        order = list(range(len(every)))
        random.Random(f"{args.seed}:{game}").shuffle(order)
        chosen = sorted(every[j] for j in order[:args.max])
        if args.mutant:
            chosen = [m for m in every if f"{game}:{m[0] + 1}: {m[1]}" in args.mutant]
            found = {f"{game}:{m[0] + 1}: {m[1]}" for m in chosen}
            missing = [k for k in args.mutant if k.startswith(game + ":") and k not in found]
            if missing:
                sys.exit(f"no such mutant: {', '.join(missing)}")
        rebuild = ["make", "-C", build, "-s", "ramparts_objects/fast", "ramparts_lib/fast"] + \
            [t + "/fast" for t in programs]
        counts = {"killed": 0, "survived": 0, "stillborn": 0}
        try:
            for i, what, new_line in chosen:
                with open(rules, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines[:i] + [new_line] + lines[i + 1:]))
                key = f"{game}:{i + 1}: {what}"
                start = time.monotonic()
                rc, out = run(rebuild)
                if rc != 0:
                    counts["stillborn"] += 1
                    print(f"stillborn {key}", flush=True)
                    continue
                # test_conformance checks only the mutated game (RP_CONFORMANCE_GAMES): a
                # mutant of one game's rules.c cannot change another's play.
                verdict = run_tests(programs, build, limits,
                                    dict(env, RP_CONFORMANCE_GAMES=game))
                counts["killed" if verdict else "survived"] += 1
                print(f"{verdict or 'SURVIVED'} {key} ({time.monotonic() - start:.0f} s)"
                      f"    {new_line.strip()}", flush=True)
                if verdict is None and key not in known:
                    unexplained.append(key)
                if verdict and key in known:
                    wrongly_listed.append(f"{key} ({verdict})")
        finally:
            with open(rules, "w", encoding="utf-8") as f:
                f.write(original)
        print(f"{game}: {len(chosen)} of {len(every)} mutants: {counts['killed']} killed, "
              f"{counts['survived']} survived, {counts['stillborn']} did not compile "
              f"({time.monotonic() - game_began:.0f} s)", flush=True)
        for k in totals:
            totals[k] += counts[k]
    # The real rules.c back into the build, so the tree's programs are the unmutated ones.
    run(["make", "-C", build, "-s", "ramparts_objects/fast", "ramparts_lib/fast"])
    # Processor time says what the run costs on an idle machine, whatever else shares this one.
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"all: {totals['killed']} killed, {totals['survived']} survived, "
          f"{totals['stillborn']} did not compile in {time.monotonic() - began:.0f} s "
          f"({used.ru_utime + used.ru_stime:.0f} s of processor time); "
          f"{len(unexplained)} surviving mutants not listed as equivalent in docs/testing.md"
          + "".join(f"\n  {k}" for k in unexplained)
          + "".join(f"\n  listed as equivalent but killed: {k}" for k in wrongly_listed))
    return 1 if unexplained or wrongly_listed else 0


if __name__ == "__main__":
    sys.exit(main())
