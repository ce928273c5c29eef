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
  expect_match "$game: view of a missing player" "$(echo "$out" | nth_answer 7)" "^\? no player"
  expect_match "$game: view of garbage" "$(echo "$out" | nth_answer 8)" "^\? no player"
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
