// review.js — the review of a finished game for one seat (issue 42, #/review/ID/SEAT): the
// server's `review` (or, offline, the engine's) judged each of that seat's decisions from what
// the seat could know then; the page shows the moves with their marks, the better move, and a
// uPlot chart of each seat's winning chances (clicking a point goes to that move), with the
// board as that seat saw it at the move shown (the replay API's frames for that seat).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { boardFor } from '../games/index.js';
import { BoardGuard } from './table.js';
import { Explanations } from './rules.js';
import { MoveList, frameAt, useBrowse } from './movelist.js';
import { seatClass } from './seats.js';
import { speak } from '../games/speech.js';

// The seats' colours on the chart, as the page's seat classes (seats.js, Okabe-Ito).
const SEAT_COLOURS = { 'seat-blue': '#0072b2', 'seat-red': '#d55e00', 'seat-green': '#009e73', 'seat-gold': '#e69f00', 'seat-purple': '#cc79a7' };
const MARK_WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/**
 * The review's plies are numbered from the first move (ply 0 is the move that leads from the
 * start to replay frame 1): the frame after review ply p is frame p + 1.
 * @param {number} p */
const frameOf = (p) => p + 1;

/** @param {{client: import('../client.js').Client, id: number, seat: number|null}} props */
export function Review({ client, id, seat }) {
  const [replay, setReplay] = useState(/** @type {any} */ (null));
  const [review, setReview] = useState(/** @type {any} */ (null));
  const [error, setError] = useState('');
  const chosen = seat === null ? 0 : seat;
  useEffect(() => {
    let gone = false;
    setReview(null);
    setError('');
    fetch(`/api/v1/games/${id}/replay?viewer=${chosen}`)
      .then((r) => r.json().then((j) => {
        if (!r.ok) throw new Error(j.message || 'cannot replay this game');
        if (!gone) setReplay(j);
      }))
      .catch((e) => !gone && setError(String(e.message || e)));
    client.ready.then(() => client.transport.request({ t: 'review', game: id, seat: chosen })).then((m) => {
      if (gone) return;
      if (m.t === 'review') setReview(m.review);
      else setError(reviewRefusal(m));
    });
    return () => { gone = true; };
  }, [id, chosen]);
  if (error) return html`<div class="review-page"><h1>Review of game ${id}</h1><p class="error" role="alert" data-testid="review-error">${error}</p>
    <p><a href=${`#/game/${id}`}>Back to the game</a></p></div>`;
  if (!replay || !review) return html`<p class="loading" role="status" data-testid="review-loading">Reviewing game ${id}: the computer
    looks at each of the seat's moves from what it could know then…</p>`;
  return html`<${ReviewView} type=${replay.type} seats=${replay.seats} frames=${replay.frames}
    review=${review} seat=${chosen} heading=${html`Review: ${replay.title} <span class="muted">#${id}</span>`}
    onSeat=${(/** @type {number} */ s) => { location.hash = `#/review/${id}/${s}`; }} back=${`#/game/${id}`} />`;
}

/** The server's refusal in the page's words. @param {any} m */
function reviewRefusal(m) {
  switch (m.code) {
    case 'not-over': return 'A game is reviewed once it is over (a review of a live game would be a hint for every move).';
    case 'busy': return 'The server is reviewing other games just now: try again in a moment.';
    case 'unknown-type': return 'This server cannot review games yet.';
    default: return m.message || 'The review failed.';
  }
}

/**
 * The review, online or offline: the seat chosen, the chart, the list with marks, the move
 * shown with its judgement, and the board as the seat saw it then.
 * @param {{type: string, seats: any[], frames: import('./movelist.js').Frame[], review: any, seat: number,
 *   heading: any, onSeat: (s: number) => void, back?: string, onBack?: () => void}} props
 */
export function ReviewView({ type, seats, frames, review, seat, heading, onSeat, back, onBack }) {
  const [at, go] = useBrowse(frames, false);
  const last = frames.length ? frames[frames.length - 1].ply : 0;
  const shown = at === null ? last : at;
  const frame = frameAt(frames, shown);
  const plies = Array.isArray(review.plies) ? review.plies : [];
  // A move can have two entries: the seat's decision, then what chance did in it (a draw).
  const entries = plies.filter((/** @type {any} */ p) => frameOf(p.ply) === shown);
  /** @type {{[ply: number]: string}} */
  const marks = {};
  for (const p of plies) {
    if (p.decision && p.decision.mark) marks[frameOf(p.ply)] = p.decision.mark;
    else if (p.luck && !marks[frameOf(p.ply)]) marks[frameOf(p.ply)] = 'luck';
  }
  const Board = boardFor(type);
  const seatName = (/** @type {number} */ s) => (seats[s] ? seats[s].seat_name : `Seat ${s + 1}`);
  return html`<div class=${`review-page game-${type}`} data-testid="review" data-shown-ply=${shown} data-ply=${last} data-status="over">
    <header class="table-head">
      <h1>${heading}</h1>
      <p class="small">Each move of ${seatName(seat)}'s is judged by the hard computer from what ${seatName(seat)} could know
        at that moment, never from the cards revealed later; what winning chances mean is said under the chart.</p>
      <p class="review-controls">
        ${onSeat && html`<label>Seat reviewed <select value=${String(seat)} data-testid="review-seat"
          onChange=${(/** @type {any} */ e) => onSeat(Number(e.currentTarget.value))}>
          ${seats.map((s) => html`<option value=${String(s.seat)}>${s.seat_name}</option>`)}
        </select></label>`}
        ${back ? html` <a class="button" href=${back}>Back to the game</a>` : ''}
        ${onBack ? html` <button type="button" onClick=${onBack}>Back to the game</button>` : ''}
      </p>
    </header>
    <div class="table-body">
      <section class="board-area" id="board" tabindex="-1" aria-labelledby="review-board-h">
        <h2 id="review-board-h">As ${seatName(seat)} saw it after move ${shown}</h2>
        ${frame && html`<${BoardGuard} key=${`review-${seat}-${shown}`} Board=${Board} view=${frame.view} legal=${null} you=${seat}
          seats=${seats} send=${() => {}} status=${shown === last ? 'over' : 'live'}
          last=${shown > 0 ? { seat: frame.seat ?? null, events: frame.events || [] } : null} />`}
        ${entries.length === 0 ? html`<p class="review-decision" data-testid="review-decision">The start of the game.</p>`
          : entries.map((e, i) => html`<${Decision} key=${i} type=${type} entry=${e} seatName=${seatName} />`)}
        <${Explanations} game=${type} />
      </section>
      <aside class="side">
        <${ChancesChart} plies=${plies} start=${review.start_chances} seats=${seats} seat=${seat} shown=${shown} go=${go} />
        <${Summary} plies=${plies} seatName=${seatName} seat=${seat} thresholds=${review.thresholds} />
        <${MoveList} type=${type} frames=${frames} at=${at} go=${go} live=${false} marks=${marks} seatName=${seatName} />
      </aside>
    </div>
  </div>`;
}

/** A chance in words: "62%". @param {number|undefined|null} p */
export function pct(p) {
  return typeof p === 'number' ? `${Math.round(p * 100)}%` : '?';
}

/** The judgement of the move shown, in the narration's words as the game's log says them.
 * @param {{type: string, entry: any, seatName: (s: number) => string}} props */
function Decision({ type, entry, seatName }) {
  const d = entry.decision;
  const said = (/** @type {string|undefined} */ t) => speak(type, t || '');
  const who = entry.actor === null || entry.actor === undefined ? null : seatName(entry.actor);
  if (entry.luck) {
    return html`<p class="review-decision mark-luck" data-testid="review-decision"><b class="mark-word">Luck</b>: ${said(entry.text)}${' '}A draw or a deal is chance: nobody's error.</p>`;
  }
  if (!d) return html`<p class="review-decision" data-testid="review-decision">${who ? `${who}: ` : ''}${said(entry.text)}</p>`;
  const mark = d.mark ? html` <b class="mark-word">${MARK_WORDS[d.mark] || d.mark}</b>.` : '';
  return html`<div class=${`review-decision${d.mark ? ` mark-${d.mark}` : ''}`} data-testid="review-decision">
    <p>${who} played <b>${said(d.text || d.move)}</b>: winning chances ${pct(d.before)} before,
      ${typeof d.after === 'number' ? `${pct(d.after)} after` : 'after it not measured (the search never tried it)'}.${mark}
      ${d.forced ? ' It was the only legal move.' : ''}</p>
    ${d.best && d.best !== d.move && html`<p data-testid="review-better">Better: <b>${said(d.best_text || d.best)}</b> (${pct(d.best_chances)}).</p>`}
  </div>`;
}

