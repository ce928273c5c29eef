// challenge.js — challenges to a named player (docs/server-protocol.md, `challenge`): the form
// to send one (#/challenge, #/challenge/NAME from a profile), a received one with Accept and
// Decline (shown under the header on every page and on "My games"), and a sent one with Cancel.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { PACES, PaceField, paceText } from './paces.js';

/** @typedef {import('../client.js').Client} Client */

/** The games a challenge can be for: two players. @param {any[]} types */
function twoPlayerGames(types) {
  return types.filter((t) => t.min_players <= 2 && t.max_players >= 2);
}

/** @param {{client: Client, to?: string}} props */
export function ChallengePage({ client, to = '' }) {
  const user = client.state.user;
  return html`<div class="challenge-page">
    <h1>Challenge a player</h1>
    ${user && user.guest
      ? html`<p class="panel" data-testid="challenge-guest">Challenges are between registered players: register (at the top of the page) to send one.</p>`
      : html`<${ChallengeForm} client=${client} to=${to} />`}
    <${ChallengeLists} client=${client} />
  </div>`;
}

/** @param {{client: Client, to: string}} props */
export function ChallengeForm({ client, to }) {
  const games = twoPlayerGames(client.state.types);
  const [name, setName] = useState(to);
  const [type, setType] = useState('castle-danger');
  const [pace, setPace] = useState('3d');
  const [seat, setSeat] = useState('random');
  const [rated, setRated] = useState(false);
  const [message, setMessage] = useState(/** @type {{ok: boolean, text: string}|null} */ (null));
  const t = games.find((x) => x.type === type) || games[0];

  /** @param {Event} e */
  async function send(e) {
    e.preventDefault();
    if (!t) return;
    const msg = { t: 'challenge', op: 'send', to: name.trim(), type: t.type, clock: PACES[pace].clock, rated };
    if (seat !== 'random') msg.seat = Number(seat);
    // quiet: the refusal shows under the form, not a second time in the page's notice
    const reply = await client.transport.request(msg, { quiet: true });
    if (reply.t === 'error') setMessage({ ok: false, text: reply.message });
    else {
      client.challengeSent(reply.challenge);
      setMessage({ ok: true, text: `Challenge sent to ${name.trim()}: it waits for an answer below.` });
    }
  }
  return html`<section class="panel" aria-labelledby="chal-h">
    <h2 id="chal-h">Send a challenge</h2>
    <form class="row-form" onSubmit=${send} data-testid="challenge-form">
      <label>Player's name <input value=${name} required minlength="3" maxlength="20" autocomplete="off" data-testid="challenge-to"
        onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} /></label>
      <label>Game <select value=${t ? t.type : ''} data-testid="challenge-game"
        onChange=${(/** @type {any} */ e) => { setType(e.currentTarget.value); setSeat('random'); }}>
        ${games.map((x) => html`<option value=${x.type}>${x.title}</option>`)}</select></label>
      <label>Your seat <select value=${seat} data-testid="challenge-seat" onChange=${(/** @type {any} */ e) => setSeat(e.currentTarget.value)}>
        <option value="random">Drawn at random</option>
        ${(t ? t.seat_names.slice(0, 2) : []).map((n, i) => html`<option value=${String(i)}>${n}</option>`)}</select></label>
      <${PaceField} id="challenge-pace" value=${pace} onChange=${setPace} />
      <label class="check"><input type="checkbox" checked=${rated} data-testid="challenge-rated"
        onChange=${(/** @type {any} */ e) => setRated(e.currentTarget.checked)} /> Rated</label>
      <button type="submit" class="primary" data-testid="challenge-send" disabled=${!t}>Send the challenge</button>
    </form>
    <p class="small muted">The player sees it at once, wherever they are on the site. It expires after 10 minutes
      (3 days for days per move) if they do not answer.</p>
    ${message && html`<p class=${message.ok ? 'ok' : 'error'} role=${message.ok ? 'status' : 'alert'} data-testid="challenge-message">${message.text}</p>`}
  </section>`;
}

/** What a challenge is for, in words. @param {any} c */
export function challengeTerms(c) {
  return `${c.title}, ${paceText(c.clock)}${c.rated ? ', rated' : ''}`;
}

/** A challenge received: who, what, Accept and Decline. @param {{client: Client, c: any}} props */
export function ReceivedChallenge({ client, c }) {
  const [busy, setBusy] = useState(false);
  /** @param {'accept'|'decline'} op */
  async function answer(op) {
    setBusy(true);
    const reply = await client.request({ t: 'challenge', op, challenge: c.id });
    setBusy(false);
    if (reply.t !== 'error') client.challengeGone({ challenge: c.id, why: op === 'accept' ? 'accepted' : 'declined' });
    if (op === 'accept' && reply.t === 'done' && reply.game) location.hash = `#/game/${reply.game}`;
  }
  return html`<li class="challenge" data-testid=${`challenge-in-${c.id}`}>
    <span><b>${c.from}</b> challenges you: ${challengeTerms(c)}.</span>
    <span class="actions">
      <button type="button" class="primary" disabled=${busy} data-testid="challenge-accept" onClick=${() => answer('accept')}>Accept</button>
      <button type="button" disabled=${busy} data-testid="challenge-decline" onClick=${() => answer('decline')}>Decline</button>
    </span>
  </li>`;
}

/** The challenges received, under the header of every page but My games, which lists them
 * itself (none: nothing).
 * @param {{client: Client}} props */
export function ChallengeBanner({ client }) {
  const list = client.state.challengesIn;
  if (!list.length) return null;
  return html`<section class="challenge-banner" aria-label="Challenges for you" data-testid="challenge-banner">
    <ul>${list.map((c) => html`<${ReceivedChallenge} key=${c.id} client=${client} c=${c} />`)}</ul>
  </section>`;
}

/** The challenges sent, waiting for an answer, each with Cancel. @param {{client: Client}} props */
export function ChallengeLists({ client }) {
  const mine = client.state.mine;
  const sent = (mine && mine.challenges && mine.challenges.sent) || [];
  if (!sent.length) return null;
  /** @param {any} c */
  async function cancel(c) {
    const reply = await client.request({ t: 'challenge', op: 'cancel', challenge: c.id });
    if (reply.t !== 'error') client.challengeGone({ challenge: c.id, why: 'cancelled' });
  }
  return html`<section class="panel" aria-labelledby="sent-h">
    <h2 id="sent-h">Your challenges, waiting for an answer</h2>
    <ul class="games">${sent.map((c) => html`<li key=${c.id} data-testid=${`challenge-out-${c.id}`}>
      <span>To <b>${c.to}</b>: ${challengeTerms(c)}</span>
      <button type="button" data-testid="challenge-cancel" onClick=${() => cancel(c)}>Cancel</button></li>`)}</ul>
  </section>`;
}
