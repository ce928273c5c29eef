#!/usr/bin/env python3
"""test_mutants_list.py — the list of equivalent mutants that make mutants (scripts/mutants.py)
trusts: docs/testing.md's entries each name a mutant of today's rules.c, and on a tiny tree the
check finds a stale entry (its line changed or moved, no such mutant, no such game) and a
malformed one, and numbers a line's repeated sites so each entry names one.

Usage: test_mutants_list.py [MUTANTS_PY] (default: scripts/mutants.py beside tests/)
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "scripts",
                                                            "mutants.py")
RULES = "int f(int v)\n{\n    int best = 0, count = 0;\n    return v < 3 ? best : count;\n}\n"
failures, passes, roots = [], [], []


def check(what, ok):
    print(f"{'ok' if ok else 'FAILED'}: {what}")
    (passes if ok else failures).append(what)


def load():
    spec = importlib.util.spec_from_file_location("mutants", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree_with(entries):
    """A root holding src/games/g/rules.c (RULES) and a docs/testing.md with these entries."""
    root = tempfile.mkdtemp(prefix="mutants-list-")
    roots.append(root)
    os.makedirs(os.path.join(root, "src", "games", "g"))
    os.makedirs(os.path.join(root, "docs"))
    with open(os.path.join(root, "src", "games", "g", "rules.c"), "w", encoding="utf-8") as f:
        f.write(RULES)
    with open(os.path.join(root, "docs", "testing.md"), "w", encoding="utf-8") as f:
        f.write("# Mutation testing\n\n" + "".join(e + "\n" for e in entries))
    return root


def main():
    mutants = load()
    # The project's own list: every entry names a mutant of today's rules.c.
    r = subprocess.run([sys.executable, SCRIPT, "--check-list"], capture_output=True, text=True)
    check(f"docs/testing.md's entries are sound ({(r.stdout + r.stderr).strip()})",
          r.returncode == 0)

    lines = RULES.split("\n")
    keys = [f"{i + 1}: {what}" for i, what, _ in mutants.mutants_of(lines)]
    check("two zeros on one line are two numbered mutants",
          "3: 0 -> 1 #1" in keys and "3: 0 -> 1 #2" in keys and "3: 0 -> 1" not in keys)
    check("a site alone on its line has no number", "4: '<' -> '<='" in keys)

    good = "- equivalent: g:4: '<' -> '<=' on `return v < 3 ? best : count;` — a reason"
    known, problems = mutants.equivalents(tree_with([good]))
    check("a sound entry is known", list(known) == ["g:4: '<' -> '<='"] and not problems)

    wrapped = ("- equivalent: g:4: '<' -> '<=' on `return v < 3 ? best : count;`\n"
               "  — a reason\n  told on two lines")
    known, problems = mutants.equivalents(tree_with([wrapped]))
    check("an entry wrapped over lines is read whole", list(known) == ["g:4: '<' -> '<='"]
          and not problems)

    cases = {
        "a line that reads otherwise": (
            "- equivalent: g:3: '<' -> '<=' on `return v < 3 ? best : count;` — r",
            "stale: g:3: '<' -> '<=': line 3 reads `int best = 0, count = 0;`, not "
            "`return v < 3 ? best : count;` (that code is now at line 4)"),
        "a line with no such mutant": (
            "- equivalent: g:4: '>' -> '>=' on `return v < 3 ? best : count;` — r",
            "stale: g:4: '>' -> '>=': line 4 has no mutant '>' -> '>='"),
        "an unnumbered site on a line that has two": (
            "- equivalent: g:3: 0 -> 1 on `int best = 0, count = 0;` — r",
            "stale: g:3: 0 -> 1: line 3 has no mutant 0 -> 1"),
        "a line past the end": (
            "- equivalent: g:99: 0 -> 1 on `int best = 0, count = 0;` — r",
            "stale: g:99: 0 -> 1: line 99 reads `None`, not `int best = 0, count = 0;` "
            "(that code is now at line 3)"),
        "no such game": (
            "- equivalent: nogame:3: 0 -> 1 #1 on `int best = 0, count = 0;` — r",
            "stale: nogame:3: 0 -> 1 #1: no game nogame"),
        "an entry without its code or reason": (
            "- equivalent: g:4: '<' -> '<=' — a reason",
            "malformed (want '- equivalent: GAME:LINE: FROM -> TO on `code` — reason'): "
            "- equivalent: g:4: '<' -> '<=' — a reason"),
    }
    for what, (entry, want) in cases.items():
        known, problems = mutants.equivalents(tree_with([good, entry]))
        check(f"{what} is refused, by name", problems == [want] and len(known) == 1)
        if problems != [want]:
            print(f"  got {problems}\n  want {[want]}")

    for root in roots:
        shutil.rmtree(root)
    print(f"{len(passes)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
