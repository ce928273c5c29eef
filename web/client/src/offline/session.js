// session.js — the page's side of an offline game against the computer: it talks to the Web
// Worker that referees the game (worker.js) and keeps what the UI renders: the human seat's
// view and legal moves, the event log as told to that seat, the hint. The game's record is
// saved in local storage after every change, so a reload resumes it; the page never reads
// the referee's state (what the record holds is for resuming and downloading only). The
// computer's moves are shown one at a time, as online (pace.js): the worker sends them all at
// once, and they wait in a display queue.
import { outcomeWords } from '../outcome.js';
import { holdAfter, pacing } from '../pace.js';
import { afterMove } from '../games/last-move.js';

const SAVE_KEY = 'ramparts.offline';

/**
 * @typedef {{info: any, you: number, view: any, legal: import('../client.js').LegalMove[],
 *   events: any[], record: string, computer?: boolean}} Snapshot
 * @typedef {{games: any[]|null, snap: Snapshot|null, log: import('../client.js').LogLine[],
 *   last: import('../games/last-move.js').LastMove|null, hint: string|null, hintBusy: boolean, pending: boolean, error: string|null,
 *   failed: string|null, queued: number, thinking: boolean,
 *   frames: import('../ui/movelist.js').Frame[], resumed: boolean, review: any, reviewing: boolean,
 *   hintByCoach: boolean, outcomes: {ply: number, outcomes: any}|null, lessons: Set<string>}} OfflineState
 */

