#!/usr/bin/env bash
# play.sh — the terminal game through pipes: the record path checked before the game starts,
# record names that never collide, over-long lines and control characters refused whole and
# never echoed, commands in any case, illegal moves explained, resign with its end line,
# --resume, the hot seat's hand-over screen and undo rules, watch and replay --show/--step,
# TERM=dumb, and `make install`'s tree used through pkg-config.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RAMPARTS_RECORDS=$tmp/records NO_COLOR=1

# The record path is checked before the game starts: exit 1, no game played.
out=$(printf '1\nquit\n' | "$RAMPARTS" play castle-danger --record "$tmp/no/such/dir/g.rec" 2>&1)
expect_status "an unwritable record path fails" 1 "$RAMPARTS" play castle-danger --record "$tmp/no/such/dir/g.rec"
expect_match "the bad path is named" "$out" "cannot write the record $tmp/no/such/dir/g.rec"
[[ "$out" != *"Blue>"* ]] && pass || fail "the game started despite a bad record path"
mkdir "$tmp/adir"
expect_status "a folder as the record fails" 1 "$RAMPARTS" play castle-danger --record "$tmp/adir"
: > "$tmp/records-file"
out=$(printf 'quit\n' | RAMPARTS_RECORDS=$tmp/records-file/x "$RAMPARTS" play castle-danger 2>&1)
expect_match "an unusable record folder fails before the game" "$out" "cannot make the record folder"

# Record names never collide: the same game, seed and second twice gives two files.
printf 'quit\n' | "$RAMPARTS" play castle-danger --seed 9 >/dev/null
printf 'quit\n' | "$RAMPARTS" play castle-danger --seed 9 >/dev/null
printf 'quit\n' | "$RAMPARTS" play castle-danger --seed 9 >/dev/null
expect_eq "three games, three records" "$(ls "$RAMPARTS_RECORDS" | grep -c 'castle-danger-.*-9.*\.rec$')" "3"

# Over-long lines are refused whole; control characters are refused and never echoed.
long=$(head -c 5000 /dev/zero | tr '\0' '1')
out=$(printf '%s\n1\nyes\nquit\n' "$long" | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/l.rec")
expect_match "an over-long line is refused" "$out" "That line is too long"
expect_match "the game goes on after it" "$out" "Blue> 1"
expect_eq "the long line played nothing, the next line one move" \
  "$(grep -c -v -e '^#' -e '^\[' "$tmp/l.rec")" "$(printf '1\nyes\nquit\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/l2.rec" >/dev/null; grep -c -v -e '^#' -e '^\[' "$tmp/l2.rec")"
