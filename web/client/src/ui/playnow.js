// playnow.js — "Play now" (#/play): pick a game, the number of players and a pace, and the
// server pairs you with people waiting for the same (`seek`, docs/server-protocol.md); while
// waiting, Cancel, and after 20 s the offer to play the computer instead. A pairing (`paired`)
// opens the game wherever the page is (client.js).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { PACES, PaceField, paceText } from './paces.js';
import { formatClock } from './clock.js';
import { isRegistered } from './account.js';

/** @typedef {import('../client.js').Client} Client */

// How long a person waits before the page offers the computer instead.
export const OFFER_AI_AFTER_MS = 20000;
/** @type {Map<number, number>} when this page first saw each seek (performance.now()) */
const seenAt = new Map();

/** @param {{client: Client}} props */
export function PlayNow({ client }) {
  const types = client.state.types;
  const [type, setType] = useState('castle-danger');
  const [players, setPlayers] = useState(2);
  const [pace, setPace] = useState('5+5');
  const [rated, setRated] = useState(false);
  const [busy, setBusy] = useState(false);
  const t = types.find((x) => x.type === type);
  const range = t ? rangeOf(Math.max(2, t.min_players), t.max_players) : [2];
  const registered = isRegistered(client);

  /** @param {Event} e */
  async function go(e) {
    e.preventDefault();
    setBusy(true);
    await client.seek({ type, players, clock: PACES[pace].clock, rated: registered && rated });
    setBusy(false);
  }
  return html`<div class="play-now">
    <h1>Play now</h1>
    <section class="panel" aria-labelledby="seek-h">
      <h2 id="seek-h">Find an opponent</h2>
      <p class="muted">You are paired with people waiting for the same game, number of players and pace, nearest
        in rating first; the longer someone waits, the wider the range. Seats and the first move are drawn at random.</p>
      <form class="row-form" onSubmit=${go} data-testid="seek-form">
        <label>Game <select value=${type} data-testid="seek-game"
          onChange=${(/** @type {any} */ e) => { setType(e.currentTarget.value); setPlayers(2); }}>
          ${types.map((x) => html`<option value=${x.type}>${x.title}</option>`)}</select></label>
        ${range.length > 1 && html`<label>Players <select value=${players} data-testid="seek-players"
          onChange=${(/** @type {any} */ e) => setPlayers(Number(e.currentTarget.value))}>
          ${range.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>`}
        <${PaceField} id="seek-pace" value=${pace} onChange=${setPace} />
        ${registered
          ? html`<label class="check"><input type="checkbox" checked=${rated} data-testid="seek-rated"
              onChange=${(/** @type {any} */ e) => setRated(e.currentTarget.checked)} /> Rated</label>`
          : html`<span class="muted" data-testid="seek-rated-note">Rated games: register first</span>`}
        <button type="submit" class="primary" disabled=${busy || !t} data-testid="seek">Play now</button>
      </form>
    </section>
    <${SeekList} client=${client} />
  </div>`;
}

/** The games this player is looking for, each with the time waited, Cancel and, after a
 * while, the computer instead. @param {{client: Client}} props */
export function SeekList({ client }) {
  const seeks = client.seekList();
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!seeks.length) return undefined;
    const timer = window.setInterval(() => setTick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [seeks.length]);
  if (!seeks.length) return null;
  return html`<section class="panel seeking" aria-labelledby="seeking-h" data-testid="seeking">
    <h2 id="seeking-h">Looking for a game</h2>
    <ul class="games">${seeks.map((s) => html`<${SeekRow} key=${s.id} client=${client} s=${s} />`)}</ul>
  </section>`;
}

/** @param {{client: Client, s: any}} props */
function SeekRow({ client, s }) {
  if (!seenAt.has(s.id)) seenAt.set(s.id, performance.now());
  const waited = performance.now() - /** @type {number} */ (seenAt.get(s.id));
  /** Drop the seek, then play the same game against the easy computer; a seek already
   * paired (gone) leaves the pairing to open its game. */
  async function computer() {
    const reply = await client.transport.request({ t: 'unseek', seek: s.id });
    if (reply.t === 'error') return;
    client.goneSeeks.add(s.id);
    client.set({ seeks: client.state.seeks.filter((x) => x.id !== s.id) });
    const seats = ['me'];
    for (let i = 1; i < s.players; i++) seats.push('ai:easy');
    const made = await client.request({ t: 'create', type: s.type, seats, clock: s.clock });
    if (made.t === 'created') location.hash = `#/game/${made.game}`;
  }
  return html`<li data-testid=${`seeking-${s.id}`}>
    <span><span class="spinner" aria-hidden="true"></span> <b>${s.title}</b>, ${s.players} players, ${paceText(s.clock)}${s.rated ? ', rated' : ''}</span>
    <span class="muted" role="timer" aria-label=${`waiting for ${formatClock(waited)}`}>waiting ${formatClock(waited)}</span>
    <button type="button" data-testid="unseek" onClick=${() => client.unseek(s.id)}>Cancel</button>
    ${waited >= OFFER_AI_AFTER_MS && html`<button type="button" class="primary" data-testid="seek-ai" onClick=${computer}>Play the computer instead</button>`}
  </li>`;
}

/** @param {number} lo @param {number} hi */
function rangeOf(lo, hi) {
  const out = [];
  for (let n = lo; n <= hi; n++) out.push(n);
  return out;
}
