// learn.js — the guided first game (#/learn/GAME): for each game, the kinds of move a player
// should make once, each with how to do it and why by the rules. Lessons are read from the legal
// moves the server lists (their `kind` and data fields), never from the rules themselves, so the
// coach only ever suggests a legal move. `needed` lessons always come in a game; the others are
// taught when they come.

/**
 * @typedef {{id: string, label: string, how: string, why: string, needed: boolean,
 *   fits: (m: any, view: any) => boolean, rank?: (m: any, view: any) => number,
 *   prepare?: (m: any, view: any) => boolean}} Lesson
 */

/** @param {any} view @param {string} piece */
const have = (view, piece) => (view.pieces || []).some((/** @type {any} */ p) => p.seat === 0 && p.piece === piece);

/** @type {{[game: string]: Lesson[]}} */
export const LESSONS = {
  'castle-danger': [
    {
      id: 'add', label: 'Add a piece on your Portal', needed: true,
      fits: (m) => m.kind === 'add',
      rank: (m, view) => (m.piece === (have(view, 'builder') ? 'cannon' : 'builder') ? 0 : 1),
      how: 'Click your Portal (d1, the ringed square), then the piece to add.',
      why: 'Only as the first action of a turn, on an empty Portal: free when you have fewer pieces than your opponent, else 2 moves (CD-3).',
    },
    {
      id: 'build', label: 'Build a Wall', needed: true,
      fits: (m) => m.kind === 'build',
      how: 'Click your Builder, then the empty grass square next to it.',
      why: 'Walls stop cannonballs: no ball flies past the first Wall on its line (CD-5, CD-6).',
    },
    {
      id: 'remove', label: 'Remove a Wall', needed: true,
      fits: (m) => m.kind === 'remove',
      how: 'Click your Builder, then the Wall next to it.',
      why: 'A Builder also takes Walls away, to open a line for your own Cannons (CD-5).',
    },
    {
      id: 'move', label: 'Step a piece', needed: true,
      fits: (m) => m.kind === 'move',
      // Off the Portal first, so it is free for the next piece.
      rank: (m) => (m.from === 'd1' ? 0 : 1),
      how: 'Click a piece, then a square next to it (up, down, left or right).',
      why: 'A step costs 1 move; never diagonally, never onto the river, Fire, a Wall or a piece (CD-4).',
    },
    {
      id: 'fire', label: 'Fire a Cannon', needed: true,
      fits: (m) => m.kind === 'fire',
      rank: (m) => (m.target ? 1 : 0),
      prepare: (m) => m.kind === 'add' && m.piece === 'cannon',
      how: 'Click your Cannon, then the square where the ball should land (its distance is shown).',
      why: 'A shot costs 1 move per square; the ball removes what it lands on and hitting the enemy King wins (CD-6, CD-7). You need a Cannon first: add one on your Portal.',
    },
    {
      id: 'end', label: 'End your turn', needed: true,
      fits: (m) => m.kind === 'end',
      how: 'Click “End turn”.',
      why: 'You may end your turn at any moment; the moves you did not use are lost (CD-3, CD-14).',
    },
  ],
  'walls-and-armies': [
    {
      id: 'attack', label: 'Attack a shield or wall', needed: true,
      fits: (m) => m.kind === 'attack',
      how: 'Click one of your opponent\'s shields, or a wall when they have no shield.',
      why: 'The top card of your army is flipped onto it; a higher total takes it (shields first while there are any).',
    },
    {
      id: 'answer', label: 'Answer an attack', needed: true,
      fits: (m) => m.kind === 'leave' || m.kind === 'counter',
      rank: (m) => (m.kind === 'counter' ? 0 : 1),
      how: 'When a stack did not beat your card, click “Counter-attack” or “Leave it”.',
      why: 'A counter higher than the stack captures its cards as your walls; otherwise counter and stack are discarded.',
    },
    {
      id: 'stack', label: 'Add to a stack', needed: false,
      fits: (m) => m.kind === 'stack',
      how: 'Click “Add to stack” under a stack of yours still in play.',
      why: 'Your next army card joins that stack: its total grows until it beats the target.',
    },
  ],
  'king-of-danger': [
    {
      id: 'follow', label: 'Play into a trick', needed: true,
      fits: (m, view) => view.trick.length > 0,
      how: 'Click a card you may play (they are ringed).',
      why: 'You must follow the trick suit if you can; if you cannot, any card may be played (KD-5).',
    },
    {
      id: 'lead', label: 'Lead a trick', needed: true,
      fits: (m, view) => view.trick.length === 0,
      rank: (m) => (m.card.startsWith('king') ? 1 : 0),
      how: 'Click any card of your hand: the first card that is not a King sets the trick suit.',
      why: 'A Walls card makes a Walls trick, which raises castles; a Cannons card a Cannons trick, which lowers them (KD-4, KD-8).',
    },
    {
      id: 'wizard', label: 'Name the suit with a Wizard', needed: false,
      fits: (m) => !!m.call,
      how: 'Play a Wizard when no suit is set yet, then choose Walls or Cannons.',
      why: 'The Wizard\'s player names the trick suit (KD-4).',
    },
    {
      id: 'king', label: 'Play a King', needed: false,
      fits: (m) => m.card.startsWith('king'),
      how: 'Click a King.',
      why: 'The King of Danger wins any trick; the other Kings win when their suit is in the trick (KD-6).',
    },
  ],
  'danger-at-the-walls': [
    {
      id: 'archers', label: 'Send Archers to a wall', needed: true,
      fits: (m) => m.kind === 'archers',
      rank: (m) => -m.cards.length,
      how: 'Click Archers in your hand (several at once if you like), then a wall.',
      why: 'Archers add their numbers to your strength there; the stronger side takes the wall (DW-7, DW-10).',
    },
    {
      id: 'draw', label: 'Refill your hand', needed: true,
      fits: (m) => m.kind === 'draw',
      rank: (m) => (m.from === 'personal' ? 0 : 1),
      how: 'Click “Draw from your deck” or “Draw from the main deck”.',
      why: 'After each play you draw back up to 6 cards, each from the deck you choose; your own deck holds your Leaders (DW-11).',
    },
    {
      id: 'cannon', label: 'Place a Cannon', needed: false,
      fits: (m) => m.kind === 'cannon',
      how: 'Click a Cannon in your hand, then a wall.',
      why: 'Only the top Cannon at a wall counts (DW-5).',
    },
    {
      id: 'leader', label: 'Play a Leader', needed: false,
      fits: (m) => ['general', 'noble', 'engineer', 'assassin', 'king', 'wizard', 'builder', 'spy'].includes(m.kind),
      how: 'Click a Leader in your hand, then a wall (the Spy and the Assassin then a card).',
      why: 'Leaders double strengths, cancel Archers or Cannons, or remove and cover cards (DW-7 to DW-9).',
    },
    {
      id: 'flag', label: 'Plant a Flag', needed: false,
      fits: (m) => m.kind === 'flag',
      how: 'Click a Flag, then a wall without one.',
      why: 'A Flag locks who holds the wall for the rest of the game (DW-2).',
    },
  ],
  'rush-the-wall': [
    {
      id: 'place', label: 'Place a warrior', needed: true,
      fits: (m) => m.kind === 'place',
      how: 'Click a warrior of your hand, then the slot that glows.',
      why: 'Your six warriors go face down, slot 1 to 6; each turn the clans turn up one slot and fight for the leftmost fort (RW-5, RW-6).',
    },
    {
      id: 'charm', label: 'Charm with the Qween', needed: false,
      fits: (m) => m.kind === 'charm',
      how: 'Click the rival warrior to charm.',
      why: 'She counts its strength instead of hers, and it counts 0 for its clan (RW-7).',
    },
    {
      id: 'choose', label: 'Decide after a capture', needed: false,
      fits: (m) => ['take', 'discard', 'pay', 'keep', 'drop'].includes(m.kind),
      how: 'Click the fort or warrior the table offers.',
      why: 'Forts and warriors have powers that ask you to choose (RW-9, RW-10).',
    },
  ],
};

