#!/bin/bash
# fit_positions.sh — the position writers of the fitted evaluations (scripts/kd-positions.c,
# scripts/wa-positions.c, scripts/dw-positions.c): a few self-play games give a header and rows
# of the same width with a result of 0, 0.5 or 1, and bad arguments are refused with exit code
# 2 and nothing written.
set -u
KD=$1
WA=$2
DW=$3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# check_csv FILE NAME: every row as wide as the header, the last column a result, games present.
check_csv() {
    awk -F, -v name="$2" '
        NR == 1 { width = NF; if ($NF != "won") { print name ": header ends in " $NF; bad = 1 }; next }
        NF != width { print name ": row " NR " has " NF " fields, the header " width; bad = 1; exit }
        $NF != 0 && $NF != 0.5 && $NF != 1 { print name ": row " NR " result " $NF; bad = 1; exit }
        { rows++; games[$1] = 1 }
        END {
            n = 0; for (g in games) n++
            if (!bad && rows < 10) { print name ": only " rows " rows"; bad = 1 }
            if (!bad && n != 2) { print name ": rows of " n " games, 2 asked for"; bad = 1 }
            exit bad
        }' "$1" || fail "$2 wrote malformed rows"
}

"$KD" 3 2 7 easy:iters=20 > "$TMP/kd.csv" || fail "kd-positions exited $?"
check_csv "$TMP/kd.csv" kd-positions
"$WA" 2 7 easy:iters=20 > "$TMP/wa.csv" || fail "wa-positions exited $?"
check_csv "$TMP/wa.csv" wa-positions
"$DW" 2 7 easy:iters=20 > "$TMP/dw.csv" || fail "dw-positions exited $?"
check_csv "$TMP/dw.csv" dw-positions

# The same seed writes the same rows (the tools are deterministic from their seed).
"$WA" 2 7 easy:iters=20 | cmp -s - "$TMP/wa.csv" || fail "wa-positions is not deterministic"

for args in "9 2 7 easy" "3 x 7 easy" "3 2 7"; do
    "$KD" $args > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ "$rc" = 2 ] || fail "kd-positions $args exited $rc, not 2"
    [ -s "$TMP/out" ] && fail "kd-positions $args wrote rows"
    grep -q "kd-positions" "$TMP/err" || fail "kd-positions $args said nothing"
done
for args in "0 7 easy" "2 7" "2 7 nosuch"; do
    "$WA" $args > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ "$rc" = 0 ] && fail "wa-positions $args succeeded"
    grep -q "wa-positions\|unknown\|no such" "$TMP/err" || fail "wa-positions $args said nothing"
    "$DW" $args > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ "$rc" = 0 ] && fail "dw-positions $args succeeded"
    grep -q "dw-positions\|unknown\|no such" "$TMP/err" || fail "dw-positions $args said nothing"
done
echo "fit_positions: ok"
