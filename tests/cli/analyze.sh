#!/usr/bin/env bash
# analyze.sh — `ramparts analyze` through the real binary: usage errors; figures of a small
# fixed run equal a direct computation from the same games' records (analyze_check); a paired
# variant with identical options shows no significant difference; the turn cap is stated and
# its games reported unfinished in sim, arena and analyze (CD-16); `mpirun -n 2` gives the
# same JSON as one process for sim, arena and analyze; the HTML report opens in headless
# Chromium with no console error and every plot drawn.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"
BUILD=$(cd "$(dirname "$RAMPARTS")" && pwd)
CHECK=$BUILD/analyze_check
NODE_MODULES=$BUILD/web/node_modules
SOURCE=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json_value() { # FILE python-expression-on-d: prints the value
  node -e "const d=JSON.parse(require('fs').readFileSync('$1','utf8')); console.log(JSON.stringify($2))"; }

# ---- usage ----
expect_status "analyze --help exits 0" 0 "$RAMPARTS" analyze --help
expect_match "analyze --help shows usage" "$("$RAMPARTS" analyze --help)" "usage: ramparts analyze"
expect_status "analyze without a game" 2 "$RAMPARTS" analyze
expect_status "analyze without an output" 2 "$RAMPARTS" analyze castle-danger
expect_status "analyze bad option" 2 "$RAMPARTS" analyze castle-danger --json - --bogus 1
expect_status "analyze bad AI" 2 "$RAMPARTS" analyze castle-danger --json - --ai bogus
expect_status "analyze bad --vs" 2 "$RAMPARTS" analyze castle-danger --json - --vs nosuch=1
expect_status "analyze --vs seed refused" 2 "$RAMPARTS" analyze castle-danger --json - --vs seed=3
expect_match "analyze --vs seed says why" \
  "$("$RAMPARTS" analyze castle-danger --json - --vs seed=3 2>&1)" "same seeds"
# An output that cannot be written is refused before any game is played (issue 43: it used
# to simulate for minutes, then fail); --games 100000 would take hours if it were played.
out=$("$RAMPARTS" analyze castle-danger --games 100000 --out /nonexistent/r.html 2>&1)
expect_eq "analyze: unwritable --out refused at once" "$?" "2"
expect_match "analyze: the refusal names the path" "$out" "--out /nonexistent/r.html: cannot write in /nonexistent"
expect_status "analyze: a directory as --json refused" 2 "$RAMPARTS" analyze castle-danger --games 100000 --json /
expect_status "analyze: unwritable --csv refused" 2 "$RAMPARTS" analyze castle-danger --games 100000 --json - --csv /nonexistent/x.csv
expect_status "analyze: --json - with --csv - refused" 2 "$RAMPARTS" analyze castle-danger \
  --games 2 --ladder-games 0 --judge-games 0 --json - --csv -
expect_match "analyze: --json - with --csv - says why" "$("$RAMPARTS" analyze castle-danger \
  --games 2 --ladder-games 0 --judge-games 0 --json - --csv - 2>&1)" "neither would parse"

# ---- samples that are samples (issue 46): another seed shares no deal, one seed repeats ----
deal_seeds() { # SEED -> the deal seeds of a 40-game run, sorted
  "$RAMPARTS" analyze king-of-danger players=4 --games 40 --ladder-games 0 --judge-games 0 \
    --seed "$1" --csv - | awk -F, 'NR > 1 { print $4 }' | sort; }
deal_seeds 1 >"$work/deals-1"
deal_seeds 2 >"$work/deals-2"
deal_seeds 1 >"$work/deals-1-again"
first=$work/deals-1 again=$work/deals-1-again
expect_eq "analyze: 40 deals a run" "$(wc -l <"$first" | tr -d ' ')" 40
expect_eq "analyze: --seed 2 shares no deal seed with --seed 1" \
  "$(comm -12 "$first" "$work/deals-2" | wc -l | tr -d ' ')" 0
expect_eq "analyze: --seed 1 again gives the same deals" "$(cat "$again")" "$(cat "$first")"

# ---- like with like (issue 46): unfinished games are named, the fair share is of all games ----
"$RAMPARTS" analyze castle-danger --ai random --games 20 --max-turns 20 --ladder-games 0 \
  --judge-games 0 --json "$work/unfinished.json" >/dev/null
