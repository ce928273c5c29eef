// coach.mjs — the guided game's warnings (issue 43) of Walls and Armies, King of Danger, Danger at
// the Walls and Rush the Wall (src/games/coach-warnings.js) on set positions, in Node: every case
// is raised where it should be and not where it should not, and no warning holds notation. King
// of Danger's and Danger at the Walls' warnings that read the engine's outcomes are checked with
// the real engine in WebAssembly (src/games/outcomes.js, as the pages call it): seeded games are
// played, and each warning raised is checked against what the referee then does.
// Usage: node coach.mjs --wasm FILE [--games N]   (prints 'N passed, N failed'; exit 0 when all pass)
import { readFileSync } from 'node:fs';
import { loadEngine } from '../src/offline/engine.js';
import { outcomesOf } from '../src/games/outcomes.js';
import { dangerAtTheWallsWarning, kingOfDangerWarning, rushTheWallWarning, wallsAndArmiesWarning } from '../src/games/coach-warnings.js';
import { parseArgs, tally } from './harness.mjs';

const args = parseArgs(process.argv.slice(2), ['wasm'], 'node coach.mjs --wasm FILE [--games N]');
const GAMES = Number(args.games || 6);
const { check, finish } = tally();
// What no coach text may hold: a move's notation or a card's id (issue 43).
const NOTATION = /\b(?:cannons|walls|wizard|archer|cannon)-\d\b|\bking-of-|\b(?:dinary|unwary|signal|tax)\d|\blegion-\d|\b(?:10|[2-9JQKA])[CDHS]\b/;

/** One case: the words said (or null), whether a warning is wanted, and what it is.
 * @param {string} what @param {string|null} said @param {boolean} want */
function expect(what, said, want) {
  check(!!said === want, `coach: ${want ? 'warns' : 'does not warn'} before ${what}${said ? ` ("${said}")` : ''}`);
  if (said) check(!NOTATION.test(said), `coach: the warning before ${what} is in words, no notation: "${said}"`);
}

/** Walls and Armies (WA-3, WA-4): leaving a stack one short of its target, or level with it,
 * while the attacker has army cards gives the target away; a counter would not. */
function wallsAndArmies() {
  const legal = [{ text: 'leave', kind: 'leave', stack: 1 }, { text: 'counter', kind: 'counter', stack: 1 }];
  const view = (total, armies) => ({
    attacker: 1,
    players: [{ name: 'Blue', walls: [null, null], shields: [], army_cards: 4 }, { name: 'Red', walls: [null], shields: [], army_cards: armies }],
    stacks: [{ target: '10S', target_kind: 'wall', target_number: 2, cards: ['9D'], total }],
  });
  const leave = legal[0];
  expect('leaving a stack of 9 against a wall of 10 (any next card beats it)', wallsAndArmiesWarning(leave, view(9, 3), 0, legal), true);
  expect('leaving a stack level with its wall', wallsAndArmiesWarning(leave, view(10, 3), 0, legal), true);
  expect('leaving a stack of 6 against a wall of 10 (a card of 4 or less does not beat it)', wallsAndArmiesWarning(leave, view(6, 3), 0, legal), false);
  expect('leaving a stack when the attacker has no army card left (WA-5)', wallsAndArmiesWarning(leave, view(9, 0), 0, legal), false);
  expect('countering the stack', wallsAndArmiesWarning(legal[1], view(9, 3), 0, legal), false);
  expect('leaving when no counter is possible (WA-13)', wallsAndArmiesWarning(leave, view(9, 3), 0, [leave]), false);
}

/** Danger at the Walls: a Flag locks a wall for its holder (DW: Flags), so one on the opponent's
 * wall gives it away and cards at a flagged wall change nothing; a wall taken from you by your
 * own play (the engine's outcome) is warned of. */
