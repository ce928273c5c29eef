// join.js — the page a game's link (/?game=ID, or with &invite=CODE) opens (issue 49: such a
// link seated whoever opened it, in rated games and on the clock too): what the game is (its
// game, rated or not, its clock, who sits where) and a button to take the seat, so that
// nobody is seated without asking. A game already started is offered to watch.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { paceText } from './paces.js';

/** @param {{client: import('../client.js').Client, id: number, invite: string|null}} props */
export function JoinPage({ client, id, invite }) {
  const [game, setGame] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    fetch(`/api/v1/games/${id}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then(setGame)
      .catch(() => setError(`No game #${id} is open or being played.`));
  }, [id]);
  async function join() {
    setBusy(true);
    /** @type {{[key: string]: any}} */
    const msg = { t: 'join', game: id };
    if (invite) msg.invite = invite;
    const reply = await client.request(msg);
    setBusy(false);
    if (reply.t === 'joined' || reply.code === 'already-seated') location.hash = `#/game/${id}`;
    else setError(reply.message);
  }
  if (!game) {
    return html`<section class="panel join" data-testid="join">
      <h1>Game #${id}</h1>
      <p role=${error ? 'alert' : undefined}>${error || 'Loading the game…'}</p>
      <a class="button" href="#/">Back to the lobby</a></section>`;
  }
  const me = client.state.user ? client.state.user.name : null;
  const seated = game.seats.some((/** @type {any} */ s) => s.kind === 'human' && s.name === me);
  const open = game.status === 'open' && !seated;
  return html`<section class="panel join" aria-labelledby="join-h" data-testid="join">
    <h1 id="join-h">${open ? `Join ${game.title} #${id}?` : `${game.title} #${id}`}</h1>
    <dl class="join-terms">
      <dt>Rated</dt><dd data-testid="join-rated">${game.rated ? 'Rated: the result changes the players’ ratings' : 'Not rated'}</dd>
      <dt>Clock</dt><dd data-testid="join-clock">${paceText(game.clock)}</dd>
      <dt>Seats</dt><dd>${game.seats.map((/** @type {any} */ s) => html`<span class="chip">${s.seat_name}: ${s.kind === 'ai' ? `Computer (${s.level})` : s.name || (s.kind === 'open' ? 'open seat' : s.kind === 'invite' ? 'by invitation' : s.kind)}</span> `)}</dd>
    </dl>
    ${error && html`<p class="error" role="alert" data-testid="join-error">${error}</p>`}
    ${open && html`<p>Taking the seat starts the game once every seat is taken${game.clock && game.clock.kind !== 'none' ? ', and your clock with it' : ''}.</p>`}
    ${!open && html`<p data-testid="join-started">${seated ? 'You sit in this game.' : 'This game has started: you can watch it.'}</p>`}
    <div class="row-form">
      ${open && html`<button type="button" class="primary" disabled=${busy} onClick=${join} data-testid="join-confirm">Take the seat</button>`}
      <a class="button" href=${`#/game/${id}`} data-testid="join-watch">${seated ? 'Go to the table' : 'Just watch'}</a>
      <a class="button" href="#/">Not now</a>
    </div>
  </section>`;
}