expect_eq "verdict: the first mover's line says how many games did not finish" \
  "$(json_value "$work/unfinished.json" '(() => { const v = d.verdict.find(v => v.topic === "first mover");
     const stopped = d.ai_games.length.find(r => r.id === "unfinished").value;
     return stopped > 0 && v.text.includes((100 * stopped).toFixed(1) + "% did not finish") &&
       Math.abs(v.fair_share_of_all_games - 0.5 * (1 - stopped)) < 1e-9; })()')" "true"

expect_status "analyze missing records dir" 1 "$RAMPARTS" analyze castle-danger --games 0 \
  --ladder-games 0 --records "$work/none" --json -
printf 'not a record\n' > "$work/bad.rec"
mkdir -p "$work/badrecs" && mv "$work/bad.rec" "$work/badrecs/"
expect_match "analyze names a bad record" \
  "$("$RAMPARTS" analyze castle-danger --games 0 --ladder-games 0 --records "$work/badrecs" \
  --json - 2>&1)" "bad.rec"

# ---- figures equal a direct computation from the games' records ----
for game in $(games) solo; do
  options=()
  [ $game == solo ] && game=rush-the-wall options=(players=1) # points, no rival seat
  name=$game${options[0]:+-solo}
  "$RAMPARTS" analyze $game "${options[@]}" --games 10 --ladder-games 0 --judge-games 0 \
    --seed 5 --json "$work/$name.json" --save-records "$work/rec-$name" >/dev/null
  out=$("$CHECK" "$work/$name.json" "$work/rec-$name" 2>&1)
  expect_match "$name figures equal the records' ($out)" "$out" "^[0-9]+ passed, 0 failed$"
done
expect_eq "solo rush-the-wall: the verdict gives points, not wins" \
  "$(json_value "$work/rush-the-wall-solo.json" 'd.verdict[0].topic + ": " + /Points at the end/.test(d.verdict[0].text)')" \
  '"solo: true"'
expect_eq "the verdict says the sample is small" \
  "$(json_value "$work/king-of-danger.json" 'd.verdict.some(v => v.topic === "sample")')" "true"

# ---- the metrics Ludii reports (issue 46): each in the JSON with its definition and source
# (test_analyze_stats checks each against a hand-computed case), seat order, the first mover
# at each skill level, the skill trace from the ladder ----
"$RAMPARTS" analyze king-of-danger --games 8 --ladder random,greedy,easy --ladder-games 4 \
  --ceiling-games 0 --judge-games 0 --first-mover-games 4 --first-mover-levels random,greedy \
  --json "$work/metrics.json" >/dev/null
expect_eq "the new metrics, each with a value, a definition and a source" \
  "$(json_value "$work/metrics.json" '["clarity_variance", "clarity_narrowness", "decision_factor",
     "branching_opening", "branching_end", "decision_middle", "lead_change_opening", "lead_change_end",
     "comeback", "kingmaking", "outcome_uniformity"].map(id => { const m = d.ai_games.ludii.find(x => x.id === id);
     return !!m && typeof m.value === "number" && m.definition.length > 20 && m.source.length > 5; })')" \
  "[true,true,true,true,true,true,true,true,true,true,true]"
expect_eq "seat order: one place per seat, the shares of the decided games summing to their share" \
  "$(json_value "$work/metrics.json" '(() => { const p = d.ai_games.seat_order.places;
     const decided = d.ai_games.ludii.find(x => x.id === "completion").value;
     return [p.length, Math.abs(p.reduce((a, x) => a + x.value, 0) - decided) < 1e-9,
       p[0].value === d.ai_games.first_mover.wins.value]; })()')" '[4,true,true]'
expect_eq "the first mover at each skill level, and the skill trace over the ladder's two steps" \
  "$(json_value "$work/metrics.json" '[d.first_mover_by_level.map(l => [l.level, l.games, l.first_mover.wins.n]),
     d.skill_trace.steps, d.skill_trace.value >= 0 && d.skill_trace.value <= 1, /SkillTrace.java/.test(d.skill_trace.source)]')" \
  '[[["random",4,4],["greedy",4,4]],2,true,true]'