function dangerAtTheWalls() {
  const side = (strength) => ({ archers: [], cannons: [], leaders: [], strength });
  const view = {
    walls: [
      { wall: 1, control: 'red', flag: null, blue: side(3), red: side(8) },
      { wall: 2, control: 'blue', flag: null, blue: side(9), red: side(2) },
      { wall: 3, control: 'red', flag: 'red', blue: side(0), red: side(5) },
    ],
  };
  const flagAt = (wall) => ({ text: `flag ${wall}`, kind: 'flag', wall });
  expect('a Flag on a wall Red holds, played by Blue', dangerAtTheWallsWarning(flagAt(1), view, 0, [], null), true);
  expect('a Flag on a wall Blue holds, played by Blue', dangerAtTheWallsWarning(flagAt(2), view, 0, [], null), false);
  expect('Archers at a wall a Flag locked', dangerAtTheWallsWarning({ text: 'archers 1+2 wall 3', kind: 'archers', cards: ['archer-1', 'archer-2'], wall: 3 }, view, 0, [], null), true);
  expect('an Attack at a wall a Flag locked (it still removes cards)', dangerAtTheWallsWarning({ text: 'attack 3 archers', kind: 'attack', wall: 3 }, view, 0, [], null), false);
  expect('Archers at an open wall', dangerAtTheWallsWarning({ text: 'archers 1 wall 1', kind: 'archers', cards: ['archer-1'], wall: 1 }, view, 0, [], null), false);
  // The engine's outcome of a Red Wizard that silences Red's Archers at wall 1 (events as the
  // engine tells them: kind "control", the wall, and whom it was taken from).
  const wizard = { text: 'wizard 1', kind: 'leader', cards: ['wizard'], wall: 1 };
  const lost = { 'wizard 1': { determined: true, events: [{ kind: 'leader', seat: 1, wall: 1 }, { kind: 'control', seat: 0, wall: 1, from: 'red' }] } };
  const kept = { 'wizard 1': { determined: true, events: [{ kind: 'leader', seat: 1, wall: 1 }] } };
  expect('a play after which the engine tells of a wall taken from the player', dangerAtTheWallsWarning(wizard, view, 1, [], lost), true);
  expect('a play after which the player still holds every wall', dangerAtTheWallsWarning(wizard, view, 1, [], kept), false);
}

/** Rush the Wall: Filchy cannot capture (RW-8), Dru'hid may take any fort (RW-9), the
 * Tax-Collector's fort is paid with a fort of the capturer's choice (RW-17); three Legion forts
 * win at once (RW-18). */
function rushTheWall() {
  const view = (forts = []) => ({ wall: ['dinary1', 'dinary6', 'legion-2', 'dinary3', 'unwary2', 'tax8'], clans: [{ clan: 'green', seat: 0, forts }] });
  const place = (slot) => ({ text: 'place filchy', kind: 'place', warrior: 'filchy', slot });
  expect("Filchy placed facing the Wall's best fort", rushTheWallWarning(place(6), view(), 0, []), true);
  expect('Filchy placed facing Fort-Dinary 1', rushTheWallWarning(place(1), view(), 0, []), false);
  const takes = [2, 3, 4].map((position) => ({ text: `take ${position}`, kind: 'take', position }));
  expect("Dru'hid taking a Legion fort when Fort-Dinary 6 is there", rushTheWallWarning(takes[1], view(), 0, takes), true);
  expect("Dru'hid taking Fort-Dinary 6", rushTheWallWarning(takes[0], view(), 0, takes), false);
  expect("Dru'hid taking a third Legion fort (RW-18 wins)", rushTheWallWarning(takes[1], view(['legion-1', 'legion-3']), 0, takes), false);
  const pays = ['dinary6', 'legion-2'].map((fort) => ({ text: `pay ${fort}`, kind: 'pay', fort }));
  expect("paying the Tax-Collector's fort with Fort-Dinary 6 when a Legion fort could go", rushTheWallWarning(pays[0], view(['dinary6', 'legion-2']), 0, pays), true);
  expect('paying it with the Legion fort', rushTheWallWarning(pays[1], view(['dinary6', 'legion-2']), 0, pays), false);
}

/** A seed for the previews, fixed so a run is repeatable. */
let seedCounter = 1;

/** Each legal move's outcome for `seat` as a page would get it: one world drawn from the seat's
 * view (the server's sample), previewed by outcomes.js. @param {any} e @param {number} match @param {string} game @param {number} seat */