/** Where the built client put the worker and the engine (index.html's meta ramparts-offline). */
export function offlineFiles() {
  const meta = document.querySelector('meta[name=ramparts-offline]');
  /** @type {{[key: string]: string}} */
  const files = {};
  for (const pair of (meta ? meta.getAttribute('content') || '' : '').split(' ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) files[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return files.worker && files.wasm ? files : null;
}

export class OfflineSession {
  constructor() {
    /** @type {OfflineState} */
    this.state = { games: null, snap: null, log: [], last: null, hint: null, hintBusy: false, pending: false, error: null, failed: null, queued: 0, thinking: false,
      frames: [], resumed: false, review: null, reviewing: false, hintByCoach: false, outcomes: null, lessons: new Set() };
    /** @type {Snapshot[]} snapshots waiting to be shown, in the worker's order */
    this.queue = [];
    /** @type {any} the timer of the one on show, if it is held */
    this.timer = null;
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    this.logKey = 1;
    this.files = offlineFiles();
    /** @type {Worker|null} */
    this.worker = null;
    if (!this.files) {
      this.state.failed = 'This build has no offline engine.';
      return;
    }
    this.worker = new Worker(this.files.worker, { type: 'module' });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = () => this.set({ failed: 'The offline engine could not start.' });
    this.send({ t: 'games' });
  }

  /** @param {() => void} fn */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @param {Partial<OfflineState>} patch */
  set(patch) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** @param {{t: string, [key: string]: any}} msg */
  send(msg) {
    if (this.worker && this.files) this.worker.postMessage({ ...msg, wasm: this.files.wasm });
  }

  /** @param {any} m */
  receive(m) {
    switch (m.t) {
      case 'games':
        this.set({ games: m.games });
        break;
      case 'snapshot':
        this.paced(m);
        break;
      case 'hint':
        this.set({ hint: m.text, hintBusy: false });
        break;
      case 'outcomes':
        this.set({ outcomes: { ply: m.ply, outcomes: m.outcomes } });
        break;
      case 'review':
        this.set({ review: m.review, reviewing: false });
        break;
      case 'error':
        this.set({ error: m.message, hintBusy: false, pending: false, reviewing: false });
        break;
      default:
        break;
    }
  }

  /** Show a snapshot now, or queue it behind the computer's move on show.
   * @param {Snapshot} m */
  paced(m) {
    // The computer is still to reply when the last snapshot received (shown or queued) has a
    // computer's seat to act.
    this.state.thinking = !m.info.over && m.info.to_move !== m.you;
    // The player's own move (an undo, a resignation) shows at once unless computer's moves
    // wait before it: the order stays the worker's.
    if (this.timer && (this.queue.length > 0 || m.computer)) {
      this.queue.push(m);
      this.set({ queued: this.queue.length });
      return;
    }
    this.snapshot(m);
    const ms = pacing() ? holdAfter(m.events, !!m.computer) : 0;
    if (!ms) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.nextPaced(), ms);
  }

  nextPaced() {
    this.timer = null;
    const next = this.queue.shift();
    this.set({ queued: this.queue.length });
    if (next) this.paced(next);
  }

  /** Drop what waits to be shown (a new game, a resumed one, the setup screen). */
  clearPaced() {
    clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.state.queued = 0;
  }

  /** @param {Snapshot} m */
  snapshot(m) {
    const log = this.state.log.slice(-300);
    for (const e of m.events) {
      log.push({ key: this.logKey++, v: null, kind: e.kind, text: e.text, seat: e.seat ?? null, reveal: !!e.reveal });
    }
    if (m.info.over && !(this.state.snap && this.state.snap.info.over)) {
      log.push({ key: this.logKey++, v: null, kind: 'game-over', text: resultText(m.info, m.you), seat: null });
    }
    localStorage.setItem(SAVE_KEY, JSON.stringify({ record: m.record, human: m.you, game: m.info.game }));
    // The boards mark the last move, or the mover's whole turn (last-move.js, as online).
    const last = m.events.length ? afterMove(this.state.last, m.events[0].seat ?? null, m.events) : null;
    this.set({ snap: m, log, last, hint: null, error: null, pending: false, frames: framesAfter(this.state.frames, m) });
  }

  /** The saved game, if any. @returns {{record: string, human: number, game: string}|null} */
  saved() {
    try {
      const s = JSON.parse(localStorage.getItem(SAVE_KEY) || 'null');
      return s && typeof s.record === 'string' && Number.isInteger(s.human) ? s : null;
    } catch {
      return null;
    }
  }

  /** @param {string} game @param {number} players @param {number} human @param {string} level */
  start(game, players, human, level) {
    this.clearPaced();
    this.set({ snap: null, log: [], last: null, error: null, hint: null, frames: [], review: null, resumed: false, lessons: new Set() });
    this.send({ t: 'start', game, players, human, level });
  }

  resume() {
    const s = this.saved();
    if (!s) return;
    this.clearPaced();
    // The moves before the resume are not listed: the worker deals anew what the seat never
    // saw, and the page keeps no view of its own from before.
    this.set({ snap: null, log: [], last: null, error: null, hint: null, frames: [], review: null, resumed: true });
    this.send({ t: 'resume', record: s.record, human: s.human });
  }

  /** Leave the game for the setup screen; the saved game stays until another starts. */
  leave() {
    this.clearPaced();
    this.set({ snap: null, log: [], last: null, error: null, hint: null, review: null });
  }

  /** @param {import('../client.js').LegalMove|string} move */
  move(move) {
    // Until the referee answers, the board takes no other move (the online table's pending).
    if (this.state.pending) return;
    this.set({ error: null, hint: null, pending: true });
    this.send({ t: 'move', move: typeof move === 'string' ? move : move.text });
  }

  /** The hint search's move; the coach asks the server coach's level (worker.js). @param {boolean} [byCoach] */
  hint(byCoach = false) {
    this.set({ hintBusy: true, hint: null, hintByCoach: byCoach });
    this.send({ t: 'hint', spec: byCoach ? 'easy' : 'hard' });
  }

  /** The engine's outcome of each legal move, for the coach's warnings (games/outcomes.js). */
  askOutcomes() {
    this.send({ t: 'outcomes' });
  }

  /** Tick off the kinds of move the coach teaches (rules/learn.js), for this game.
   * @param {Set<string>} lessons */
  noteLessons(lessons) {
    this.set({ lessons });
  }

  /** The review of the human's moves (issue 42), by the engine in the worker. */
  review() {
    this.set({ reviewing: true, error: null });
    this.send({ t: 'review' });
  }

  closeReview() {
    this.set({ review: null });
  }

  undo() {
    this.set({ pending: true });
    this.send({ t: 'undo' });
  }

  resign() {
    this.send({ t: 'resign' });
  }

  close() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}

/**
 * The move list's frames after a snapshot shown (issue 42): the seat's own view after each ply,
 * with the events of the move as told to it. A later ply adds a frame; an undo drops the plies
 * taken back and its view replaces that ply's (what was unseen is dealt anew); a resignation
 * keeps the ply and its events.
 * @param {import('../ui/movelist.js').Frame[]} frames @param {Snapshot} m
 */
export function framesAfter(frames, m) {
  const ply = m.info.moves;
  const lastPly = frames.length ? frames[frames.length - 1].ply : -1;
  if (ply > lastPly) {
    const mover = m.events.find((e) => e.seat !== undefined && e.seat !== null);
    return [...frames, { ply, view: m.view, seat: mover ? mover.seat : null, events: m.events }];
  }
  return frames.filter((f) => f.ply <= ply).map((f) => (f.ply === ply ? { ...f, view: m.view } : f));
}

/** The end's line, from the human's side, as the online table says it: the outcome first
 * ("You lost."), then who won ("Red wins."). @param {any} info @param {number} you */
export function resultText(info, you) {
  const returns = info.returns || [];
  const best = Math.max(...returns);
  const winners = info.seats.filter((/** @type {any} */ s) => returns[s.seat] === best && best > 0);
  const own = returns.length > you ? outcomeWords(returns, you) : '';
  if (info.status.startsWith('over resigned')) return `${own || 'You lost.'} You resigned: the computer wins.`;
  if (winners.length === info.seats.length) return `${own} The game is drawn.`.trim();
  const names = winners.map((/** @type {any} */ s) => s.seat_name).join(' and ');
  return `${own} ${names} ${winners.length === 1 ? 'wins' : 'share the win'}.`.trim();
}
