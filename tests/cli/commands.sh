#!/usr/bin/env bash
# commands.sh — the ramparts commands through the real binary: help and exit codes, list,
# rules, sim (text and --json), bench's line format, play writing a record that replay
# verifies, and broken records refused with the line and the reason.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RAMPARTS_RECORDS=$tmp/records

for cmd in list rules play sim replay bench engine; do
  expect_status "$cmd --help exits 0" 0 "$RAMPARTS" $cmd --help
  out=$("$RAMPARTS" $cmd --help)
  expect_match "$cmd --help shows usage" "$out" "usage: ramparts $cmd"
done
expect_status "no command" 2 "$RAMPARTS"
expect_status "unknown command" 2 "$RAMPARTS" frobnicate
expect_status "unknown game" 2 "$RAMPARTS" play no-such-game
expect_status "unknown option" 2 "$RAMPARTS" sim "$(games | head -1)" --frobnicate
expect_status "bad --games" 2 "$RAMPARTS" sim "$(games | head -1)" --games -4
expect_status "bad AI" 2 "$RAMPARTS" sim "$(games | head -1)" --ai random,bogus
expect_status "bad option" 2 "$RAMPARTS" play "$(games | head -1)" colour=purple
expect_match "bad AI lists the valid ones" "$("$RAMPARTS" sim "$(games | head -1)" --ai bogus 2>&1)" "greedy"
# Issue 43's stumbles: a seed too large for the tool is refused, not clamped to 2^63-1; more
# AIs than seats is refused, not silently ignored; paired games say how each AI did.
expect_status "a seed past 2^63-1 is refused" 2 "$RAMPARTS" sim danger-at-the-walls --seed 99999999999999999999999
expect_match "the refusal names the seed" "$("$RAMPARTS" sim danger-at-the-walls --seed 99999999999999999999999 2>&1)" "--seed 99999999999999999999999: expected"
expect_status "more AIs than seats is refused" 2 "$RAMPARTS" sim danger-at-the-walls --ai greedy,random,easy
expect_match "the refusal counts the AIs and seats" "$("$RAMPARTS" sim danger-at-the-walls --ai greedy,random,easy 2>&1)" "lists 3 AIs, but danger-at-the-walls is played by 2"
expect_status "three AIs for three seats are fine" 0 "$RAMPARTS" sim king-of-danger --games 2 --ai greedy,random,easy players=3
paired=$(NO_COLOR=1 "$RAMPARTS" sim castle-danger --games 6 --seed 3 --ai greedy,random)
expect_match "paired sim names each AI's wins" "$paired" "AI 1  greedy +wins +[0-9]+.*AI 2  random +wins +[0-9]+"
pjson=$("$RAMPARTS" sim castle-danger --games 6 --seed 3 --ai greedy,random --json)
pwins=$(echo "$pjson" | sed 's/.*"wins":\[\([^]]*\)\].*/\1/')
pby=$(echo "$pjson" | sed 's/.*"wins_by_ai":\[\([^]]*\)\].*/\1/')
expect_eq "paired sim: wins by AI add up to wins by seat" "$(( ${pby//,/+} ))" "$(( ${pwins//,/+} ))"

# Issue 43: the beginner level, in every game, at the terminal and in sim, the same games from
# the same seed; a misspelt level is refused and named among the valid ones.
for game in $(games); do
  out=$(printf 'quit\n' | "$RAMPARTS" play "$game" --seed 4 --seat 1=beginner --record "$tmp/b.rec" 2>&1)
  expect_eq "$game: play against beginner starts and saves (exit 0)" "$?" "0"
  expect_match "$game: the record names the beginner seat" "$(cat "$tmp/b.rec")" "beginner"
  first=$("$RAMPARTS" sim "$game" --games 4 --seed 4 --ai beginner,random --json)
  again=$("$RAMPARTS" sim "$game" --games 4 --seed 4 --ai beginner,random --json)
  expect_eq "$game: beginner plays the same games from the same seed" "$first" "$again"