out=$(printf 'moves\033[31m\n\001undo\nquit\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/c.rec")
expect_eq "control characters refused twice" "$(grep -c 'holds control characters' <<<"$out")" "2"
[[ "$out" != *$'\033[31m'* && "$out" != *$'\001'* ]] && pass || fail "a control character was echoed"

# Commands are trimmed and case-insensitive; an illegal move says why.
out=$(printf '   HeLP  \n MOVES\nquit\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/c.rec")
expect_match "HELP in any case" "$out" "At your turn:"
expect_match "MOVES in any case" "$out" "1 end"
out=$(printf 'a1-a2\nfrobnicate\n0\nquit\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/c.rec")
expect_match "an illegal move is refused with a reason" "$out" "Not played: "
expect_match "a number out of range" "$out" "There is no move 0"

# resign: confirmed, then one end line, and the record says so and replays.
out=$(printf 'resign\nyes\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/r.rec")
expect_match "resign ends the game with one line" "$out" "Blue resigns: Red wins."
expect_match "the record holds the resignation" "$(cat "$tmp/r.rec")" $'\\[resign 0\\]'
expect_eq "a resigned record replays" "$(replay_status "$tmp/r.rec")" "over resigned 0 returns 0 1"
expect_match "replay says who resigned" "$("$RAMPARTS" replay "$tmp/r.rec")" "Blue resigns: Red wins."
out=$(printf 'resign\nno\nquit\n' | "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/r2.rec")
[[ "$out" != *"resigns"* ]] && pass || fail "resign without yes resigned"

# --resume continues an unfinished record and saves back to it; a finished one is refused.
# ('yes' confirms Castle Danger's move 1, an early 'end'; the other games refuse it as a move.)
for game in $(games); do
  printf '1\nyes\n1\nyes\nquit\n' | "$RAMPARTS" play "$game" --seed 8 --seat 1=random --record "$tmp/res.rec" >/dev/null
  before=$(grep -c -v -e '^#' -e '^\[' "$tmp/res.rec")
  out=$(printf '1\nyes\nquit\n' | "$RAMPARTS" play --resume "$tmp/res.rec")
  expect_match "$game: resume says where it starts" "$out" "resumed after [0-9]+ moves?"
  after=$(grep -c -v -e '^#' -e '^\[' "$tmp/res.rec")
  [ "$after" -gt "$before" ] && pass || fail "$game: resume did not add moves ($before -> $after)"
  expect_status "$game: the resumed record replays" 0 "$RAMPARTS" replay "$tmp/res.rec"
  expect_match "$game: the seats are kept" "$(cat "$tmp/res.rec")" $'\\[seat 1 random\\]'
done
expect_status "resume of a finished game fails" 1 "$RAMPARTS" play --resume "$tmp/r.rec"
expect_status "resume of a missing file fails" 1 "$RAMPARTS" play --resume "$tmp/none.rec"
expect_status "resume with a game is a usage error" 2 "$RAMPARTS" play castle-danger --resume "$tmp/res.rec"

# Issue 18: records replay as the game that was played — solo Rush the Wall (its neutral clan,
# RTW-P5), Castle Danger's tournament limit, and a position with another player count.
printf 'quit\n' | "$RAMPARTS" play rush-the-wall players=1 --seed 3 --seat 0=random --record "$tmp/solo.rec" >/dev/null
expect_match "solo Rush the Wall records its neutral clan" "$(cat "$tmp/solo.rec")" $'\\[options players=1 neutrals=1'
expect_status "solo Rush the Wall replays" 0 "$RAMPARTS" replay "$tmp/solo.rec"
printf 'quit\n' | "$RAMPARTS" play castle-danger tournament=1 --seed 3 --seat 0=random --seat 1=random --record "$tmp/t.rec" >/dev/null
expect_match "a tournament record has the 25-turn limit" "$(cat "$tmp/t.rec")" "turn-limit=25"
expect_eq "the tournament record replays to its result" "$(replay_status "$tmp/t.rec")" "$(sed -n 's/^\[result \(.*\)\]$/\1/p' "$tmp/t.rec")"
position=$(printf 'new king-of-danger players=2 seed=3\nstate\n' | "$RAMPARTS" engine | nth_answer 2 | sed 's/^= //')
printf '1\nquit\n' | "$RAMPARTS" play king-of-danger players=5 dealer=4 --position "$position" --record "$tmp/pos.rec" >/dev/null
expect_match "a position's record has its player count" "$(cat "$tmp/pos.rec")" $'\\[options players=2 '
expect_status "a record from another player count's position replays" 0 "$RAMPARTS" replay "$tmp/pos.rec"

# Hot seat, nothing hidden (Castle Danger; issue 26): no hand-over, the turn passes on the same
# screen; the one who just moved may take it back at the next one's prompt, which offers it.
out=$(printf 'undo\n1\nyes\nundo\n1\nyes\n1\nyes\nundo\nquit\n' | NO_COLOR=1 "$RAMPARTS" play castle-danger --seat 1=human --seed 3 --record "$tmp/h.rec")
[[ "$out" != *"Pass the terminal"* && "$out" != *"screen is cleared here"* ]] && pass || fail "hot seat: a hand-over where nothing is hidden"
expect_match "hot seat: nothing to take back" "$out" "Blue, you cannot undo: you have no move to take back"
expect_match "hot seat: the turn passes, offering undo" "$out" "Red \(seat 1\) to play. \(Blue: 'undo' takes back your move.\)"
expect_match "hot seat: the previous player's move taken back at the next prompt" "$out" "Blue took back their last move, 'end'."
expect_match "hot seat: and the other way round" "$out" "Red took back their last move, 'end'."

# Hot seat with hidden cards (Danger at the Walls): a hand-over screen, which offers undo only
# where it would be allowed (a played card showed what was hidden: refused, and not offered).
out=$(printf '\n1\n1\nundo\n\n1\n1\n1\n1\n\nundo\nquit\n' | NO_COLOR=1 "$RAMPARTS" play danger-at-the-walls --seat 1=human --seed 3 --record "$tmp/h2.rec")
expect_match "hot seat: a hand-over screen" "$out" "Pass the terminal to Red \(seat 1\)"
expect_match "hot seat: the screen is cleared" "$out" "the screen is cleared here"
[[ "$out" != *"type 'undo' first"* ]] && pass || fail "hot seat: undo offered where it is refused"
expect_match "hot seat: a move that showed a card cannot be taken back" "$out" "Blue, you cannot undo: your last move showed something"
expect_match "hot seat: not another's move" "$out" "Blue, you cannot undo: Red \(human\) has moved since"
out=$(printf '1\n1\n1\n1\n1\n1\nquit\n' | NO_COLOR=1 "$RAMPARTS" play walls-and-armies --seat 1=human --seed 3 --record "$tmp/h3.rec")
[[ "$out" != *"Pass the terminal"* ]] && pass || fail "hot seat: Walls and Armies (nothing private) hands over"
expect_match "hot seat: Walls and Armies passes the turn on the same screen" "$out" "\\(seat [01]\\) to play."

# watch and replay --show / --step tell the game as one viewer saw it.
out=$("$RAMPARTS" watch castle-danger --ai random --pace 0 --seed 2 --record "$tmp/w.rec")
expect_match "watch shows moves" "$out" "-- Move 1: Blue --"
expect_match "watch ends with one line" "$out" "Game over|Stopped after"
expect_status "watch's record replays" 0 "$RAMPARTS" replay "$tmp/w.rec"
expect_status "watch: a bad viewer" 2 "$RAMPARTS" watch castle-danger --seat 7
expect_status "watch: a bad AI" 2 "$RAMPARTS" watch castle-danger --ai bogus
show=$("$RAMPARTS" replay "$tmp/w.rec" --show --seat 1)
expect_match "replay --show narrates" "$show" "-- Move 2: (Blue|Red) --"
step=$(printf '\n\n\np\n5\nq\n' | "$RAMPARTS" replay "$tmp/w.rec" --step --seat spectator)
expect_match "replay --step starts at the start" "$step" "-- The start"
expect_eq "replay --step goes forward then back" "$(grep -o -- '-- Move [0-9]*' <<<"$step" | tr '\n' ' ')" "-- Move 1 -- Move 2 -- Move 3 -- Move 2 -- Move 5 "

# Issue 26: replay --step counts moves (not history entries) and says when a number is past the end.
moves=$(sed -n 's/.*"moves":\([0-9]*\).*/\1/p' <<<"$("$RAMPARTS" replay "$tmp/w.rec" --json)")
step=$(printf '9999\nq\n' | "$RAMPARTS" replay "$tmp/w.rec" --step)
expect_match "replay --step counts the moves" "$step" "-- The start \($moves moves;"
expect_match "replay --step: a number past the end says so" "$step" "The game has $moves moves: here is the last."

# Issue 26: a refused input or an empty line prints the error alone; 'board' redraws.
out=$(printf 'nonsense\n\n999\nboard\nquit\n' | NO_COLOR=1 "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/e.rec")
expect_eq "errors and empty lines do not redraw the board; 'board' does" "$(grep -c 'Walls in supply' <<<"$out")" "2"
expect_match "the refused input says why" "$out" "Not played: 'nonsense' is not an action"
expect_match "Castle Danger counts one piece in the singular" "$out" "on board: 1 Wizard, 0 Builders, 0 Cannons"

# Issue 26: Castle Danger's 'end' with moves left asks first; 'no' plays nothing.
out=$(printf 'end\nno\nend\nyes\nquit\n' | NO_COLOR=1 "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/end.rec")
expect_match "an end that forfeits moves asks" "$out" "This ends your turn with 6 moves left unused. End it\? \(yes/no\)"
expect_eq "only the confirmed end is played" "$(grep -c -x 'end' "$tmp/end.rec")" "1"
expect_eq "the refused end is said" "$(grep -c '^Not played.$' <<<"$out")" "1"

# Issue 26: Danger at the Walls' refill draws show what changed, not the board again; undo says
# what it took back (the last draw, not the play).
out=$(printf '2\n1\nundo\nundo\nquit\n' | NO_COLOR=1 "$RAMPARTS" play danger-at-the-walls --seed 5 --record "$tmp/draw.rec")
draw_part=$(sed -n '/draws engineer/,/^Blue> /p' <<<"$out")
expect_match "a draw shows the new hand" "$draw_part" "Your hand: archer-1, archer-2, cannon-7, attack, engineer"
[[ "$draw_part" != *"Wall 1:"* ]] && pass || fail "a refill draw redrew the whole board: $draw_part"
expect_match "undo names the move taken back" "$out" "Took back your last move, 'draw personal'"
expect_match "undo says what one more undo takes back" "$out" "\\('undo' again takes back 'archers 3\\+3 wall 1'.\\)"
expect_match "and one more undo takes back the play" "$out" "Took back your last move, 'archers 3\\+3 wall 1'"

# Issue 26: long lines break at words to the width ($COLUMNS here; the terminal's on a terminal):
# the same words in the same order as unwrapped (through a pipe without COLUMNS), no line wider
# than the width but for a single word, and the moves list in columns that fit.
for game in $(games); do
  whole=$("$RAMPARTS" watch "$game" --ai random --pace 0 --seed 3)
  narrow=$(COLUMNS=50 "$RAMPARTS" watch "$game" --ai random --pace 0 --seed 3)
  expect_eq "$game: wrapping keeps every word, whole and in order" "$(tr -s ' \n' '\n\n' <<<"$narrow")" "$(tr -s ' \n' '\n\n' <<<"$whole")"
  wide=$(python3 -c 'import sys; print([l for l in sys.stdin.read().split("\n") if len(l) > 50 and " " in l.strip()][:1])' <<<"$narrow")
  expect_eq "$game: no wrapped line is wider than 50 columns" "$wide" "[]"
done
out=$(printf 'moves\nquit\n' | COLUMNS=60 "$RAMPARTS" play danger-at-the-walls --seed 5 --record "$tmp/wrap.rec")
expect_match "the moves list fits the width in columns" "$out" $'\n   1 archers 3 wall 1 +2 archers 3\\+3 wall 1\n'
expect_match "the moves hint breaks at a word, hanging under its label" "$out" $'cannon 7 wall\n       <1-5>  \\(\'moves\' numbers them\\)'
out=$(printf 'quit\n' | COLUMNS=40 "$RAMPARTS" play danger-at-the-walls --seed 5 --record "$tmp/greet.rec")
expect_eq "the greeting breaks at words too" "$(head -2 <<<"$out" | awk 'length > 40' | head -1)" ""
expect_match "the whole greeting is kept" "$(head -2 <<<"$out" | tr '\n' ' ')" "you are Blue \(seat +0\)\. Type 'help' for commands\."

# Issue 26: Walls and Armies shows a face-down wall both players have seen as (CARD), not [##].
expect_match "Walls and Armies shows the walls both players have seen" \
  "$("$RAMPARTS" watch walls-and-armies --ai random --pace 0 --seed 3)" "walls: .*:\([0-9JQKA]+[CDHS]\)"

# Issue 26: King of Danger's cards played this hand are grouped by suit, numbers in runs.
played=$("$RAMPARTS" watch king-of-danger --ai random --pace 0 --seed 3 | grep 'Played this hand: ')
group='(kings( [a-z]+)+|(walls|cannons|wizard)( [0-9]+(-[0-9]+)?)+)'
bad=$(grep -v -E "^  Played this hand: (\(none\)|$group(; $group)*)\$" <<<"$played" | head -1)
expect_eq "King of Danger groups the cards played this hand" "$bad" ""
expect_match "and runs of numbers are ranges" "$played" "walls 1-[0-9]"

# TERM=dumb: no colour even where colour would be allowed (checked on a terminal in
# terminal.py); here: the decision does not depend on TERM alone.
out=$(printf 'quit\n' | TERM=dumb "$RAMPARTS" play castle-danger --seed 4 --record "$tmp/d.rec")
[[ "$out" != *$'\033'* ]] && pass || fail "escape codes with TERM=dumb"

# make install's tree: the tool runs, and a C program builds with pkg-config against it.
build=$(dirname "$RAMPARTS")
if cmake --install "$build" --prefix "$tmp/prefix" >/dev/null 2>&1; then
  pass
  expect_match "the installed tool runs" "$("$tmp/prefix/bin/ramparts" list)" "castle-danger"
  pc=$(dirname "$(find "$tmp/prefix" -name ramparts.pc | head -1)")
  cat > "$tmp/prog.c" <<'EOF'
#include <ramparts/engine.h>
#include <ramparts/version.h>
int main(void)
{
    rp_config cfg;
    rp_config_default(rp_game_find("castle-danger"), &cfg);
    rp_match *m = rp_match_new(rp_game_find("castle-danger"), &cfg, NULL);
    if (!m)
        return 1;
    printf("%s %d\n", RP_VERSION_STRING, rp_num_games);
    rp_match_free(m);
    return 0;
}
EOF
  extra=""
  grep -q 'RP_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && extra="-fsanitize=address,undefined"
  if cc $extra "$tmp/prog.c" -o "$tmp/prog" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs --static ramparts) 2>"$tmp/cc.err"; then
    # pkg-config links the shared library when both are installed; the prefix is not on the
    # loader's path, so it is named here.
    expect_match "a program linked with pkg-config runs" "$(LD_LIBRARY_PATH=$pc/.. "$tmp/prog")" "^[0-9]+\.[0-9]+\.[0-9]+ 5$"
  else
    fail "compiling against the installed library: $(cat "$tmp/cc.err")"
  fi
else
  fail "cmake --install failed"
fi
finish
