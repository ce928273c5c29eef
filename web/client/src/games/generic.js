// generic.js — the table of a game without a module of its own: its view as data and its
// legal moves as buttons. Every game is playable with it, if plainly.
import { html } from 'htm/preact';
import { MoveButtons } from './common.js';

/** @param {import('./index.js').BoardProps} props */
export function GenericBoard({ view, legal, send }) {
  return html`<div class="generic">
    <pre class="view-json">${JSON.stringify(view, null, 1)}</pre>
    ${legal && html`<${MoveButtons} moves=${legal} send=${send} />`}
  </div>`;
}

/** The generic board shows every move as its own button only. @param {any} _m @returns {string[]} */
export function coachSpots(_m) {
  return [];
}

/** The coach's words for a move: no game's own words here. @param {any} _m @param {any} _view */
export function coachWords(_m, _view) {
  return 'Make the marked move.';
}

/** No drawing for the rules page. @param {string} _key */
export function glossaryArt(_key) {
  return null;
}
