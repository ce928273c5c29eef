// coach.js — the coach of a guided first game (#/learn/GAME, learn.js) beside its table: which
// kind of move to try next, how and why by the rules (rules/learn.js), pointing at the move and
// at the cards, pieces or squares to click (each game's board says which: coachSpots in
// games/), ticking each kind off once made; and the kinds of move made, kept for this tab.
import { html } from 'htm/preact';
import { useEffect } from 'preact/hooks';
import { LESSONS, advice, lessonsOf } from '../rules/learn.js';
import { coachSpotsFor } from '../games/index.js';

/** The kinds of move made in game `id`, kept for this tab (a reload keeps them). @param {number} id */
export function lessonsDone(id) {
  try { return new Set(JSON.parse(sessionStorage.getItem(`ramparts.learn.${id}`) || '[]')); } catch { return new Set(); }
}

/** Note that a move was made in game `id`. @param {number} id @param {string} game @param {any} move @param {any} view */
export function noteLesson(id, game, move, view) {
  const done = lessonsDone(id);
  for (const l of lessonsOf(game, move, view)) done.add(l);
  try { sessionStorage.setItem(`ramparts.learn.${id}`, JSON.stringify([...done])); } catch { /* private mode */ }
}

/** Where a finished guided game leaves the kinds of move made, for the next one of that game.
 * @param {string} game */
const carryKey = (game) => `ramparts.learn.carry.${game}`;

/** Keep the kinds of move made for the next guided game of `game`. @param {string} game @param {Set<string>} done */
function carryLessons(game, done) {
  try { sessionStorage.setItem(carryKey(game), JSON.stringify([...done])); } catch { /* private mode */ }
}

/** A new guided game `id` starts with what the last one of its game carried over, if any.
 * @param {string} game @param {number} id */
export function takeCarried(game, id) {
  try {
    const carried = sessionStorage.getItem(carryKey(game));
    if (carried === null) return;
    sessionStorage.removeItem(carryKey(game));
    sessionStorage.setItem(`ramparts.learn.${id}`, carried);
  } catch { /* private mode */ }
}

/** Where on the board a move is made: its button, and what its game's board marks for it.
 * @param {string} game @param {any} m */
function pointsFor(game, m) {
  return [`[data-move="${CSS.escape(String(m.text))}"]`, ...coachSpotsFor(game)(m)];
}

/**
 * The coach beside a learning table. @param {{g: import('../client.js').GameState, interactive: boolean,
 *   done: Set<string>}} props
 */
export function Coach({ g, interactive, done }) {
  const snap = g.snap;
  const game = snap.type;
  const lessons = LESSONS[game] || [];
  const tip = interactive ? advice(game, snap.legal, snap.view, done) : null;
  const allDone = lessons.every((l) => !l.needed || done.has(l.id));
  // Point at the move the coach suggests, after every render (boards are redrawn each move).
  useEffect(() => {
    const board = document.querySelector('.board-area');
    if (!board) return;
    for (const el of board.querySelectorAll('[data-coach]')) el.removeAttribute('data-coach');
    if (!tip) return;
    for (const sel of pointsFor(game, tip.move)) for (const el of board.querySelectorAll(sel)) el.setAttribute('data-coach', '1');
  });
  let step;
  if (snap.status !== 'live') step = 'The game is over. Start another, or read the rules.';
  else if (!interactive) step = 'The computer is playing: watch its move appear on the board.';
  else if (tip && tip.lesson && !tip.preparing) step = `Next: ${tip.lesson.label.toLowerCase()}. ${tip.lesson.how}`;
  else if (tip && tip.lesson) step = `To ${tip.lesson.label.toLowerCase()} later, first play this.`;
  else step = 'Play any move you like; the marked one is a good start.';
  return html`<section class="panel coach" aria-labelledby="coach-h" data-testid="coach">
    <h2 id="coach-h">Your first game of ${snap.title}</h2>
    <p aria-live="polite" data-testid="coach-step">${step}</p>
    ${tip && html`<p class="small">Try <code data-testid="coach-move">${tip.move.text}</code>${tip.lesson ? html` — <span data-testid="coach-why">${tip.lesson.why}</span>` : ''}</p>`}
    <ul class="coach-list" aria-label="Kinds of move">${lessons.map((l) => html`<li key=${l.id} data-lesson=${l.id} data-done=${done.has(l.id) ? 'yes' : 'no'}>
      <span aria-hidden="true">${done.has(l.id) ? '✓' : '○'}</span> ${l.label}${l.needed ? '' : ' (when it comes)'}<span class="sr-only">${done.has(l.id) ? ': done' : ': not yet'}</span></li>`)}</ul>
    ${!allDone && snap.status !== 'live' && html`<p data-testid="coach-again">Not every kind of move came up in this game (the deal decides what does).
      <a href=${`#/learn/${game}`} onClick=${() => carryLessons(game, done)}>Play another guided game</a>, keeping the kinds of move already made.</p>`}
    ${allDone && html`<p class="coach-done" data-testid="coach-done"><b>You have made every kind of move.</b> Play on to the end, or <a href=${`#/rules/${game}`}>read the rules</a>.</p>`}
  </section>`;
}
