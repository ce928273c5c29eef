// common.js — what every game's table shares: the chooser shown when one click matches more
// than one legal move (a Wizard's call, a Cannon's move or shot onto the same square), and
// the list of legal moves as buttons, labelled with their notation, for moves the board has
// no place to click.
import { html } from 'htm/preact';

/** @typedef {import('../client.js').LegalMove} LegalMove */

/**
 * Send the one move that matches, or ask which when several do.
 * @param {LegalMove[]} moves @param {(m: LegalMove) => void} send
 * @param {(c: LegalMove[]|null) => void} setChoice
 */
export function pick(moves, send, setChoice) {
  if (moves.length === 1) send(moves[0]);
  else if (moves.length > 1) setChoice(moves);
}

/**
 * @param {{moves: LegalMove[]|null, send: (m: LegalMove) => void, onCancel: () => void,
 *          label?: (m: LegalMove) => string, title?: string}} props
 */
export function Chooser({ moves, send, onCancel, label, title }) {
  if (!moves || moves.length === 0) return null;
  return html`<div class="chooser" role="group" aria-label=${title || 'Choose a move'} data-testid="chooser">
    <span class="chooser-title">${title || 'Which move?'}</span>
    ${moves.map((m) => html`<button type="button" class="move-btn" data-move=${m.text}
      onClick=${() => send(m)}>${label ? label(m) : m.text}</button>`)}
    <button type="button" class="link" onClick=${onCancel}>Cancel</button>
  </div>`;
}

/** Legal moves as buttons (their notation). @param {{moves: LegalMove[], send: (m: LegalMove) => void, label?: (m: LegalMove) => string}} props */
export function MoveButtons({ moves, send, label }) {
  if (!moves.length) return null;
  return html`<div class="move-buttons" role="group" aria-label="Moves">
    ${moves.map((m) => html`<button type="button" class="move-btn" data-move=${m.text}
      onClick=${() => send(m)}>${label ? label(m) : m.text}</button>`)}
  </div>`;
}

/** A count of hidden cards as a small stack; `attrs` are extra attributes (an explanation).
 * @param {{count: number, label: string, kind?: string, attrs?: {[k: string]: string}}} props */
export function Pile({ count, label, kind, attrs }) {
  return html`<div class=${`pile ${kind || ''}`} role="group" aria-label=${`${label}: ${count}`} ...${attrs || {}}>
    <span class="pile-cards" aria-hidden="true">${count > 0 ? html`<span class="card back"></span>` : html`<span class="card empty"></span>`}</span>
    <span class="pile-label">${label} <b>${count}</b></span>
  </div>`;
}

/** Props that make an element a drag source (HTML drag and drop): starting the drag chooses it,
 * as a click would. @param {() => void} onStart */
export function dragFrom(onStart) {
  return {
    draggable: true,
    onDragStart: (/** @type {DragEvent} */ e) => {
      if (e.dataTransfer) {
        e.dataTransfer.setData('text/plain', 'ramparts-move');
        e.dataTransfer.effectAllowed = 'move';
      }
      onStart();
    },
  };
}

/** Props that make an element a drop target: dropping there is clicking it. @param {() => void} onDrop */
export function dropOn(onDrop) {
  return {
    onDragOver: (/** @type {DragEvent} */ e) => e.preventDefault(),
    onDrop: (/** @type {DragEvent} */ e) => {
      e.preventDefault();
      onDrop();
    },
  };
}

/** A value written into a CSS attribute selector: `[data-card="${cssValue(v)}"]`. @param {any} v */
export const cssValue = (v) => CSS.escape(String(v));
