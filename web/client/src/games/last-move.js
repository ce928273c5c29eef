// last-move.js — where the last move happened, from its events (docs/server-protocol.md: each
// event names its squares, cards, walls or slots as data): a set of "spots" the boards mark.
// A spot is a short key each board also gives the element it draws ("sq:e4" a Castle Danger
// square, "card:walls-6" a card in King of Danger's trick, "wa:1:wall:6" a Walls and Armies
// target, "dw:red:3" one side of a Danger at the Walls wall, "rw:green:2" a Rush the Wall
// slot), so the test can compare what is marked with the frames it received.
import { html } from 'htm/preact';

/** The last move's events, and each move's events of the turn it ends (the same seat's moves in
 * a row, the last one included; absent when only the last move is known, as after a reload).
 * @typedef {{seat: number|null, events: any[], turn?: any[][]}} LastMove */

const FILES = 'abcdefg';

/** The squares a Cannon's ball flies over between its Cannon and where it lands (CD-6: a
 * straight line). @param {string} from @param {string} to */
export function shotPath(from, to) {
  const f0 = FILES.indexOf(from[0]);
  const r0 = Number(from.slice(1));
  const df = Math.sign(FILES.indexOf(to[0]) - f0);
  const dr = Math.sign(Number(to.slice(1)) - r0);
  const out = [];
  for (let f = f0 + df, r = r0 + dr, i = 0; `${FILES[f]}${r}` !== to && i < 9; f += df, r += dr, i++) out.push(`${FILES[f]}${r}`);
  return out;
}

/** Each game's spots of a move, from its events (the first event is the move itself; those after
 * it are what followed). @type {{[type: string]: (events: any[]) => string[]}} */
const SPOTS = {
  'castle-danger': (events) => {
    const e = events.find((x) => ['move', 'add', 'build', 'remove', 'fire'].includes(x.kind));
    if (!e) return [];
    const out = [];
    if (e.from) out.push(`sq:${e.from}`);
    if (e.to) out.push(`sq:${e.to}`);
    if (e.kind === 'fire' && e.from && e.to) for (const sq of shotPath(e.from, e.to)) out.push(`path:${sq}`);
    return out;
  },
  'king-of-danger': (events) => {
    const e = events.find((x) => x.kind === 'play');
    return e && e.cards ? e.cards.map((/** @type {string} */ c) => `card:${c}`) : [];
  },
  'walls-and-armies': (events) => {
    const out = [];
    const e = events[0];
    if (e && e.target_kind) {
      // The attacker flips onto the defender's card, which a winning stack takes (both go to the
      // discard pile); the defender leaves or counters at its own card, and a counter is discarded.
      const owner = e.kind === 'flip' ? 1 - e.seat : e.seat;
      if (!(e.kind === 'flip' && e.beats)) out.push(`wa:${owner}:${e.target_kind}:${e.target_number}`);
      if ((e.kind === 'flip' && e.beats) || e.kind === 'counter') out.push('wa:discard');
    }
    // A captured stack becomes walls; a face card flipped to replenish becomes a shield.
    for (const x of events) {
      if (x.kind === 'capture') for (const n of x.walls || []) out.push(`wa:${x.seat}:wall:${n}`);
      if (x.kind === 'shield' && x.shield) out.push(`wa:${x.seat}:shield:${x.shield}`);
    }
    return out;
  },
  'danger-at-the-walls': (events) => {
    const e = events[0];
    if (!e || !e.wall || e.seat === undefined) return [];
    const side = e.seat === 1 ? 'red' : 'blue';
    // An Attack, the Spy and the Assassin act on the opponent's side of the wall.
    const acted = ['attack', 'spy', 'assassin'].includes(e.kind) ? (side === 'red' ? 'blue' : 'red') : side;
    return [`dw:${acted}:${e.wall}`];
  },
  'rush-the-wall': (events) => {
    const e = events[0];
    if (!e || e.kind !== 'place' || !e.clan) return [];
    return [`rw:${e.clan}:${e.slot}`];
  },
};

/** The last move after a move by `seat` whose events are `events`: the moves a seat makes in a
 * row (its turn so far) are kept for the boards that mark a whole turn (WHOLE_TURN).
 * @param {LastMove|null} last @param {number|null} seat @param {any[]} events @returns {LastMove} */
export function afterMove(last, seat, events) {
  const sameSeat = last && seat !== null && last.seat === seat;
  return { seat, events, turn: [...(sameSeat ? last.turn || [last.events] : []), events] };
}

/** The games whose mark covers the mover's whole turn, not its last move only: in Danger at the
 * Walls a turn is a play then the refill draws (DW-11), and the draws are not on the board, so
 * marking only the last move would never mark where the opponent played. */
const WHOLE_TURN = new Set(['danger-at-the-walls']);

/** The spots of the last move (or the whole turn it ends, in WHOLE_TURN's games), for `type`;
 * empty when there is none. @param {string} type @param {LastMove|null|undefined} last
 * @returns {Set<string>} */
export function lastSpots(type, last) {
  const f = SPOTS[type];
  if (!f || !last || !Array.isArray(last.events)) return new Set();
  const moves = WHOLE_TURN.has(type) && Array.isArray(last.turn) ? last.turn : [last.events];
  return new Set(moves.flatMap((events) => f(events)));
}

/** What an element at `spot` carries: its key, and when the last move was there, the mark
 * (a class that draws it, data-last for the tests). @param {Set<string>} marks @param {string} spot */
export function spotAttrs(marks, spot) {
  const hit = marks.has(spot) ? 'last' : marks.has(`path:${spot.slice(3)}`) ? 'path' : null;
  return { 'data-spot': spot, 'data-last': hit || undefined };
}

/** The class of an element at `spot`: ' last-move' or ' last-path' when marked. @param {Set<string>} marks @param {string} spot */
export function spotClass(marks, spot) {
  if (marks.has(spot)) return ' last-move';
  if (spot.startsWith('sq:') && marks.has(`path:${spot.slice(3)}`)) return ' last-path';
  return '';
}

/** The words a screen reader hears on a marked element. @param {Set<string>} marks @param {string} spot */
export function spotWords(marks, spot) {
  if (marks.has(spot)) return 'last move';
  if (spot.startsWith('sq:') && marks.has(`path:${spot.slice(3)}`)) return "the last shot's path";
  return '';
}

/** A marked element's words, for elements named by their content. @param {{marks: Set<string>, spot: string}} props */
export function LastTag({ marks, spot }) {
  const words = spotWords(marks, spot);
  return words ? html`<span class="sr-only"> (${words})</span>` : null;
}