# ---- the per-game CSV agrees with the JSON ----
"$RAMPARTS" analyze king-of-danger players=3 --games 6 --ladder-games 0 --judge-games 0 \
  --sweep dealer=1,2 --json "$work/csv.json" --csv "$work/games.csv" >/dev/null
csv_check=$(python3 - "$work/games.csv" "$work/csv.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
base = [r for r in rows if r['set'] == 'base']
sweep = [r for r in rows if r['set'].startswith('sweep dealer=')]
ok = len(rows) == 18 and len(base) == 6 and len(sweep) == 12
ok = ok and [int(r['winner']) for r in base] == d['ai_games']['per_game']['winner']
ok = ok and [int(r['turns']) for r in base] == d['ai_games']['per_game']['turns']
ok = ok and [int(r['first_mover']) for r in sweep] == [2] * 6 + [0] * 6
ok = ok and all(abs(sum(float(r['share_%d' % p]) for p in range(3)) - 1) < 1e-9 for r in rows)
print('ok' if ok else 'mismatch')
PY
)
expect_eq "CSV: one row per game, the JSON's winners and turns, the sweep's first movers" \
  "$csv_check" "ok"

# ---- the first mover as the rules define it ----
# (32 games, 16 deals: were the first mover a coin toss per deal, all 16 alike 1 time in 32,768)
"$RAMPARTS" analyze walls-and-armies --games 32 --ladder-games 0 --judge-games 0 \
  --json "$work/wa.json" >/dev/null
expect_eq "walls-and-armies: the deal decides who moves first (both seats do)" \
  "$(json_value "$work/wa.json" 'd.ai_games.first_mover.seat_counts.every(n => n > 0)')" "true"
expect_eq "walls-and-armies: the first mover's wins counted per game" \
  "$(json_value "$work/wa.json" 'd.ai_games.first_mover.wins.value * 32 === d.ai_games.per_game.winner.filter((w, i) => w === d.ai_games.per_game.first_mover[i]).length')" "true"
expect_eq "walls-and-armies: paired deals, so a t interval over the deals and McNemar's test" \
  "$(json_value "$work/wa.json" '[d.ai_games.first_mover.wins.interval, d.ai_games.first_mover.test]')" \
  '["t over deals","McNemar exact over deals"]'
"$RAMPARTS" analyze rush-the-wall --games 4 --ladder-games 0 --judge-games 0 \
  --json "$work/rw.json" >/dev/null
expect_eq "rush-the-wall: simultaneous play has no first mover" \
  "$(json_value "$work/rw.json" 'd.ai_games.first_mover.defined')" "false"
"$RAMPARTS" analyze king-of-danger players=3 --games 6 --ladder-games 0 --judge-games 0 \
  --json "$work/kd3.json" >/dev/null
expect_eq "king-of-danger, 3 players: each seat's wins an interval, its test's counts apart" \
  "$(json_value "$work/kd3.json" 'd.ai_games.seats.every(s => typeof s.wins === "object" && s.side_wins >= 0 && s.decided === 6)')" \
  "true"
expect_eq "king-of-danger, 3 players: the fair share is a third; the player after the dealer leads" \
  "$(json_value "$work/kd3.json" '[d.ai_games.first_mover.fair_share, d.ai_games.first_mover.seat_counts]')" \
  '[0.3333333333333333,[0,6,0]]'

# ---- every option sim takes works in analyze and in --vs: files, values with commas ----
printf 'warrior filchy 1\nwarrior qween 2\nwarrior druhid 3\nwarrior zvord 4\nwarrior archr 5\n' \
  > "$work/my.cards"
sed -n '/^warrior horsie/,$p' "$SOURCE/data/rush-the-wall.cards" | sed 's/^fort tax 8/fort tax 12/' \
  >> "$work/my.cards"
"$RAMPARTS" analyze rush-the-wall "cards=@$work/my.cards" --games 2 --ladder-games 0 \
  --judge-games 0 --json "$work/file.json" >/dev/null
expect_match "analyze reads cards=@FILE" "$(json_value "$work/file.json" 'd.options')" "t12"
spelled=1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6
"$RAMPARTS" analyze rush-the-wall --games 2 --ladder-games 0 --judge-games 0 \
  --vs "cards=${spelled/t8/t12},variant=vogel" --vs "cards=$spelled" --json "$work/vs.json" >/dev/null
