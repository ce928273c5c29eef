// coach-warnings.js — the guided game's warnings (ui/coach.js) before a move that loses material
// for nothing, in Walls and Armies, King of Danger, Danger at the Walls and Rush the Wall (Castle
// Danger's are in castle-danger-coach.js). Plain functions of the view, the legal list and what
// the engine foretells (`outcomes`: outcomes.js), with no page code, so tests call them on set
// positions. What each game counts as material and as a threat is in docs/web.md.

/**
 * @typedef {{[move: string]: {determined: boolean, events: any[]}}} Outcomes what each legal move
 *   would tell the seat, from the engine's previews in worlds drawn from the seat's own view
 */

const RANK_VALUES = { J: 11, Q: 12, K: 13, A: 14 };

/** A playing card's value (WA rulings: 2-10 their number, J 11, Q 12, K 13, A 14). @param {string} card */
function cardValue(card) {
  const rank = card.slice(0, -1);
  return RANK_VALUES[rank] || Number(rank);
}

/**
 * Walls and Armies: material is walls (none left loses, WA-7) and the shields that guard them.
 * Leaving a stack alone when it is one short of its target, or level with it, while the attacker
 * still has army cards, gives the target away: their next card (2 at least) is stacked on it and
 * beats it (WA-3), where a counter would have discarded the stack and kept the target (WA-4).
 * @param {any} m @param {any} view @param {number} seat @param {any[]} legal
 */
export function wallsAndArmiesWarning(m, view, seat, legal) {
  if (m.kind !== 'leave' || !legal.some((x) => x.kind === 'counter')) return null;
  const stack = (view.stacks || [])[m.stack - 1];
  const attacker = (view.players || [])[1 - seat];
  if (!stack || !stack.target || !attacker || attacker.army_cards === 0) return null;
  const gap = cardValue(stack.target) - stack.total;
  if (gap > 1) return null;
  const what = `your ${stack.target_kind} ${stack.target_number}`;
  return `Careful: the stack against ${what} totals ${stack.total}, against its ${cardValue(stack.target)}. If you leave it, ` +
    `${attacker.name} adds the next army card and any card beats it, so ${what} falls. ` +
    'A counter-attack discards the stack (and captures it if your card is higher).';
}

/** "Cannons 5", "King of Walls". @param {string} card */
function kdCard(card) {
  if (card.startsWith('king-of-')) return `King of ${card.slice(8, 9).toUpperCase()}${card.slice(9)}`;
  const [suit, n] = card.split('-');
  return `${suit.slice(0, 1).toUpperCase()}${suit.slice(1)} ${n}`;
}

/** The castle points `seat` gains (or loses, below 0) by a move whose trick the preview settles,
 * or null when the engine cannot tell yet (the trick goes on, or a card turned up decides).
 * @param {{determined: boolean, events: any[]}|undefined} outcome @param {number} seat */
function castleChange(outcome, seat) {
  if (!outcome || !outcome.events.some((e) => e.kind === 'trick-won')) return null;
  return outcome.events.filter((e) => e.kind === 'castle' && e.seat === seat).reduce((sum, e) => sum + e.change, 0);
}

/**
 * King of Danger: material is the castle's points (KD-8: the loser of a Cannons trick loses 1).
 * The warning: a card that loses castle points where another legal card would lose fewer (the
 * last card of a trick, whose winner the engine settles from the cards on the table).
 * @param {any} m @param {any} _view @param {number} seat @param {any[]} legal @param {Outcomes|null} outcomes
 */
export function kingOfDangerWarning(m, _view, seat, legal, outcomes) {
  if (!outcomes || !m.card) return null;
  const mine = castleChange(outcomes[m.text], seat);
  if (mine === null || mine >= 0) return null;
  let best = null;
  for (const x of legal) {
    const change = castleChange(outcomes[x.text], seat);
    if (change !== null && change > mine && (!best || change > best.change)) best = { move: x, change };
  }
  if (!best) return null;
  return `Careful: your ${kdCard(m.card)} loses this trick, and your castle loses ${-mine} point${mine === -1 ? '' : 's'}. ` +
    `Your ${kdCard(best.move.card)} would win it.`;
}

/** "you" or the other side's name, for Danger at the Walls. @param {string} side @param {string} mine */
const dwWho = (side, mine) => (side === mine ? 'you' : side.slice(0, 1).toUpperCase() + side.slice(1));

/**
 * Danger at the Walls: material is the walls you control (three or more win, DW-13). Warned:
 * a Flag on a wall the opponent controls (it locks that wall for them, DW: Flags); cards played at
 * a wall a Flag has locked (control there never changes again, DW: Flags); a play after which the
 * engine's preview shows a wall taken from you (a Wizard or Builder that silences your side).
 * @param {any} m @param {any} view @param {number} seat @param {any[]} _legal @param {Outcomes|null} outcomes
 */
