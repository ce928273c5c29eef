// movelist.js — the moves of a game as the narration told them to this viewer (issue 42): one
// entry per ply, stepped through with the arrow keys (Home, End) or a click, with "Back to the
// game" to return to the live position. What the table shows at ply k is the viewer's own view
// frame k (the `history` message, the replay API or the offline worker's snapshots), never one
// derived from a later view.
import { html } from 'htm/preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { speak } from '../games/speech.js';

/**
 * A frame as the server sends it (docs/server-protocol.md, `history` and the replay API): the
 * viewer's view after `ply`, and the events of the move that led there as the viewer was told
 * them (`seat` and `events` absent at ply 0).
 * @typedef {{ply: number, view: any, seat?: number|null, events?: any[]|null}} Frame
 */

/** The words of one ply: its events as told, else who moved. @param {string} type
 * @param {Frame} f @param {(seat: number) => string} seatName */
export function plyText(type, f, seatName) {
  if (f.ply === 0) return 'The start of the game.';
  const told = (f.events || []).map((e) => speak(type, e.text)).filter((t) => t);
  if (told.length) return told.join(' ');
  return f.seat === undefined || f.seat === null ? 'A chance event.' : `${seatName(f.seat)} moves.`;
}

/**
 * Which ply is shown: null is the live position (the table's own), a number a past frame.
 * Returns [at, go]; go(null) goes back to the game. Out-of-range steps stop at the ends, and
 * a step onto the last frame of a live game is the live position again.
 * @param {Frame[]} frames @param {boolean} live
 * @returns {[number|null, (at: number|null) => void]}
 */
export function useBrowse(frames, live) {
  const [at, setAt] = useState(/** @type {number|null} */ (null));
  const last = frames.length ? frames[frames.length - 1].ply : 0;
  /** @param {number|null} n */
  const go = (n) => {
    if (n === null || frames.length === 0) return setAt(null);
    const first = frames[0].ply;
    const k = Math.max(first, Math.min(last, n));
    setAt(live && k === last ? null : k);
  };
  // A takeback (or an undo offline) can remove the ply being looked at.
  const shown = at !== null && at > last ? null : at;
  return [shown, go];
}

/** The frame of ply `ply`, if the list holds it. @param {Frame[]} frames @param {number} ply */
export function frameAt(frames, ply) {
  return frames.find((f) => f.ply === ply) || null;
}

/**
 * The list. `at` is the ply shown (null: the live one, drawn as the last entry); `go` steps.
 * Arrow keys act while the focus is in the list; the button of the ply shown follows them, so
 * a screen reader hears each step. `note` says what the list lacks (moves before a resume).
 * @param {{type: string, frames: Frame[], at: number|null, go: (n: number|null) => void,
 *   seatName: (seat: number) => string, live: boolean, loading?: boolean, note?: string,
 *   marks?: {[ply: number]: string}}} props
 */
export function MoveList({ type, frames, at, go, seatName, live, loading = false, note = '', marks = {} }) {
  const list = useRef(/** @type {HTMLOListElement|null} */ (null));
  const last = frames.length ? frames[frames.length - 1].ply : 0;
  const current = at === null ? last : at;
  // Keep the entry shown in view, and the focus on it when the focus is in the list (before
  // the paint, so a key pressed next acts from it).
  useLayoutEffect(() => {
    const el = list.current && list.current.querySelector(`[data-ply="${current}"]`);
    if (!(el instanceof HTMLElement) || !list.current) return;
    if (list.current.contains(document.activeElement)) el.focus({ preventScroll: true });
    const box = list.current;
    if (el.offsetTop < box.scrollTop || el.offsetTop + el.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = el.offsetTop - box.clientHeight / 2;
    }
  }, [current, frames.length]);
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') go(current - 1);
    else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') go(current + 1);
    else if (e.key === 'Home') go(frames.length ? frames[0].ply : 0);
    else if (e.key === 'End') go(live ? null : last);
    else return;
    e.preventDefault();
  }
  return html`<section class="panel movelist" aria-labelledby="movelist-h" data-testid="movelist" data-at=${current}>
    <h2 id="movelist-h">Moves</h2>
    <p class="small muted" id="movelist-help">Arrow keys step back and forth; Home and End go to the start and the end.</p>
    ${note && html`<p class="small muted">${note}</p>`}
    ${loading && frames.length === 0 ? html`<p class="small" role="status">Loading the moves…</p>` : html`
    <ol class="moves" ref=${list} onKeyDown=${onKey} aria-describedby="movelist-help">
      ${frames.map((f) => html`<li key=${f.ply} class=${marks[f.ply] ? `mark-${marks[f.ply]}` : ''}>
        <button type="button" class="move-step" data-ply=${f.ply} data-testid="move-step"
          aria-current=${f.ply === current ? 'step' : undefined} tabindex=${f.ply === current ? '0' : '-1'}
          onClick=${() => go(live && f.ply === last ? null : f.ply)}>
          <span class="ply-no">${f.ply}.</span> ${plyText(type, f, seatName)}${marks[f.ply] ? html` <b class="mark-word">${marks[f.ply]}</b>` : ''}</button></li>`)}
    </ol>`}
    ${live && at !== null && html`<p><button type="button" class="primary" data-testid="back-to-game"
      onClick=${() => go(null)}>Back to the game</button></p>`}
  </section>`;
}

/** The line above a board that shows a past ply. @param {{at: number, last: number}} props */
export function BrowsingLine({ at, last }) {
  return html`<p class="browsing" role="status" data-testid="browsing">Move ${at} of ${last}, as you saw it then.</p>`;
}
