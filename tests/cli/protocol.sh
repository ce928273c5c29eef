#!/usr/bin/env bash
# protocol.sh — the text protocol through the real binary, for every game: the GTP envelope,
# every command, and malformed input refused with "?" and no change to the state.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"

out=$(engine "list")
expect_match "list answers with =" "$out" "^= "
expect_eq "list names every game" "$(echo "$out" | sed 's/^= //' | sed '/^$/d')" "$(games)"

out=$(engine "legal")
expect_match "a command needing a game without one" "$out" "^\? no game"
out=$(engine "frobnicate")
expect_match "unknown command" "$out" "^\? unknown command 'frobnicate'"
out=$(printf 'new\n' | "$RAMPARTS" engine)
expect_match "missing argument" "$out" "^\? wrong number of arguments"
out=$(printf '\x01\x02\xff\xfe garbage\n' | "$RAMPARTS" engine)
expect_match "binary garbage" "$out" "^\? unknown command"
out=$(engine "7 list")
expect_match "GTP ids are echoed" "$out" "^=7 "
out=$(head -c 20000 /dev/zero | tr '\0' 'x'; echo; echo "list")
out=$( (head -c 20000 /dev/zero | tr '\0' 'x'; echo; echo list) | "$RAMPARTS" engine)
expect_match "an overlong line is refused and the engine goes on" "$out" "^\? line too long.*= "
expect_eq "every answer ends with an empty line" "$(engine list list | grep -c '^$')" "2"

# Issue 11: the protocol never reads a file. @FILE is refused; a path is not a card set, and
# the answer is the same whether the file exists or not.
out=$(engine "new rush-the-wall cards=@/etc/passwd")
expect_match "the protocol refuses @FILE" "$out" "^\? cards=@/etc/passwd: files are read only by the command-line tool"
a=$(engine "new rush-the-wall cards=/etc/passwd" | sed 's|/etc/passwd|X|g')
b=$(engine "new rush-the-wall cards=/no/such/file" | sed 's|/no/such/file|X|g')
expect_match "a path given as cards is refused" "$a" "^\? "
expect_eq "an existing and a missing path get the same answer" "$a" "$b"
expect_match "new answers with the options in effect (RTW-P5)" "$(engine "new rush-the-wall players=1")" "^= rush-the-wall players=1 seed=1 neutrals=1 variant=standard"
out=$(engine "new rush-the-wall cards=1,2,3,4,5,6,11,8,9/u2,s4,t8,l-1,l-2,l-2,l-3,d1,d1,d3,d3,d4,d4,d5,d5,d6,d6,d6" "state")
expect_match "the protocol takes a card set inline" "$(echo "$out" | nth_answer 2)" "cards=1,2,3,4,5,6,11,8,9/"
# GTP's administrative commands.
out=$(engine "name" "version" "protocol_version" "known_command genmove" "known_command frob" "list_commands")
expect_eq "name" "$(echo "$out" | nth_answer 1)" "= Ramparts"
expect_match "version" "$(echo "$out" | nth_answer 2)" "^= [0-9]+\.[0-9]+\.[0-9]+$"
expect_eq "version is the tool's" "$(echo "$out" | nth_answer 2 | sed 's/^= //')" "$("$RAMPARTS" --version | sed 's/^ramparts //')"
expect_eq "protocol_version" "$(echo "$out" | nth_answer 3)" "= 2"
expect_eq "known_command genmove" "$(echo "$out" | nth_answer 4)" "= true"
expect_eq "known_command frob" "$(echo "$out" | nth_answer 5)" "= false"
cmds=$(echo "$out" | nth_answer 6 | sed 's/^= //')
for c in name version protocol_version list_commands known_command new play genmove undo events time_settings time_left record loadrecord secrets quit; do
  grep -qx "$c" <<<"$cmds" && pass || fail "list_commands lacks $c"
done
out=$(engine "known_command")
expect_match "known_command needs a name" "$out" "^\? wrong number of arguments"