expect_eq "--vs keeps the commas of a value and splits before the next option" \
  "$(json_value "$work/vs.json" 'd.variants.map(v => [v.options.includes("t12"), v.options.includes("vogel")])')" \
  '[[true,true],[false,false]]'
expect_eq "the default card set written out is the default" \
  "$(json_value "$work/vs.json" 'd.variants[1].difference.every(x => x.value === 0 || x.value === null)')" "true"
expect_status "analyze names a missing card file" 1 "$RAMPARTS" analyze rush-the-wall \
  "cards=@$work/none.cards" --json -

# ---- a sweep: every value on the same deals ----
"$RAMPARTS" analyze king-of-danger --games 8 --ladder-games 0 --judge-games 0 \
  --sweep dealer=0..2:2 --json "$work/sweep.json" >/dev/null
expect_eq "sweep: the values a..b:step" \
  "$(json_value "$work/sweep.json" 'd.sweep.points.map(p => [p.value, p.x])')" '[["0",0],["2",2]]'
expect_eq "sweep: the base value's point is the base games exactly (same seeds)" \
  "$(json_value "$work/sweep.json" 'JSON.stringify(d.sweep.points[0].figures.per_game) === JSON.stringify(d.ai_games.per_game)')" "true"
expect_eq "sweep: the player after the dealer moves first (KD: left of the dealer leads)" \
  "$(json_value "$work/sweep.json" 'd.sweep.points.map(p => p.figures.first_mover.seat_counts)')" \
  "[[0,8,0,0],[0,0,0,8]]"
# Issue 29: each value's paired difference from the first value (the baseline), computed
# here from the two values' own figures; the first value has none; Holm over them all,
# recomputed here from the p-values (R's p.adjust "holm").
HOLM='function holm(ps) { const o = ps.map((p, i) => [p, i]).filter(x => x[0] !== null).sort((a, b) => a[0] - b[0]);
  const out = ps.map(() => null); let run = 0;
  o.forEach(([p, i], k) => { run = Math.max(run, Math.min(1, (o.length - k) * p)); out[i] = run; }); return out; }
  // Issue 46: each question once: the family is the rows marked so (a repeat of another row,
  // or a figure that never varied, asks none); a repeat reads its question'"'"'s adjusted p.
  function holmRows(lists) { const rows = lists.flat(); const want = holm(rows.map(r => r.family ? r.p : null));
    let start = 0;
    for (const l of lists) { l.forEach((r, j) => { if (r.same_as) want[start + j] = want[start + l.findIndex(x => x.id === r.same_as)]; }); start += l.length; }
    return want; }'
expect_eq "sweep: the baseline is the first value and has no difference" \
  "$(json_value "$work/sweep.json" '[d.sweep.baseline, d.sweep.points.map(p => [p.baseline, !!p.difference])]')" \
  '["0",[[true,false],[false,true]]]'
expect_eq "sweep: a value's difference is its figure minus the baseline's, on the same games" \
  "$(json_value "$work/sweep.json" 'd.sweep.points[1].difference.filter(x => ["turns", "actions", "first_mover_wins"].includes(x.id)).map(x => {
     const fig = (p) => x.id === "first_mover_wins" ? p.figures.first_mover.wins.value : p.figures.length.find(f => f.id === x.id).value;
     return [x.id, Math.abs(x.value - (fig(d.sweep.points[1]) - fig(d.sweep.points[0]))) < 1e-9, x.n, x.low <= x.value && x.value <= x.high]; })')" \
  '[["first_mover_wins",true,8,true],["turns",true,8,true],["actions",true,8,true]]'
expect_eq "sweep: Holm over every difference, as p.adjust computes it" \
  "$(json_value "$work/sweep.json" "(() => { $HOLM
     const lists = d.sweep.points.filter(p => p.difference).map(p => p.difference);
     const rows = lists.flat(); const want = holmRows(lists);
     return [d.sweep.correction.method, d.sweep.correction.tests === rows.filter(r => r.family && r.p !== null).length,
       rows.every((r, i) => (r.p_holm === null) === (want[i] === null) && (r.p_holm === null || Math.abs(r.p_holm - want[i]) < 1e-12)),
       rows.every(r => r.significant === (r.p_holm !== null && r.p_holm < 0.05 && (r.low > 0 || r.high < 0)))]; })()")" \
  '["holm",true,true,true]'