done
expect_status "a misspelt level" 2 "$RAMPARTS" play "$(games | head -1)" --seat 1=beginer
expect_match "the refusal names beginner" "$("$RAMPARTS" sim "$(games | head -1)" --ai beginer 2>&1)" "beginner"

for game in $(games); do
  expect_match "$game: rules printed" "$("$RAMPARTS" rules "$game")" "."
  # sim: the JSON has the keys the issue names, and the counts add up.
  json=$("$RAMPARTS" sim "$game" --games 20 --seed 4 --json)
  expect_match "$game: sim --json keys" "$json" '"games":20.*"wins":\[.*\].*"draws":.*"mean_actions":'
  wins=$(echo "$json" | sed 's/.*"wins":\[\([^]]*\)\].*/\1/')
  draws=$(echo "$json" | sed 's/.*"draws":\([0-9]*\).*/\1/')
  unfinished=$(echo "$json" | sed 's/.*"unfinished":\([0-9]*\).*/\1/')
  total=$(( ${wins//,/+} + draws + unfinished ))
  expect_eq "$game: wins, draws and unfinished games add up to the games" "$total" "20"
  json2=$("$RAMPARTS" sim "$game" --games 20 --seed 4 --json --threads 2)
  expect_eq "$game: sim is the same with 2 threads" "$json2" "$json"
  text=$(NO_COLOR=1 "$RAMPARTS" sim "$game" --games 5 --ai greedy,random)
  expect_match "$game: sim text report" "$text" "mean actions per game"
  [[ "$text" != *$'\033'* ]] && pass || fail "$game: colour in piped sim output"
  # bench: one line in the documented format.
  line=$("$RAMPARTS" bench "$game" --games 50)
  expect_match "$game: bench line" "$line" "^$game games_per_s=[0-9]+ ns_per_action=[0-9.]+ actions=[0-9]+$"
  # play with AIs on every seat writes a record that replays to the same result.
  players=$(printf 'new %s seed=21\nstate\n' "$game" | "$RAMPARTS" engine | sed -n 's/^= [a-z-]* players=\([0-9]*\).*/\1/p')
  seats=()
  for s in $(seq 0 $((players - 1))); do seats+=(--seat "$s=random"); done
  out=$(NO_COLOR=1 "$RAMPARTS" play "$game" --seed 21 "${seats[@]}" --record "$tmp/$game.rec")
  expect_match "$game: an all-AI game ends" "$out" "Game over"
  # Issue 26: the end is told once (the game's own game-over line and event give way to it).
  expect_eq "$game: the end is told once" "$(grep -c -i 'game over' <<<"$out")" "1"
  [[ "$out" != *$'\033'* ]] && pass || fail "$game: colour when not a terminal"
  replay=$("$RAMPARTS" replay "$tmp/$game.rec")
  # Issue 26: replay says in words who won and why, and what --show and --step do.
  expect_match "$game: the record replays" "$replay" "verified"
  expect_match "$game: replay says who won" "$replay" "(wins|share)"
  expect_eq "$game: replay tells the end as the game did" "$(grep 'Game over' <<<"$replay")" "$(grep 'Game over' <<<"$out")"
  expect_match "$game: replay says what --show and --step do" "$replay" "'--show' tells the whole game"
  # Issue 43: --show ends on the result line once, not again in the summary after it.
  shown=$(NO_COLOR=1 "$RAMPARTS" replay "$tmp/$game.rec" --show)
  expect_eq "$game: replay --show tells the end once" "$(grep -c -i 'game over' <<<"$shown")" "1"
  # Issue 43: the table explains itself: Walls and Armies' three ways of drawing a wall, and
  # Danger at the Walls' column of who holds each wall.
  case $game in
    walls-and-armies) expect_match "$game: the walls' key" "$shown" "\[card\] face up; \(card\) face down, seen by both players earlier; \[##\] face down, unseen" ;;
    danger-at-the-walls) expect_match "$game: the walls' headings" "$shown" $'\nWall +held by +side str +cards\nWall 1: ' ;;
  esac
  [[ "$replay" != *returns* ]] && pass || fail "$game: replay prints the status notation: $replay"
  expect_eq "$game: the record's result is the game's" \
    "$(replay_status "$tmp/$game.rec")" "$(sed -n 's/^\[result \(.*\)\]$/\1/p' "$tmp/$game.rec")"
  # A human answering by number, then quitting: the record is saved and replays.
  out=$(printf '1\nyes\nbogus move\n999\n1\nyes\nquit\n' | "$RAMPARTS" play "$game" --seed 5 --record "$tmp/h.rec")
  expect_match "$game: a bad move is refused with a reason" "$out" "Not played: "
  expect_match "$game: a number out of range is refused" "$out" "There is no move 999"
  expect_status "$game: the human's record replays" 0 "$RAMPARTS" replay "$tmp/h.rec"
  # undo takes back the human's move and the AI's replies: the record is as if never played.
  printf 'quit\n' | "$RAMPARTS" play "$game" --seed 6 --record "$tmp/u0.rec" >/dev/null
  printf '1\nyes\nundo\nquit\n' | "$RAMPARTS" play "$game" --seed 6 --record "$tmp/u1.rec" >/dev/null
  expect_eq "$game: undo restores the position before the human's move" \
    "$("$RAMPARTS" replay "$tmp/u1.rec" | sed 's/^[^:]*: //')" "$("$RAMPARTS" replay "$tmp/u0.rec" | sed 's/^[^:]*: //')"
  # The default record folder.
  printf 'quit\n' | "$RAMPARTS" play "$game" --seed 5 >/dev/null
  ls "$RAMPARTS_RECORDS"/"$game"-*.rec >/dev/null 2>&1 && pass || fail "$game: no record saved by default"
  # Broken records: refused with the line and the reason, exit 1.
  movelines=$(grep -n -v -e '^#' -e '^\[' "$tmp/$game.rec" | head -3 | tail -1 | cut -d: -f1)
  sed "${movelines}s/.*/not a move at all/" "$tmp/$game.rec" > "$tmp/bad.rec"
  err=$("$RAMPARTS" replay "$tmp/bad.rec" 2>&1)
  expect_status "$game: a bad move line fails replay" 1 "$RAMPARTS" replay "$tmp/bad.rec"
  expect_match "$game: replay names the line" "$err" "bad.rec:$movelines: move 'not a move at all'"
  sed 's/^\[game .*/[game no-such-game]/' "$tmp/$game.rec" > "$tmp/bad2.rec"
  expect_match "$game: unknown game in a record" "$("$RAMPARTS" replay "$tmp/bad2.rec" 2>&1)" "bad2.rec:2: unknown game"
  sed 's/^\[options \(.*\)\]/[options \1 bogus=1]/' "$tmp/$game.rec" > "$tmp/bad3.rec"
  expect_match "$game: bad option in a record" "$("$RAMPARTS" replay "$tmp/bad3.rec" 2>&1)" "bad3.rec:4: unknown option 'bogus'"
done
# Rush the Wall's card values are a replaceable card set (RW-2, RW-3): cards=@FILE reads a card
# file on the command line into the option's one-word value (issue 11); rules shows the values.
sed 's/^warrior axx 7$/warrior axx 11/' "$(dirname "$0")/../../data/rush-the-wall.cards" > "$tmp/cards"
out=$("$RAMPARTS" rules rush-the-wall cards=@"$tmp/cards")
expect_match "rules shows the card values in use" "$out" "Axx 11"
expect_match "rules says the values are assumptions" "$out" "assumptions"
expect_match "rules shows the set as an option value" "$out" "cards=1,2,3,4,5,6,11,8,9/u2,s4,t8,l-1,"
expect_match "rules shows the defaults" "$("$RAMPARTS" rules rush-the-wall)" "Axx 7"
printf 'warrior filchy 1\nwarrior qween lots\n' > "$tmp/badcards"
err=$("$RAMPARTS" rules rush-the-wall cards=@"$tmp/badcards" 2>&1)
expect_match "a malformed card file names the line" "$err" "badcards line 2: strength 'lots'"
expect_status "a malformed card file fails" 1 "$RAMPARTS" rules rush-the-wall cards=@"$tmp/badcards"
expect_status "a malformed card file stops play" 1 "$RAMPARTS" play rush-the-wall cards=@"$tmp/badcards"
expect_status "a malformed card file stops sim" 1 "$RAMPARTS" sim rush-the-wall cards=@"$tmp/badcards"
err=$("$RAMPARTS" rules rush-the-wall cards=@"$tmp/none" 2>&1)
expect_match "a missing card file is named" "$err" "cards=@$tmp/none: No such file"
expect_status "a missing card file fails" 1 "$RAMPARTS" rules rush-the-wall cards=@"$tmp/none"
printf 'warrior filchy 1\0\n' > "$tmp/nulcards"
expect_match "a card file with NUL bytes is refused" "$("$RAMPARTS" rules rush-the-wall cards=@"$tmp/nulcards" 2>&1)" "not a text file"
head -c 70000 /dev/zero | tr '\0' '#' > "$tmp/hugecards"
expect_match "an overlong card file is refused" "$("$RAMPARTS" rules rush-the-wall cards=@"$tmp/hugecards" 2>&1)" "larger than 65536 bytes"
expect_status "@FILE on an option without files is a usage error" 2 "$RAMPARTS" play rush-the-wall variant=@"$tmp/cards"
# Without @ the value is a card set, never a path: the game opens no file.
expect_match "a path is not a card set" "$("$RAMPARTS" rules rush-the-wall cards="$tmp/cards" 2>&1)" "cards=@FILE"
expect_status "sim takes cards=@FILE" 0 "$RAMPARTS" sim rush-the-wall --games 4 cards=@"$tmp/cards"
expect_status "arena takes cards=@FILE" 0 "$RAMPARTS" arena rush-the-wall --games 2 --ai random,random cards=@"$tmp/cards"
# A record of a game with custom cards carries the card set and replays without the file.
NO_COLOR=1 "$RAMPARTS" play rush-the-wall --seed 3 --seat 0=random --seat 1=random cards=@"$tmp/cards" --record "$tmp/cards.rec" >/dev/null
expect_match "the record carries the card set" "$(grep '^\[options' "$tmp/cards.rec")" "cards=1,2,3,4,5,6,11,8,9/u2,"
rm "$tmp/cards"
expect_status "the custom-card record replays without the file" 0 "$RAMPARTS" replay "$tmp/cards.rec"
expect_eq "its result is the game's" "$(replay_status "$tmp/cards.rec")" \
  "$(sed -n 's/^\[result \(.*\)\]$/\1/p' "$tmp/cards.rec")"
# Issue 18 item 1: a solo game plays with one neutral clan (RTW-P5); its record says so and replays.
NO_COLOR=1 "$RAMPARTS" play rush-the-wall players=1 --seed 4 --seat 0=random --record "$tmp/solo.rec" >/dev/null
expect_match "a solo record names the neutral clan in play" "$(grep '^\[options' "$tmp/solo.rec")" "players=1 neutrals=1"
expect_status "a solo record replays" 0 "$RAMPARTS" replay "$tmp/solo.rec"
printf '\x00\x01\xff' > "$tmp/binary.rec"
expect_status "a binary file is refused" 1 "$RAMPARTS" replay "$tmp/binary.rec"
expect_status "a missing file is refused" 1 "$RAMPARTS" replay "$tmp/none.rec"
finish
