// outcomes.js — what each legal move would tell the seat to act, for the guided game's warnings
// (coach-warnings.js): the engine in WebAssembly previews every legal move in worlds drawn from
// the seat's own view (the `preview` operation of docs/wasm.md). Online the world comes from the
// server's `sample`; offline the worker draws one from its game for the human's seat alone.

/** The games whose warnings read the engine's outcomes (the others read the view alone). */
export const GAMES_WITH_OUTCOMES = new Set(['king-of-danger', 'danger-at-the-walls']);

// Fewer worlds than a preview's default: a warning needs only what every world agrees on.
const WORLDS = 8;

/**
 * Each legal move's outcome, or null when the engine refuses (an old sample).
 * @param {import('../offline/engine.js').Engine} engine @param {string} type @param {string} sample
 * @param {number} seat @param {{text: string}[]} legal @param {number} seed
 * @returns {{view: any, outcomes: import('./coach-warnings.js').Outcomes}|null}
 */
export function outcomesOf(engine, type, sample, seat, legal, seed) {
  const a = engine.call({ op: 'preview', game: type, state: sample, viewer: seat, moves: legal.map((m) => m.text), worlds: WORLDS, seed });
  if (a.error) return null;
  /** @type {import('./coach-warnings.js').Outcomes} */
  const outcomes = {};
  a.previews.forEach((/** @type {any} */ p, /** @type {number} */ i) => {
    if (p.legal) outcomes[legal[i].text] = { determined: p.determined, events: p.events };
  });
  return { view: a.view, outcomes };
}