function pageOutcomes(e, match, game, seat) {
  const state = e.call({ op: 'state', match }).state;
  const sample = e.call({ op: 'sample', game, state, viewer: seat, seed: seedCounter++ }).state;
  const legal = e.call({ op: 'legal', match, viewer: seat }).legal;
  const found = outcomesOf(e, game, sample, seat, legal, seedCounter++);
  return { legal, view: e.call({ op: 'view', match, viewer: seat }).view, outcomes: found ? found.outcomes : null };
}

/** King of Danger with the real engine (KD-6, KD-8): seeded two-player games, each seat playing
 * its first legal card; before each move every legal card is asked for a warning. Each one
 * raised must be a card the referee then makes lose castle points; the warned card is played
 * then, so the check holds on the real game. */
function kingOfDanger(e) {
  let raised = 0;
  let plies = 0;
  for (let g = 0; g < GAMES; g++) {
    const match = e.call({ op: 'new', game: 'king-of-danger', options: `players=2 seed=${g + 1}`, seats: ['human', 'human'] }).match;
    for (let guard = 0; guard < 400; guard++) {
      const info = e.call({ op: 'info', match });
      if (info.over) break;
      const seat = info.to_move;
      const { legal, view, outcomes } = pageOutcomes(e, match, 'king-of-danger', seat);
      const warned = legal.map((m) => ({ m, said: kingOfDangerWarning(m, view, seat, legal, outcomes) })).find((x) => x.said);
      const move = warned ? warned.m : legal[0];
      const played = e.call({ op: 'play', match, move: move.text, viewer: seat });
      plies++;
      if (!warned) continue;
      raised++;
      const change = played.events.filter((x) => x.kind === 'castle' && x.seat === seat).reduce((s, x) => s + x.change, 0);
      if (raised <= 3 || change >= 0) {
        check(change < 0 && !NOTATION.test(warned.said),
          `coach: King of Danger warns before ${move.text} (game ${g + 1}), which the referee then makes lose ${-change} castle point(s): "${warned.said}"`);
      }
    }
    e.call({ op: 'free', match });
  }
  console.log(`  king-of-danger: ${raised} warnings in ${plies} moves of ${GAMES} games`);
  check(raised > 0, `coach: King of Danger's warning was raised in ${GAMES} seeded games (${raised} times)`);
}

/** Danger at the Walls with the real engine: seeded games, each seat playing the last legal
 * move; every warning that reads the engine's outcome (a wall taken from the player) must be
 * one the referee then confirms. Counted, not required: the deal decides whether a Wizard or
 * Builder ever silences its own side. */
function dangerAtTheWallsEngine(e) {
  let raised = 0;
  for (let g = 0; g < GAMES; g++) {
    const match = e.call({ op: 'new', game: 'danger-at-the-walls', options: `seed=${g + 1}`, seats: ['human', 'human'] }).match;
    for (let guard = 0; guard < 400; guard++) {
      const info = e.call({ op: 'info', match });
      if (info.over) break;
      const seat = info.to_move;
      const { legal, view, outcomes } = pageOutcomes(e, match, 'danger-at-the-walls', seat);
      const move = legal[legal.length - 1];
      const said = dangerAtTheWallsWarning(move, view, seat, legal, outcomes);
      const played = e.call({ op: 'play', match, move: move.text, viewer: seat });
      if (!said || !/no longer hold/.test(said)) continue;
      raised++;
      const mine = seat === 1 ? 'red' : 'blue';
      check(played.events.some((x) => x.kind === 'control' && x.from === mine), `coach: Danger at the Walls' warning before ${move.text} is what the referee does: "${said}"`);
    }
    e.call({ op: 'free', match });
  }
  console.log(`  danger-at-the-walls: ${raised} warnings of a wall lost by the player's own play in ${GAMES} games`);
}

wallsAndArmies();
dangerAtTheWalls();
rushTheWall();
const engine = await loadEngine(readFileSync(args.wasm));
kingOfDanger(engine);
dangerAtTheWallsEngine(engine);
finish();
