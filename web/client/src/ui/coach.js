// coach.js — the coach of a guided first game (#/learn/GAME, learn.js) beside its table, and of
// an offline game (offline.js): which kind of move to try next, how and why by the rules
// (rules/learn.js), pointing at the move and at the cards, pieces or squares to click (each
// game's board says which: coachSpots in games/), in words (coachWords), ticking each kind off
// once made; it warns before a move that loses material or the game (coachWarning), once; a
// switch turns it off (kept in this browser).
import { html } from 'htm/preact';
import { useEffect } from 'preact/hooks';
import { LESSONS, advice, lessonsOf } from '../rules/learn.js';
import { coachSpotsFor, coachWarningFor, coachWordsFor } from '../games/index.js';
import { readSetting, writeSetting } from './settings.js';

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

/** Whether the coach is on (kept in this browser: `ramparts.coach`; on by default). */
export function coachOn() {
  return readSetting('coach');
}

/** The coach's warning before a move (warned once; the player may go on), and the switch that
 * turns the coach off and on. @param {{warning: {words: string, move: any}|null, onGo: () => void,
 *   onBack: () => void}} props */
export function CoachWarning({ warning, onGo, onBack }) {
  if (!warning) return null;
  return html`<div class="coach-warning" role="alert" data-testid="coach-warning">
    <p>${warning.words}</p>
    <button type="button" data-testid="coach-go" onClick=${onGo}>Play it anyway</button>
    <button type="button" class="primary" data-testid="coach-back" onClick=${onBack}>Choose another move</button></div>`;
}

/** The coach's switch. @param {{on: boolean, setOn: (on: boolean) => void}} props */
function CoachSwitch({ on, setOn }) {
  return html`<label class="small"><input type="checkbox" checked=${on} data-testid="coach-on"
    onChange=${(/** @type {any} */ e) => { writeSetting('coach', e.currentTarget.checked); setOn(e.currentTarget.checked); }} />
    Coach: suggest moves and warn of danger</label>`;
}

/**
 * What the coach reads of a game, online (table.js) or offline (offline.js): the seat's view,
 * its legal moves, the hint search's move once asked (askHint), and the engine's outcomes of
 * each legal move where the game's warnings read them (outcomes.js).
 * @typedef {{type: string, title: string, legal: any[]|null, view: any, you: number, ply: number,
 *   status: string, hint: string|null, hintBusy: boolean, askHint: () => void,
 *   outcomes: import('../games/coach-warnings.js').Outcomes|null|undefined}} CoachGame
 */

/** The coach's warning before move `entry` of game `c`, or null: none once warned about
 * that move at that ply (`warned`), so the player may go on.
 * @param {CoachGame} c @param {any} entry @param {{move: any, ply: number}|null} warned */
export function warningBefore(c, entry, warned) {
  if (!entry || (warned && warned.ply === c.ply && warned.move.text === entry.text)) return null;
  return coachWarningFor(c.type)(entry, c.view, c.you, c.legal || [], c.outcomes || null);
}

/**
 * The coach beside a learning table (online) or an offline game. @param {{c: CoachGame,
 *   interactive: boolean, done: Set<string>, on: boolean, setOn: (on: boolean) => void, again?: boolean,
 *   heading?: string}} props
 */
export function Coach({ c, interactive, done, on, setOn, again = false, heading = `Your first game of ${c.title}` }) {
  const game = c.type;
  const lessons = LESSONS[game] || [];
  const legal = c.legal || [];
  // Never suggest a move the coach would warn against (CD: ending the turn under a Cannon).
  const warns = (/** @type {any} */ m) => !!warningBefore(c, m, null);
  const safe = legal.filter((m) => !warns(m));
  // Where the warnings read the engine's outcomes, the coach suggests nothing until they are in
  // (undefined: the engine is at work), so it never suggests a move it would then warn against.
  const lesson = interactive && on && c.outcomes !== undefined ? advice(game, safe.length ? safe : legal, c.view, done) : null;
  // With no kind of move left to teach now, the suggestion is the hint search from the
  // player's own view (the move the computer would play in the player's place).
  const wantHint = !!lesson && !lesson.lesson && legal.length > 1;
  const found = wantHint && c.hint ? legal.find((m) => m.text === c.hint) : null;
  const hinted = found && !warns(found) ? found : null;
  useEffect(() => {
    if (wantHint && !c.hint && !c.hintBusy) c.askHint();
  }, [wantHint, c.ply]);
  const tip = wantHint ? (hinted ? { lesson: null, move: hinted, preparing: false, hinted: true } : found ? lesson : null) : lesson;
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
  if (c.status !== 'live') step = 'The game is over. Start another, or read the rules.';
  else if (!interactive) step = 'The computer is playing: watch its move appear on the board.';
  else if (tip && tip.lesson && !tip.preparing) step = `Next: ${tip.lesson.label.toLowerCase()}. ${tip.lesson.how}`;
  else if (tip && tip.lesson) step = `To ${tip.lesson.label.toLowerCase()} later, first play this.`;
  else if ((wantHint && !tip) || (interactive && c.outcomes === undefined)) step = 'Looking for a good move…';
  else if (tip && tip.hinted) step = 'The marked move is the one the computer would play in your place.';
  else step = 'Every kind of move is made: play on. The marked move is one way to go on.';
  if (!on) {
    return html`<section class="panel coach" aria-labelledby="coach-h" data-testid="coach">
      <h2 id="coach-h">${heading}</h2><${CoachSwitch} on=${on} setOn=${setOn} /></section>`;
  }
  // The suggestion in words, never in notation; the move itself is the ring on the board.
  return html`<section class="panel coach" aria-labelledby="coach-h" data-testid="coach">
    <h2 id="coach-h">${heading}</h2>
    <${CoachSwitch} on=${on} setOn=${setOn} />
    <p aria-live="polite" data-testid="coach-step">${step}</p>
    ${tip && html`<p class="small" data-testid="coach-move" data-move=${tip.move.text}><b>${coachWordsFor(game)(tip.move, c.view, c.you)}</b>${tip.lesson ? html` <span data-testid="coach-why">${tip.lesson.why}</span>` : ''}</p>`}
    <ul class="coach-list" aria-label="Kinds of move">${lessons.map((l) => html`<li key=${l.id} data-lesson=${l.id} data-done=${done.has(l.id) ? 'yes' : 'no'}>
      <span aria-hidden="true">${done.has(l.id) ? '✓' : '○'}</span> ${l.label}${l.needed ? '' : ' (when it comes)'}<span class="sr-only">${done.has(l.id) ? ': done' : ': not yet'}</span></li>`)}</ul>
    ${again && !allDone && c.status !== 'live' && html`<p data-testid="coach-again">Not every kind of move came up in this game (the deal decides what does).
      <a href=${`#/learn/${game}`} onClick=${() => carryLessons(game, done)}>Play another guided game</a>, keeping the kinds of move already made.</p>`}
    ${allDone && html`<p class="coach-done" data-testid="coach-done"><b>You have made every kind of move.</b> Play on to the end, or <a href=${`#/rules/${game}`}>read the rules</a>.</p>`}
  </section>`;
}