expect_status "sweep: a bad range is a usage error" 2 "$RAMPARTS" analyze king-of-danger \
  --json - --sweep dealer=3..1
expect_status "sweep: the seed is not a rule" 2 "$RAMPARTS" analyze king-of-danger \
  --json - --sweep seed=1..3
expect_status "sweep: a value the option refuses" 2 "$RAMPARTS" analyze king-of-danger \
  --json - --sweep dealer=0..9
"$RAMPARTS" analyze rush-the-wall --games 2 --ladder-games 0 --judge-games 0 --sweep \
  "cards=1,2,3,4,5,6,7,8,9/u2,s4,t{2,14},l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6" \
  --json "$work/sweep3.json" >/dev/null
expect_eq "sweep: braces mark the swept part of a longer value" \
  "$(json_value "$work/sweep3.json" 'd.sweep.points.map(p => [p.x, p.options.includes(",t" + p.x + ",")])')" \
  "[[2,true],[14,true]]"
# Issue 46: the axis names what the sweep changes: one card's value, not "cards"
expect_eq "sweep: the axis names the swept part (t{x} in cards), the plain option otherwise" \
  "$(json_value "$work/sweep3.json" 'd.sweep.axis')|$(json_value "$work/sweep.json" 'd.sweep.axis')" \
  '"t{x} in cards"|"dealer"'

# ---- the oracle (sees every hidden card): analysis only ----
expect_status "sim refuses the oracle" 2 "$RAMPARTS" sim walls-and-armies --ai oracle --games 1
expect_match "sim says why" "$("$RAMPARTS" sim walls-and-armies --ai oracle 2>&1)" \
  "only inside .ramparts analyze."
expect_status "arena refuses the oracle" 2 "$RAMPARTS" arena walls-and-armies --ai oracle,random
expect_status "analyze --ai refuses the oracle" 2 "$RAMPARTS" analyze walls-and-armies \
  --ai oracle --json -
expect_status "analyze --oracle with a bad parameter" 2 "$RAMPARTS" analyze walls-and-armies \
  --oracle bogus=1 --json -
if grep -rlE 'oracle\.h|rp_ai_create_oracle|rp_cli_oracle_spec' "$SOURCE/src/server" \
  "$SOURCE/src/engine" "$SOURCE/python" "$SOURCE/include" >/dev/null; then
  fail "the server, the engine, the Python package or a public header reaches the oracle"
else pass; fi
if [ -e "$BUILD/libramparts.so" ] && command -v nm >/dev/null; then
  expect_eq "the shared library does not export the oracle" \
    "$(nm -D --defined-only "$BUILD/libramparts.so" | grep -c oracle)" "0"
fi

# ---- results do not depend on the number of threads ----
"$RAMPARTS" analyze rush-the-wall --games 6 --ladder random,greedy --ladder-games 2 \
  --ceiling-games 2 --oracle iters=30 --judge easy --judge-games 1 --threads 1 \
  --json "$work/t1.json" >/dev/null
"$RAMPARTS" analyze rush-the-wall --games 6 --ladder random,greedy --ladder-games 2 \
  --ceiling-games 2 --oracle iters=30 --judge easy --judge-games 1 --threads 3 \
  --json "$work/t3.json" >/dev/null
if cmp -s "$work/t1.json" "$work/t3.json" && [ -s "$work/t1.json" ]; then pass; else
  fail "analyze depends on --threads"; fi
expect_eq "no first-mover games unless asked (the default run stays as cheap as before)" \
  "$(json_value "$work/t1.json" 'd.first_mover_by_level.length')" "0"
expect_eq "the ceiling: the oracle against the ladder's weakest and strongest AI" \
  "$(json_value "$work/t1.json" 'd.ceiling.map(r => [r.weak, r.strong, r.games])')" \
  '[["random","oracle",2],["greedy","oracle",2]]'

# ---- a paired variant with identical options: no significant difference ----
"$RAMPARTS" analyze danger-at-the-walls --games 12 --ladder-games 0 --judge-games 0 \
  --vs players=2 --json "$work/same.json" >/dev/null
