// outcome.js — a finished game's result from one player's side, in the words both the online
// table and the offline page end with ("You won.", "You lost.", "Drawn."), from each seat's
// share of the win (the protocol's `returns`).

/** @param {number[]} returns each seat's share of the win @param {number} you the player's seat */
export function outcomeWords(returns, you) {
  const share = returns[you];
  if (share >= 0.999) return 'You won.';
  if (share <= 0.001) return 'You lost.';
  const best = Math.max(...returns);
  if (returns.every((r) => Math.abs(r - share) < 0.001)) return 'Drawn.';
  return share >= best - 0.001 ? 'You shared the win.' : 'You shared a place.';
}
