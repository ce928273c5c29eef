#!/usr/bin/env python3
"""test_cost_files.py — checks tests/test_costs.txt and tests/soak_costs.txt, the orders make test
and make soak hand ctest as its cost data (Makefile, cmake/schedule.cmake): each line a comment
or "TEST SECONDS", each TEST a test of this build, none twice. A renamed test would otherwise
drop out of the order silently and start in no particular place.

usage: test_cost_files.py CTEST BUILD_DIR COSTS_FILE..."""
import re
import subprocess
import sys


def tests_of(ctest, build):
    out = subprocess.run([ctest, "--test-dir", build, "-N"], capture_output=True, text=True,
                         check=True).stdout
    return set(re.findall(r"^\s*Test\s+#\d+: (\S+)$", out, re.M))


def problems_of(path, known):
    problems, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            if len(fields) != 2 or not re.fullmatch(r"\d+(\.\d+)?", fields[1]):
                problems.append(f"{path}:{n}: not 'TEST SECONDS': {line.rstrip()}")
            elif fields[0] not in known:
                problems.append(f"{path}:{n}: no test named {fields[0]} in this build")
            elif fields[0] in seen:
                problems.append(f"{path}:{n}: {fields[0]} is listed twice")
            seen.add(fields[0])
    return problems, seen


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    known = tests_of(sys.argv[1], sys.argv[2])
    if not known:
        print("ctest -N listed no tests", file=sys.stderr)
        return 1
    failed = False
    for path in sys.argv[3:]:
        problems, listed = problems_of(path, known)
        for p in problems:
            print(f"FAIL: {p}")
        failed |= bool(problems)
        if not problems:
            print(f"{path}: {len(listed)} tests, each a test of this build")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