expect_eq "identical variant: no figure differs significantly" \
  "$(json_value "$work/same.json" 'd.variants[0].difference.filter(x => x.significant).length')" "0"
expect_eq "identical variant: every difference is zero" \
  "$(json_value "$work/same.json" 'd.variants[0].difference.every(x => x.value === 0 || x.value === null)')" "true"
expect_eq "identical variant: compared over the same games" \
  "$(json_value "$work/same.json" 'd.variants[0].difference[0].n')" "12"

# and a real change is found: three players instead of four play fewer actions (cards)
# (80 games: every figure of both variants is corrected together, Holm over about 40 tests;
# at 40 the difference, about 20 actions, was found or not depending on the deals)
kd3_summary=$("$RAMPARTS" analyze king-of-danger --games 80 --ladder-games 0 --judge-games 0 \
  --vs players=3 --vs players=5 --json "$work/kd3.json")
expect_eq "players=3 against 4: fewer actions, significantly" \
  "$(json_value "$work/kd3.json" 'd.variants[0].difference.filter(x => x.id === "actions").map(x => x.significant && x.high < 0)')" "[true]"
# Issue 29: the variants' figures are one family, Holm-adjusted together (recomputed here);
# significant = adjusted p below 0.05 with the interval leaving out 0; the verdict says so.
expect_eq "variants: Holm over every figure of every variant, as p.adjust computes it" \
  "$(json_value "$work/kd3.json" "(() => { $HOLM
     const lists = d.variants.map(v => v.difference); const rows = lists.flat(); const want = holmRows(lists);
     return [d.variants_correction.method, d.variants_correction.tests, rows.filter(r => r.family && r.p !== null).length,
       rows.every((r, i) => (r.p_holm === null) === (want[i] === null) && (r.p_holm === null || Math.abs(r.p_holm - want[i]) < 1e-12)),
       rows.every(r => r.significant === (r.p_holm !== null && r.p_holm < 0.05 && (r.low > 0 || r.high < 0)))]; })()")" \
  "$(json_value "$work/kd3.json" '(() => { const n = d.variants.flatMap(v => v.difference).filter(r => r.family && r.p !== null).length; return ["holm", n, n, true, true]; })()')"
expect_eq "variants: each question once (turns and duration, draws and drawishness are one; no repeated p in the family)" \
  "$(json_value "$work/kd3.json" 'd.variants.map(v => { const f = v.difference.filter(r => r.family && r.p !== null);
     const key = (r) => `${r.p} ${Math.abs(r.value)} ${[Math.abs(r.low), Math.abs(r.high)].sort()}`;
     return [v.difference.find(r => r.id === "duration").same_as, new Set(f.map(key)).size === f.length]; })')" \
  '[["turns",true],["turns",true]]'
expect_eq "variants: the verdict names what differs, Holm-adjusted" \
  "$(json_value "$work/kd3.json" 'd.verdict.filter(v => v.topic === "variant").some(v => /^Under players=3, Actions per game: -.*Holm-adjusted p .* over [0-9]+ comparisons/.test(v.text))')" "true"
expect_match "variants: the summary lists the significant figures" \
  "$kd3_summary" \
  "vs players=3:.*Actions per game -[0-9.]+ \\[-[0-9.]+, -[0-9.]+\\] against the base rules, Holm p"

# Issue 46: one power calculation, for the test actually used, stated with its power. The
# ladder's step (4 players: the exact binomial test of the stronger side's wins among the
# decided games against 25%, at 5%) and the verdict's first mover (the same test at 0.05 over
# its 5 questions) each give a size and its power; recomputed here by enumeration with the
# two-sided exact test written out (the outcomes no more likely than k, as R's binom.test),
# the decided games' count binomial at the rate measured.
"$RAMPARTS" analyze king-of-danger --games 2 --ladder random,greedy --ladder-games 4 \
  --ceiling-games 0 --judge-games 0 --detect 10 --json "$work/size.json" >/dev/null
power_check=$(python3 - "$work/size.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def pmf(n, p):
    def one(k):
        if p <= 0 or p >= 1:
            return 1.0 if k == (0 if p <= 0 else n) else 0.0
        return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                        + k * math.log(p) + (n - k) * math.log1p(-p))
    return [one(k) for k in range(n + 1)]