# new answers every option in effect, derived values included (issue 18).
out=$(engine "new castle-danger tournament=1" "new rush-the-wall players=1" "new king-of-danger players=3")
expect_match "castle-danger tournament=1 has the 25-turn limit" "$(echo "$out" | nth_answer 1)" "turn-limit=25( |$)"
expect_match "rush-the-wall alone gets a neutral clan (RTW-P5)" "$(echo "$out" | nth_answer 2)" "players=1 .*neutrals=1( |$)"
expect_match "king-of-danger players=3" "$(echo "$out" | nth_answer 3)" "^= king-of-danger players=3 seed=1"

# Time control: genmove thinks a twentieth of the time left, or a share of byo-yomi.
out=$(engine "new castle-danger seed=2" "time_left 0 5 0" "time_settings 10 0 0" "genmove" \
             "time_left 0 2 0" "time_left 1 2 0" "genmove" "time_settings 0 4 2" "genmove" \
             "time_settings x 0 0" "time_settings 10 5 0" "time_left 7 1 0" "time_settings 0 0 0" \
             "genmove random")
expect_match "time_left before time_settings" "$(echo "$out" | nth_answer 2)" "^\? no time control"
expect_match "genmove under 10 s main time" "$(echo "$out" | nth_answer 4)" "budget_ms=500$"
expect_match "genmove with 2 s left" "$(echo "$out" | nth_answer 7)" "budget_ms=100$"
expect_match "genmove in byo-yomi: 4 s for 2 moves" "$(echo "$out" | nth_answer 9)" "budget_ms=1800$"
expect_match "time_settings of garbage" "$(echo "$out" | nth_answer 10)" "^\? 'x': expected whole seconds"
expect_match "byo-yomi without moves" "$(echo "$out" | nth_answer 11)" "^\? byo-yomi needs"
expect_match "time_left for no seat" "$(echo "$out" | nth_answer 12)" "^\? no player '7'"
expect_match "no time control again" "$(echo "$out" | nth_answer 14)" "budget_ms=0$"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for game in $(games); do
  # genmove: the move, then what the AI says about it.
  out=$(engine "new $game seed=5" "genmove easy:iters=50" "genmove random" "events 0" "events spectator" "events 9")
  expect_match "$game: genmove reports its estimate and iterations" "$(echo "$out" | nth_answer 2)" $'^= .+\ninfo seat=[0-9]+ win_chance=[0-9.]+ iterations=50 budget_ms=0$'
  expect_match "$game: genmove random reports its iterations" "$(echo "$out" | nth_answer 3)" $'\ninfo seat=[0-9]+ iterations=[0-9]+ budget_ms=0$'
  expect_match "$game: events for a seat is a JSON array" "$(echo "$out" | nth_answer 4)" '^= \[\{"kind":"[a-z-]+".*"text":".+\}\]$'
  expect_match "$game: events for the spectator" "$(echo "$out" | nth_answer 5)" '^= \[\{"kind":'
  expect_match "$game: events for no viewer" "$(echo "$out" | nth_answer 6)" "^\? no viewer '9'"
  out=$(engine "new $game" "events 0")
  expect_match "$game: events before any move" "$(echo "$out" | nth_answer 2)" "^\? no move has been played yet"
  # secrets (debug): the referee names what a viewer may not learn.
  out=$(engine "new $game seed=5" "secrets 0" "secrets spectator" "secrets x")
  expect_match "$game: secrets 0 answers" "$(echo "$out" | nth_answer 2)" "^="
  expect_match "$game: secrets spectator answers" "$(echo "$out" | nth_answer 3)" "^="
  expect_match "$game: secrets of no viewer" "$(echo "$out" | nth_answer 4)" "^\? no viewer"
  # record prints the game; loadrecord reads it back to the same state; bad ones change nothing.
  out=$(engine "new $game seed=6" "genmove random" "genmove random" "genmove random" "record" "state")
  echo "$out" | nth_answer 5 | sed '1d' > "$tmp/p.rec"
  expect_match "$game: record has the header" "$(cat "$tmp/p.rec")" "^# Ramparts game record"
  expect_eq "$game: record has three moves" "$(grep -c -v -e '^#' -e '^\[' "$tmp/p.rec")" "3"
  printf '[game %s]\n[seed 1]\nnot a move\n' "$game" > "$tmp/bad.rec"
  out2=$(engine "new $game seed=9" "state" "loadrecord $tmp/p.rec" "state" "loadrecord $tmp/bad.rec" "state" "loadrecord $tmp/none.rec" "state")
  expect_match "$game: loadrecord answers the game" "$(echo "$out2" | nth_answer 3)" "^= $game 3 moves ongoing"
  expect_eq "$game: loadrecord gives the recorded state" "$(echo "$out2" | nth_answer 4)" "$(echo "$out" | nth_answer 6)"
  expect_match "$game: a bad record names the line" "$(echo "$out2" | nth_answer 5)" "^\? $tmp/bad.rec:3: move 'not a move'"
  expect_eq "$game: a bad record changes nothing" "$(echo "$out2" | nth_answer 6)" "$(echo "$out2" | nth_answer 4)"
  expect_match "$game: a missing record" "$(echo "$out2" | nth_answer 7)" "^\? cannot open"
  expect_eq "$game: a missing record changes nothing" "$(echo "$out2" | nth_answer 8)" "$(echo "$out2" | nth_answer 4)"