export function dangerAtTheWallsWarning(m, view, seat, _legal, outcomes) {
  if (!m.wall) return null;
  const mine = seat === 1 ? 'red' : 'blue';
  const wall = (view.walls || []).find((/** @type {any} */ w) => w.wall === m.wall);
  if (!wall) return null;
  if (m.kind === 'flag' && !wall.flag && wall.control !== mine) {
    return `Careful: a Flag locks wall ${m.wall} for whoever holds it now, and ${dwWho(wall.control, mine)} holds it: ` +
      'it would stay theirs for the rest of the game. Put your Flag on a wall you hold.';
  }
  if (wall.flag && m.kind !== 'attack' && m.kind !== 'assassin' && m.kind !== 'spy') {
    return `Careful: a Flag has locked wall ${m.wall} for ${dwWho(wall.control, mine)}: cards played there no longer change who holds it.`;
  }
  const outcome = outcomes && outcomes[m.text];
  const lost = outcome ? outcome.events.filter((e) => e.kind === 'control' && e.from === mine) : [];
  if (lost.length) return `Careful: after this play you no longer hold wall ${lost[0].wall}: ${dwWho(mine === 'blue' ? 'red' : 'blue', mine)} takes it.`;
  return null;
}

/** A fort's points from its name (RW-3: "dinary6" 6, "legion-2" -2, "tax8" 8). @param {string} fort */
const fortValue = (fort) => Number((/-?\d+$/.exec(fort) || ['0'])[0]);

/** "Tax-Collector's 8", "Legion -2". @param {string} fort */
function fortWords(fort) {
  const names = { dinary: 'Fort-Dinary', legion: 'Legion', unwary: 'Unwary', signal: 'Signal', tax: "Tax-Collector's" };
  const kind = /^[a-z]+/.exec(fort);
  return `${(kind && names[kind[0]]) || 'Fort'} ${fortValue(fort)}`;
}

/**
 * Rush the Wall: material is the forts' points (RW-12), and three Legion forts win at once
 * (RW-18). Warned: Filchy placed facing the Wall's best fort (she cannot capture, RW-8);
 * Dru'hid taking a Legion fort when a fort with points is there (RW-9); the Tax-Collector's
 * fort paid with a fort worth more than another you could pay (RW-17), where a Legion fort is
 * the cheapest payment. A clan holding two Legion forts is not warned off a third.
 * @param {any} m @param {any} view @param {number} seat @param {any[]} legal
 */
export function rushTheWallWarning(m, view, seat, legal) {
  const clan = (view.clans || []).find((/** @type {any} */ c) => c.seat === seat);
  const legions = clan ? (clan.forts || []).filter((/** @type {string} */ f) => f.startsWith('legion')).length : 0;
  const wall = Array.isArray(view.wall) ? view.wall : [];
  if (m.kind === 'place' && m.warrior === 'filchy') {
    const facing = wall[m.slot - 1];
    const best = Math.max(...wall.filter((f) => typeof f === 'string').map(fortValue));
    if (typeof facing === 'string' && fortValue(facing) > 0 && fortValue(facing) === best) {
      return `Careful: Filchy cannot capture on the turn she is turned up, and in slot ${m.slot} she faces ${fortWords(facing)}, ` +
        'the best fort of this Wall: you would give it away.';
    }
  }
  if (m.kind === 'take' && legions < 2) {
    const taken = wall[m.position - 1];
    const better = legal.filter((x) => x.kind === 'take' && typeof wall[x.position - 1] === 'string' && fortValue(wall[x.position - 1]) > 0);
    if (typeof taken === 'string' && fortValue(taken) < 0 && better.length) {
      const top = better.reduce((a, b) => (fortValue(wall[b.position - 1]) > fortValue(wall[a.position - 1]) ? b : a));
      return `Careful: ${fortWords(taken)} takes ${-fortValue(taken)} point${fortValue(taken) === -1 ? '' : 's'} from you; ` +
        `your Dru'hid could take ${fortWords(wall[top.position - 1])} instead.`;
    }
  }
  if (m.kind === 'pay' && m.fort) {
    const cheaper = legal.filter((x) => x.kind === 'pay' && x.fort && fortValue(x.fort) < fortValue(m.fort) && !(legions === 2 && x.fort.startsWith('legion')));
    if (cheaper.length) {
      const cheapest = cheaper.reduce((a, b) => (fortValue(b.fort) < fortValue(a.fort) ? b : a));
      return `Careful: paying ${fortWords(m.fort)} costs you ${fortValue(m.fort)} points; paying ${fortWords(cheapest.fort)} costs ${fortValue(cheapest.fort)}` +
        `${fortValue(cheapest.fort) < 0 ? ', so you gain by it' : ''}.`;
    }
  }
  return null;
}