/** How many marks the seat got, and the thresholds. @param {{plies: any[], seatName: (s: number) => string, seat: number, thresholds: any}} props */
function Summary({ plies, seatName, seat, thresholds }) {
  const n = (/** @type {string} */ mark) => plies.filter((p) => p.decision && p.decision.mark === mark).length;
  const t = thresholds || {};
  return html`<section class="panel" aria-labelledby="review-sum-h">
    <h2 id="review-sum-h">${seatName(seat)}'s moves</h2>
    <table class="review-summary" data-testid="review-summary"><tbody>
      <tr class="mark-inaccuracy"><th scope="row"><span class="mark-word">Inaccuracies</span></th><td>${n('inaccuracy')}</td>
        <td class="small">chances down ${pct(t.inaccuracy)} or more</td></tr>
      <tr class="mark-mistake"><th scope="row"><span class="mark-word">Mistakes</span></th><td>${n('mistake')}</td>
        <td class="small">${pct(t.mistake)} or more</td></tr>
      <tr class="mark-blunder"><th scope="row"><span class="mark-word">Blunders</span></th><td>${n('blunder')}</td>
        <td class="small">${pct(t.blunder)} or more</td></tr>
    </tbody></table>
  </section>`;
}

/**
 * Each seat's winning chances after every move (uPlot, as the rating chart), the reviewed
 * seat's marked moves as points on its line; a click on the chart goes to the nearest move.
 * The chart is drawn on a canvas, so the same figures are a table for screen readers and the
 * move list is the keyboard's way through.
 * @param {{plies: any[], start?: number[], seats: any[], seat: number, shown: number, go: (n: number) => void}} props
 */