done

for game in $(games); do
  out=$(engine "new $game nonsense=1")
  expect_match "$game: unknown option refused" "$out" "^\? unknown option 'nonsense'"
  out=$(engine "new $game seed=3" "legal")
  first=$(echo "$out" | nth_answer 2 | head -1 | sed 's/^= //')
  [ -n "$first" ] && pass || fail "$game: legal gave no move"
  # Every refused command leaves the state as it was.
  out=$(engine "new $game seed=3" "state" "play this-is-not-a-move" "state" "load garbage" \
               "state" "view 99" "view x" "undo" "state" "play $first" "state" "undo" "state")
  s1=$(echo "$out" | nth_answer 2)
  expect_match "$game: bad move refused" "$(echo "$out" | nth_answer 3)" "^\? "
  expect_eq "$game: bad move changes nothing" "$(echo "$out" | nth_answer 4)" "$s1"
  expect_match "$game: bad load refused" "$(echo "$out" | nth_answer 5)" "^\? "
  expect_eq "$game: bad load changes nothing" "$(echo "$out" | nth_answer 6)" "$s1"
  expect_match "$game: view of a missing player" "$(echo "$out" | nth_answer 7)" "^\? no viewer"
  expect_match "$game: view of garbage" "$(echo "$out" | nth_answer 8)" "^\? no viewer"
  expect_match "$game: undo with no moves" "$(echo "$out" | nth_answer 9)" "^\? no move"
  expect_eq "$game: refused undo changes nothing" "$(echo "$out" | nth_answer 10)" "$s1"
  expect_eq "$game: play answers =" "$(echo "$out" | nth_answer 11)" "="
  s2=$(echo "$out" | nth_answer 12)
  [ "$s1" != "$s2" ] && pass || fail "$game: play did not change the state"
  expect_eq "$game: undo restores the state" "$(echo "$out" | nth_answer 14)" "$s1"
  # load puts back a saved state exactly.
  notation=$(echo "$s2" | sed 's/^= //')
  out=$(engine "new $game seed=99" "load $notation" "state")
  expect_eq "$game: load round-trips" "$(echo "$out" | nth_answer 3)" "$s2"
  # view is one line of JSON; status; genmove plays a legal move.
  out=$(engine "new $game seed=3" "view 0" "status" "genmove" "genmove random" "genmove nope")
  expect_match "$game: view is JSON" "$(echo "$out" | nth_answer 2)" "^= \{.*\}$"
  expect_eq "$game: status ongoing" "$(echo "$out" | nth_answer 3)" "= ongoing"
  expect_match "$game: genmove names a move" "$(echo "$out" | nth_answer 4)" "^= .+"
  expect_match "$game: genmove random" "$(echo "$out" | nth_answer 5)" "^= .+"
  expect_match "$game: bad AI refused with the list" "$(echo "$out" | nth_answer 6)" "^\? unknown AI 'nope'.*random"
  # A whole game through genmove ends with status over.
  cmds=("new $game seed=11")
  for i in $(seq 1 20000); do cmds+=("genmove random"); done
  cmds+=("status")
  status=$(engine "${cmds[@]}" | grep -E '^= (ongoing|over)' | tail -1)
  expect_match "$game: a genmove game ends" "$status" "^= over"
done
finish
