// replay.js — a finished game step by step (GET /api/v1/games/ID/replay?viewer=...): back,
// forward, first, last and a slider, seen as a spectator or, since the game is over, from any
// seat with that seat's cards shown, or from every seat at once (every card shown). The
// game's own board draws each position, with no moves.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { boardFor } from '../games/index.js';
import { speak } from '../games/speech.js';
import { BoardGuard } from './table.js';
import { Explanations } from './rules.js';

/** @param {{client: import('../client.js').Client, id: number}} props */
export function Replay({ id }) {
  const [viewer, setViewer] = useState('spectator');
  const [data, setData] = useState(/** @type {any} */ (null));
  const [error, setError] = useState('');
  const [step, setStep] = useState(0);
  useEffect(() => {
    setError('');
    loadReplay(id, viewer, data ? data.seats : [])
      .then((j) => {
        setData(j);
        setStep((s) => (data ? Math.min(s, j.frames.length - 1) : j.frames.length - 1));
      })
      .catch((e) => setError(String(e.message || e)));
  }, [id, viewer]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!data) return html`<p role="status">Loading the replay of game ${id}…</p>`;
  const frames = data.frames;
  const final = frames.length - 1;
  const at = Math.min(step, final);
  const frame = frames[at];
  const Board = boardFor(data.type);
  /** @param {number} s */
  const go = (s) => setStep(Math.max(0, Math.min(final, s)));
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(final);
    else return;
    e.preventDefault();
  }
  const you = viewer === 'spectator' || viewer === 'all' ? null : Number(viewer);
  // From every seat, the move is told as the seat that made it was told it (the fullest telling).
  const mover = data.each && frame.seat !== undefined ? data.each.find((/** @type {any} */ d) => d.viewer === frame.seat) : null;
  const events = (mover ? mover.frames[at] : frame).events || [];
  const last = at > 0 ? { seat: frame.seat ?? null, events } : null;
  return html`<div class=${`replay game-${data.type}`} onKeyDown=${onKey}>
    <header class="table-head">
      <h1>Replay: ${data.title} <span class="muted">#${id}</span></h1>
      <p class="status">${data.result ? data.result.text : ''}</p>
    </header>
    <div class="replay-bar" role="group" aria-label="Replay controls">
      <label>Seen by <select value=${viewer} data-testid="replay-viewer" onChange=${(/** @type {any} */ e) => setViewer(e.currentTarget.value)}>
        <option value="spectator">a spectator</option>
        ${data.seats.map((s) => html`<option value=${String(s.seat)}>${s.seat_name} (every card of theirs)</option>`)}
        <option value="all">every seat (every card)</option>
      </select></label>
      <button type="button" onClick=${() => go(0)} aria-label="First position">|◀</button>
      <button type="button" onClick=${() => go(at - 1)} aria-label="Back one move" data-testid="replay-back">◀</button>
      <input type="range" min="0" max=${final} value=${at} aria-label="Move" data-testid="replay-slider"
        onInput=${(/** @type {any} */ e) => go(Number(e.currentTarget.value))} />
      <button type="button" onClick=${() => go(at + 1)} aria-label="Forward one move" data-testid="replay-forward">▶</button>
      <button type="button" onClick=${() => go(final)} aria-label="Last position">▶|</button>
      <span data-testid="replay-step">Move ${at} of ${final}</span>
      <a class="button" href=${`/api/v1/games/${id}/record`} download=${`game-${id}.record`}>Record</a>
    </div>
    <div class="table-body">
      <section class="board-area" id="board" tabindex="-1" aria-label="Board">
        ${!data.each && html`<h2 class="sr-only">Board</h2>`}
        ${data.each
          ? data.each.map((/** @type {any} */ d) => html`<section class="replay-seat" key=${d.viewer} data-testid="replay-seat"
              aria-label=${`Seen by ${seatName(data.seats, d.viewer)}`}>
              <h2>Seen by ${seatName(data.seats, d.viewer)}</h2>
              <${BoardGuard} Board=${Board} key=${`${d.viewer}-${at}`} view=${d.frames[at].view} legal=${null} you=${d.viewer}
                seats=${data.seats} send=${() => {}} status=${at === final ? 'over' : 'live'}
                last=${at > 0 ? { seat: frame.seat ?? null, events: d.frames[at].events || [] } : null} />
            </section>`)
          : html`<${BoardGuard} Board=${Board} key=${`${viewer}-${at}`} view=${frame.view} legal=${null} you=${you}
              seats=${data.seats} send=${() => {}} status=${at === final ? 'over' : 'live'} last=${last} />`}
        <${Explanations} game=${data.type} />
      </section>
      <aside class="side">
        <section class="log-panel"><h2>This move</h2>
          <ol class="log" aria-live="polite">${events.map((e, i) => html`<li key=${i} class=${`ev ev-${e.kind}${e.reveal ? ' reveal' : ''}`}>${speak(data.type, e.text)}</li>`)}
            ${at === 0 && html`<li class="ev">The start of the game.</li>`}</ol>
        </section>
        ${data.seed !== undefined && html`<p class="small muted">Seed ${data.seed}</p>`}
      </aside>
    </div>
  </div>`;
}

/** @param {any[]} seats @param {number} seat */
function seatName(seats, seat) {
  const s = seats.find((x) => x.seat === seat);
  return s ? s.seat_name : `seat ${seat + 1}`;
}

/** One viewer's replay; for 'all', every seat's (fetched once the seats are known), kept in
 * `each` beside the first seat's. @param {number} id @param {string} viewer @param {any[]} seats */
async function loadReplay(id, viewer, seats) {
  /** @param {string} v */
  const get = async (v) => {
    const r = await fetch(`/api/v1/games/${id}/replay?viewer=${v}`);
    const j = await r.json();
    if (!r.ok) throw new Error(j.message || 'cannot replay this game');
    return j;
  };
  if (viewer !== 'all') return get(viewer);
  const known = seats.length ? seats : (await get('spectator')).seats;
  const each = await Promise.all(known.map((/** @type {any} */ s) => get(String(s.seat))));
  return { ...each[0], viewer: 'all', each };
}