def power(units, rate, p0, theta, alpha):
    total = 0.0
    for n in range(units + 1):
        w = pmf(units, rate)[n] if rate < 1 else float(n == units)
        if w < 1e-12:
            continue
        f, g = pmf(n, p0), pmf(n, theta)
        ordered = sorted(f)
        for k in range(n + 1):
            if sum(x for x in ordered if x <= f[k] * (1 + 1e-7)) < alpha:
                total += w * g[k]
    return total
step = d['ladder'][0]
rate = step['informative'] / step['games']
ok = step['test'].startswith('exact binomial') and abs(step['fair_share'] - 0.25) < 1e-12
ok = ok and step['power_to_detect_step'] >= 0.8
ok = ok and abs(power(int(step['games_to_detect_step']), rate, 0.25, 0.35, 0.05) - step['power_to_detect_step']) < 1e-6
fm = next(v for v in d['verdict'] if v['topic'] == 'first mover')
figs = d['ai_games']['first_mover']
ok = ok and abs(fm['test_level'] - 0.05 / 5) < 1e-12 and fm['power_at_that_size'] >= 0.8
ok = ok and f"About {fm['games_to_detect_5_points']:.0f} games would detect a 5-point edge" in fm['text']
ok = ok and abs(power(int(fm['games_to_detect_5_points']), figs['decided'] / d['ai_games']['games'], 0.25, 0.30, 0.01) - fm['power_at_that_size']) < 1e-6
print('ok' if ok else 'mismatch %s %s' % (json.dumps(step), json.dumps(fm)))
PY
)
expect_eq "one power calculation: the ladder's and the verdict's sizes have the power they state" \
  "$power_check" "ok"
expect_status "--detect outside 1-49 is a usage error" 2 "$RAMPARTS" analyze king-of-danger \
  --detect 50 --json -

# ---- the turn cap: stated, and its games unfinished (never a win or a draw) ----
sim=$("$RAMPARTS" sim castle-danger --games 6 --max-turns 2 --json)
expect_match "sim states the cap and counts unfinished" "$sim" '"draws":0,"unfinished":6,"turn_cap":2'
expect_match "sim text states the cap" "$(NO_COLOR=1 "$RAMPARTS" sim castle-danger --games 4 \
  --max-turns 2)" "after 2 turns were stopped.*unfinished at the turn cap +4"
uncapped=$("$RAMPARTS" sim danger-at-the-walls --games 4 --json)
expect_match "sim without a cap says none" "$uncapped" '"unfinished":0,"turn_cap":null'
arena=$("$RAMPARTS" arena castle-danger --ai random,greedy --games 4 --max-turns 2 --json)
expect_match "arena states the cap" "$arena" '"turn_cap":2'
expect_match "arena counts unfinished as shared, not drawn" "$arena" \
  '"a_wins":0,"draws":0,"b_wins":0,"unfinished":4,"a_score":0.5'
expect_match "arena table has the unfinished column" "$(NO_COLOR=1 "$RAMPARTS" arena \
  castle-danger --ai random,greedy --games 4 --max-turns 2)" "unfin\."
"$RAMPARTS" analyze castle-danger --games 4 --ladder-games 0 --judge-games 0 --max-turns 2 \
  --json "$work/cap.json" --save-records "$work/rec-cap" >/dev/null
expect_eq "analyze: a stopped game played the cap's turns" \
  "$(json_value "$work/cap.json" 'd.ai_games.per_game.turns')" "[2,2,2,2]"
out=$("$CHECK" "$work/cap.json" "$work/rec-cap" 2>&1)
expect_match "capped games' figures equal the records' ($out)" "$out" "^[0-9]+ passed, 0 failed$"
expect_eq "analyze states the cap" "$(json_value "$work/cap.json" 'd.turn_cap')" "2"
expect_eq "analyze: every game unfinished" \
  "$(json_value "$work/cap.json" 'd.ai_games.length.find(x => x.id === "unfinished").value')" "1"
expect_eq "analyze: unfinished games are not draws" \
  "$(json_value "$work/cap.json" 'd.ai_games.length.find(x => x.id === "draws").value')" "0"
expect_eq "analyze: unfinished games are no seat's win" \
  "$(json_value "$work/cap.json" 'd.ai_games.seats.map(s => s.wins.value)')" "[0,0]"

