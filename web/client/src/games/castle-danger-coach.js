// castle-danger-coach.js — the guided game's coach for Castle Danger (ui/coach.js): a move in
// words, and the warning before a move that can lose the game (a King left in an enemy Cannon's
// line). Plain functions of the view, with no page code, so the tests call them on set positions.
const PIECE_WORDS = { king: 'King', wizard: 'Wizard', builder: 'Builder', cannon: 'Cannon' };

/** The coach's words for a move (ui/coach.js), never its notation. @param {any} m @param {any} view */
export function coachWords(m, view) {
  const at = (/** @type {string} */ sq) => (view.pieces || []).find((/** @type {any} */ p) => p.square === sq);
  const piece = (/** @type {string} */ sq) => PIECE_WORDS[(at(sq) || {}).piece] || 'piece';
  if (m.kind === 'add') return `Add a ${PIECE_WORDS[m.piece] || m.piece} on your Portal.`;
  if (m.kind === 'move') return `Step your ${piece(m.from)} from ${m.from} to ${m.to}.`;
  if (m.kind === 'build') return `Have your Builder build a Wall on ${m.to}.`;
  if (m.kind === 'remove') return `Have your Builder take away the Wall on ${m.to}.`;
  if (m.kind === 'fire') return `Fire your Cannon on ${m.from} at ${m.to}${m.target ? `, where it hits the ${m.target}` : ''}.`;
  if (m.kind === 'end') return 'End your turn.';
  return 'Make the marked move.';
}

/** The enemy Cannons that could hit `seat`'s King next turn on the board `pieces`/`walls`: on
 * its file or one step beside it (CD-4: a step costs 1 move), firing toward it (CD-6: straight
 * along the column toward the opponent), no Wall between, within the moves the enemy's turn
 * will bring (3 + 3 per Wizard, CD-3) and the board (CD-P6: at most 8 squares).
 * @param {any[]} pieces @param {Set<string>} walls @param {number} seat @returns {string[]} their squares */
function cannonsOnKing(pieces, walls, seat) {
  const king = pieces.find((p) => p.seat === seat && p.piece === 'king');
  if (!king) return [];
  const reach = 3 + 3 * pieces.filter((p) => p.seat !== seat && p.piece === 'wizard').length;
  const files = 'abcdefg';
  const kf = king.square[0];
  const kr = Number(king.square.slice(1));
  const taken = new Set([...walls, ...pieces.map((p) => p.square)]);
  return pieces.filter((p) => p.seat !== seat && p.piece === 'cannon').filter((p) => {
    const side = Math.abs(files.indexOf(p.square[0]) - files.indexOf(kf));
    const r = Number(p.square.slice(1));
    const toward = seat === 0 ? r > kr : r < kr; // Red fires toward rank 1, Blue toward rank 9
    const shot = Math.abs(r - kr);
    if (side > 1 || !toward || shot > 8 || side + shot > reach) return false;
    if (side === 1 && taken.has(`${kf}${r}`)) return false; // it cannot step onto the file there
    for (let x = Math.min(r, kr) + 1; x < Math.max(r, kr); x++) if (walls.has(`${kf}${x}`)) return false;
    return true;
  }).map((p) => p.square);
}

/** The board after move `m` (the pieces and Walls only), for the coach's warnings. @param {any} m @param {any} view */
function boardAfter(m, view) {
  let pieces = (view.pieces || []).map((/** @type {any} */ p) => ({ ...p }));
  const walls = new Set(view.walls || []);
  if (m.kind === 'move') pieces = pieces.map((p) => (p.square === m.from ? { ...p, square: m.to } : p));
  if (m.kind === 'build') walls.add(m.to);
  if (m.kind === 'remove') walls.delete(m.to);
  if (m.kind === 'fire') {
    pieces = pieces.filter((p) => p.square !== m.to);
    walls.delete(m.to);
  }
  return { pieces, walls };
}

/**
 * The coach's warning before a move that can lose the game (issue 43), or null: a move that
 * leaves the King in an enemy Cannon's line (stepping into it, taking away the Wall that
 * covered it), or ending the turn with moves left while such a Cannon stands (CD-6, CD-7).
 * @param {any} m @param {any} view @param {number} seat the player's
 */
export function coachWarning(m, view, seat) {
  const before = cannonsOnKing(view.pieces || [], new Set(view.walls || []), seat);
  const after = boardAfter(m, view);
  const threats = cannonsOnKing(after.pieces, after.walls, seat);
  if (threats.length === 0) return null;
  const enemy = seat === 0 ? 'Red' : 'Blue';
  const king = after.pieces.find((p) => p.seat === seat && p.piece === 'king');
  const line = `${enemy}'s Cannon on ${threats[0]} can fire at your King on ${king.square} next turn, and a King hit loses the game`;
  if (m.kind === 'end' && view.moves_left > 0) return `Careful: ${line}. You still have ${view.moves_left} moves: step the King off the ${king.square[0]}-file, or build a Wall between.`;
  if (before.length === 0) return `Careful: after this move ${line}.`;
  return null;
}