/**
 * The coach's advice for a turn: the first lesson not yet done that a legal move fits (its best
 * move), else a move that prepares one, else any move.
 * @param {string} game @param {any[]} legal @param {any} view @param {Set<string>} done
 * @returns {{lesson: Lesson|null, move: any, preparing: boolean, hinted?: boolean}|null}
 */
export function advice(game, legal, view, done) {
  const lessons = LESSONS[game] || [];
  if (!legal || legal.length === 0) return null;
  const best = (/** @type {Lesson} */ l, /** @type {any[]} */ ms) => ms.slice().sort((a, b) => (l.rank ? l.rank(a, view) - l.rank(b, view) : 0))[0];
  for (const l of lessons) {
    if (done.has(l.id)) continue;
    const fit = legal.filter((m) => l.fits(m, view));
    if (fit.length) return { lesson: l, move: best(l, fit), preparing: false };
  }
  for (const l of lessons) {
    if (done.has(l.id) || !l.prepare) continue;
    const prep = legal.filter((m) => l.prepare(m, view));
    if (prep.length) return { lesson: l, move: prep[0], preparing: true };
  }
  const end = legal.find((m) => m.kind === 'end');
  return { lesson: null, move: end || legal[0], preparing: false };
}

/** The lessons a move made. @param {string} game @param {any} m @param {any} view */
export function lessonsOf(game, m, view) {
  return (LESSONS[game] || []).filter((l) => l.fits(m, view)).map((l) => l.id);
}
