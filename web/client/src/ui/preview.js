// preview.js — what a legal move of an online game would do, shown before it is played
// (docs/wasm.md, "Previews in online games"): the engine in WebAssembly plays the move in
// worlds drawn from the seat's own view (the server's `sample`, drawn again here) and keeps
// what every world tells the seat alike. It only shows: nothing is sent, the move goes to the
// server as before, and the server's referee decides it on the real state.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { loadEngine } from '../offline/engine.js';
import { offlineFiles } from '../offline/session.js';
import { speak } from '../games/speech.js';
import { GAMES_WITH_OUTCOMES, outcomesOf } from '../games/outcomes.js';
import { readSetting } from './settings.js';

/** @type {Promise<import('../offline/engine.js').Engine>|null} loaded once, on the first preview */
let enginePromise = null;

function engine() {
  if (!enginePromise) {
    const files = offlineFiles();
    enginePromise = files
      ? fetch(files.wasm).then((r) => {
        if (!r.ok) throw new Error(`the engine did not load (${r.status})`);
        return r.arrayBuffer();
      }).then((bytes) => loadEngine(bytes))
      : Promise.reject(new Error('this build has no engine'));
  }
  return enginePromise;
}

/** A seed for the worlds drawn here (the page's own; the server's is never sent). */
function freshSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 4294967296 + words[1];
}

/**
 * The preview of `move` for the seat to act, from the snapshot's sample; null while there is
 * none (not your turn, no sample, the engine not loaded, a sample that is not of this view).
 * @param {any} snap @param {string|null} move
 * @returns {{move: string, determined: boolean, events: any[]}|null}
 */
export function usePreview(snap, move) {
  const [preview, setPreview] = useState(/** @type {any} */ (null));
  const sample = snap && snap.sample;
  useEffect(() => {
    setPreview(null);
    if (!sample || !move || snap.you === null || snap.you === undefined || !readSetting('previews')) return undefined;
    let live = true;
    engine().then((e) => {
      const a = e.call({ op: 'preview', game: snap.type, state: sample, viewer: snap.you, moves: [move], seed: freshSeed() });
      // A sample of another position (an old one) previews nothing.
      if (!live || a.error || JSON.stringify(a.view) !== JSON.stringify(snap.view)) return;
      const p = a.previews[0];
      if (p.legal) setPreview({ move, determined: p.determined, events: p.events });
    }).catch((/** @type {any} */ err) => console.warn('no previews:', err.message));
    return () => { live = false; };
  }, [sample, move]);
  return preview;
}

/**
 * The engine's outcome of every legal move, for the guided game's warnings (outcomes.js), from
 * the snapshot's sample: undefined while the engine works on it, null when there is none (no
 * coach, not your turn, a game whose warnings read only the view, no engine, an old sample).
 * @param {any} snap the seat's snapshot, or null when the coach needs nothing
 * @returns {import('../games/coach-warnings.js').Outcomes|null|undefined}
 */
export function useCoachOutcomes(snap) {
  const [found, setFound] = useState(/** @type {{sample: string, outcomes: any}|null} */ (null));
  const sample = snap && GAMES_WITH_OUTCOMES.has(snap.type) && snap.legal ? snap.sample : null;
  useEffect(() => {
    if (!sample) return undefined;
    let live = true;
    const settle = (/** @type {any} */ outcomes) => { if (live) setFound({ sample, outcomes }); };
    engine().then((e) => {
      const a = outcomesOf(e, snap.type, sample, snap.you, snap.legal, freshSeed());
      settle(a && JSON.stringify(a.view) === JSON.stringify(snap.view) ? a.outcomes : null);
    }).catch((/** @type {any} */ err) => {
      console.warn('no outcomes for the coach:', err.message);
      settle(null);
    });
    return () => { live = false; };
  }, [sample]);
  if (!sample) return null;
  return found && found.sample === sample ? found.outcomes : undefined;
}

/** @param {{type: string, preview: {move: string, determined: boolean, events: any[]}|null}} props */
export function MovePreview({ type, preview }) {
  if (!preview) return null;
  const lines = preview.events.map((e) => speak(type, e.text));
  return html`<section class="move-preview small" aria-label="What this move would do" data-testid="move-preview"
      data-previewed=${preview.move} data-determined=${preview.determined ? 'yes' : 'no'}>
    <p class="preview-head"><b>${preview.move}</b> would:</p>
    <ul>${lines.map((l, i) => html`<li key=${i} data-testid="preview-line">${l}</li>`)}</ul>
    ${!preview.determined && html`<p class="muted">${lines.length ? 'Then it' : 'It'} depends on cards you cannot see.</p>`}
  </section>`;
}