function ChancesChart({ plies, start, seats, seat, shown, go }) {
  const box = useRef(/** @type {HTMLDivElement|null} */ (null));
  const plot = useRef(/** @type {uPlot|null} */ (null));
  const goRef = useRef(go);
  goRef.current = go;
  // One point per move: the last entry of that move with chances (after chance's part too).
  const byFrame = new Map();
  // Before the first move (when the reviewed seat makes it): frame 0.
  if (Array.isArray(start)) byFrame.set(0, { ply: -1, chances: start });
  for (const p of plies) if (Array.isArray(p.chances)) byFrame.set(frameOf(p.ply), p);
  const withChances = [...byFrame.values()];
  const markedAt = new Set(plies.filter((p) => p.decision && p.decision.mark).map((p) => frameOf(p.ply)));
  useEffect(() => {
    if (!box.current || withChances.length === 0) return undefined;
    const xs = withChances.map((p) => frameOf(p.ply));
    const lines = seats.map((s) => withChances.map((p) => p.chances[s.seat] ?? null));
    const marked = withChances.map((p) => (markedAt.has(frameOf(p.ply)) ? p.chances[seat] ?? null : null));
    const width = Math.max(280, Math.min(520, box.current.clientWidth || 480));
    const u = new uPlot({
      width,
      height: 200,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      series: [
        { label: 'Move' },
        ...seats.map((s) => ({ label: s.seat_name, stroke: SEAT_COLOURS[seatClass(s.seat, s.seat_name)] || '#555',
          width: s.seat === seat ? 2.5 : 1.5, value: (/** @type {any} */ _u, /** @type {number|null} */ v) => pct(v) })),
        { label: 'Marked', stroke: '#a3200f', paths: () => null, points: { show: true, size: 9, fill: '#a3200f' },
          value: (/** @type {any} */ _u, /** @type {number|null} */ v) => (v === null ? '' : pct(v)) },
      ],
      axes: [{ label: 'move', incrs: [1, 2, 5, 10, 20, 50, 100] }, { size: 56, values: (/** @type {any} */ _u, /** @type {number[]} */ ticks) => ticks.map((v) => pct(v)) }],
    }, [xs, ...lines, marked], box.current);
    // A click goes to the move under the cursor.
    u.over.addEventListener('click', () => {
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) goRef.current(xs[i]);
    });
    plot.current = u;
    return () => { u.destroy(); plot.current = null; };
  }, [plies, start, seats, seat]);
  // The move shown is where the cursor rests.
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    const i = withChances.findIndex((p) => frameOf(p.ply) === shown);
    if (i >= 0) u.setCursor({ left: u.valToPos(frameOf(withChances[i].ply), 'x'), top: u.valToPos(withChances[i].chances[seat] ?? 0.5, 'y') });
  }, [shown, plies]);
  if (withChances.length === 0) return html`<p class="small">No winning chances were computed for this game.</p>`;
  return html`<section class="panel" aria-labelledby="review-chart-h">
    <h2 id="review-chart-h">Winning chances</h2>
    <div class="review-chart chart" ref=${box} aria-hidden="true" data-testid="review-chart"></div>
    <p class="small muted">A seat's winning chances are its expected share of the win as the hard computer estimates it
      from ${seats[seat] ? seats[seat].seat_name : 'the seat'}'s view: 50% with two seats is an even game. In a game
      with luck a good move can still lose to the draw that follows; a draw or a deal moves the chances without being
      anyone's error, so it is marked luck, never a mistake.</p>
    <details><summary>The figures as a table</summary>
      <table class="small"><thead><tr><th scope="col">Move</th>${seats.map((s) => html`<th scope="col">${s.seat_name}</th>`)}</tr></thead>
        <tbody>${withChances.map((p) => html`<tr><th scope="row">${frameOf(p.ply)}</th>${seats.map((s) => html`<td>${pct(p.chances[s.seat])}</td>`)}</tr>`)}</tbody>
      </table></details>
  </section>`;
}
