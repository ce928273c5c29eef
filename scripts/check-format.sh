#!/usr/bin/env bash
# check-format.sh — checks C files against the committed .clang-format: the files given, or
# every tracked *.c and *.h. Prints the difference for each file out of format and exits 1
# if there is one. With --fix, reformats those files in place instead (the one-shot way to
# bring the tree into format: scripts/check-format.sh --fix).
set -euo pipefail
cd "$(dirname "$0")/.."
fix=false
if [ "${1:-}" = "--fix" ]; then fix=true; shift; fi
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed" >&2; exit 1; }
if [ $# -gt 0 ]; then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.h')
else
  mapfile -t files < <(find include src tests -name '*.[ch]' | sort)
fi
bad=0
for f in "${files[@]}"; do
  if $fix; then
    clang-format -i --style=file "$f"
  elif ! diff -u --label "$f" --label "$f (clang-format)" "$f" <(clang-format --style=file "$f"); then
    bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "check-format: $bad of ${#files[@]} files differ from .clang-format (scripts/check-format.sh --fix FILE... reformats them)" >&2
  exit 1
fi
$fix || echo "check-format: ${#files[@]} files in format"