# ---- MPI: two processes give exactly what one gives ----
# Open MPI's own allocations outlive MPI_Finalize: leak checks are off for these runs only.
mpi=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" mpirun -n 2 --oversubscribe)
[ "$(id -u)" == 0 ] && mpi+=(--allow-run-as-root)
one=$("$RAMPARTS" sim king-of-danger --games 9 --ai greedy,random --json)
two=$("${mpi[@]}" "$RAMPARTS" sim king-of-danger --games 9 --ai greedy,random --json)
expect_eq "sim under mpirun -n 2 equals one process" "$two" "$one"
one=$("$RAMPARTS" arena rush-the-wall players=2 --ai random,greedy --games 5 --json)
two=$("${mpi[@]}" "$RAMPARTS" arena rush-the-wall players=2 --ai random,greedy --games 5 --json)
times='s/,"a_ms_per_move":[-0-9.e+]*,"b_ms_per_move":[-0-9.e+]*//g' # the machine's, not results
expect_eq "arena under mpirun -n 2 equals one process" "$(sed "$times" <<<"$two")" \
  "$(sed "$times" <<<"$one")"
args=(walls-and-armies --games 7 --ladder random,greedy --ladder-games 3 --ceiling-games 2
  --oracle iters=30 --judge easy
  --judge-games 1 --vs turn-cap=150)
"$RAMPARTS" analyze "${args[@]}" --json "$work/one.json" >/dev/null
"${mpi[@]}" "$RAMPARTS" analyze "${args[@]}" --json "$work/two.json" >/dev/null
if cmp -s "$work/one.json" "$work/two.json" && [ -s "$work/one.json" ]; then pass; else
  fail "analyze under mpirun -n 2 differs from one process"; fi
# the results gathered a few games at a time (the loop large runs take) give the same
RAMPARTS_MPI_GATHER_BYTES=20000 "${mpi[@]}" -x RAMPARTS_MPI_GATHER_BYTES "$RAMPARTS" analyze \
  "${args[@]}" --json "$work/blocks.json" >/dev/null
if cmp -s "$work/one.json" "$work/blocks.json"; then pass; else
  fail "analyze under mpirun -n 2, gathered in small blocks, differs from one process"; fi

# ---- records: games with a human seat apart from games AIs played alone ----
for f in $(ls "$work/rec-danger-at-the-walls"/*.rec | head -6); do
  sed -i 's/^\[seat 0 .*\]$/[seat 0 human]/' "$f"; done
"$RAMPARTS" analyze danger-at-the-walls --games 0 --ladder-games 0 \
  --records "$work/rec-danger-at-the-walls" \
  --json "$work/human.json" >/dev/null
expect_eq "records: 6 with a human seat, 4 played by AIs alone, kept apart" \
  "$(json_value "$work/human.json" '[d.human_games.games, d.human_games.ai_only_records, d.ai_records.games]')" \
  "[6,4,4]"
expect_eq "records: nothing called significant in 6 games" \
  "$(json_value "$work/human.json" '[d.human_games.impact.significance_shown, d.human_games.impact.rows.some(r => r.significant)]')" \
  "[false,false]"

# ---- the HTML report in headless Chromium ----
"$RAMPARTS" analyze danger-at-the-walls --games 10 --ladder random,greedy,easy \
  --ladder-games 4 --ceiling-games 2 --oracle iters=30 --judge easy --judge-games 2 \
  --vs players=2 --sweep players=2 \
  --records "$work/rec-danger-at-the-walls" --out "$work/report.html" >/dev/null
expect_match "the report is one file with its script inline" \
  "$(grep -c '<script' "$work/report.html")" "^2$"
if grep -qiE '(src|href)="(https?:)?//' "$work/report.html"; then
  fail "the report loads something from the network"; else pass; fi
out=$(node "$SOURCE/web/report/check.mjs" "$NODE_MODULES" "$work/report.html" 2>&1)
expect_match "report opens with every plot drawn and no console error ($out)" "$out" \
  "plots \(seat-wins:[1-9].*variant-players=2:[1-9][0-9]*.*sweep-impact:[1-9][0-9]*\); sections verdict seats length ludii order-skill ladder impact impact-human decisive variants sweep human$"
finish
