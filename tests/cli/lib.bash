# lib.bash — helpers for the command-line tests: run the real binary, compare, report.
# Sourced by tests/cli/*.sh with RAMPARTS set to the binary under test.
set -u
unset COLUMNS # lines stay whole through pipes unless a test asks for a width
failures=0
checks=0
pass() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*" >&2; }
expect_eq() { # name actual expected
  if [ "$2" == "$3" ]; then pass; else fail "$1: expected [$3] got [$2]"; fi; }
expect_match() { # name text regex
  if [[ "$2" =~ $3 ]]; then pass; else fail "$1: [$2] does not match /$3/"; fi; }
expect_status() { # name expected-status command...
  local name=$1 want=$2; shift 2
  "$@" >/dev/null 2>&1; local got=$?
  if [ "$got" == "$want" ]; then pass; else fail "$name: exit $got, expected $want ($*)"; fi; }
finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" == 0 ]; }
# Run protocol commands (one per argument) through `ramparts engine`; print its output.
engine() { printf '%s\n' "$@" | "$RAMPARTS" engine; }
# The answer body of the Nth reply (1-based) of an engine transcript on stdin.
nth_answer() { awk -v n="$1" 'BEGIN{RS=""} NR==n {print; exit}'; }
games() { "$RAMPARTS" list | awk '{print $1}'; }
# The [result] notation a record replays to (replay --json's status).
replay_status() { "$RAMPARTS" replay "$1" --json | sed -n 's/.*"status":"\([^"]*\)".*/\1/p'; }
