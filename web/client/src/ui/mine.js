// mine.js — "My games" (#/mine): every unfinished game of this player, the ones waiting for
// them first with the time left, from the server's `mine` pushes (docs/server-protocol.md);
// the challenges received and sent, the games being looked for ("Play now"), and the
// settings of how the page tells you it is your turn.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { formatClock } from './clock.js';
import { paceText } from './paces.js';
import { seatClass } from './seats.js';
import { ChallengeLists, ReceivedChallenge } from './challenge.js';
import { AlertSettings } from './alerts.js';
import { SeekList } from './playnow.js';

/** @typedef {import('../client.js').Client} Client */

/** The wall time now, every second while `on`. @param {boolean} on */
export function useNow(on) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [on]);
  return now;
}

/** @param {{client: Client}} props */
export function MyGames({ client }) {
  const mine = client.state.mine;
  const games = mine ? mine.games || [] : [];
  const now = useNow(games.some((g) => g.deadline_ms));
  const received = client.state.challengesIn;
  return html`<div class="my-games">
    <h1>My games</h1>
    <p class="page-links"><a class="button primary" href="#/play" data-testid="mine-play-now">Play now</a>
      <a class="button" href="#/challenge" data-testid="mine-challenge">Challenge a player</a></p>
    ${received.length > 0 && html`<section class="panel" aria-labelledby="in-h">
      <h2 id="in-h">Challenges for you</h2>
      <ul class="games">${received.map((c) => html`<${ReceivedChallenge} key=${c.id} client=${client} c=${c} />`)}</ul>
    </section>`}
    <section class="panel" aria-labelledby="mine-h">
      <h2 id="mine-h">Your unfinished games</h2>
      ${!mine && html`<p class="muted" role="status">Loading your games…</p>`}
      ${mine && games.length === 0 && html`<p class="muted" data-testid="mine-empty">No game in progress. Play now, or create one in the lobby.</p>`}
      <ul class="games mine-list" data-testid="mine-list">${games.map((g) => html`<${MineRow} key=${g.game} g=${g} now=${now} />`)}</ul>
      <p class="small muted">Finished games move to your profile's history.</p>
    </section>
    <${SeekList} client=${client} />
    <${ChallengeLists} client=${client} />
    <section class="panel" aria-labelledby="alerts-h">
      <h2 id="alerts-h">Alerts</h2>
      <${AlertSettings} client=${client} idPrefix="mine" />
    </section>
  </div>`;
}

/** One game of the list: whose turn, against whom, the time left. @param {{g: any, now: number}} props */
function MineRow({ g, now }) {
  const others = (g.seats || []).filter((s) => s.seat !== g.seat);
  const toMove = (g.seats || []).find((s) => s.seat === g.to_move);
  let state = 'Waiting for players';
  if (g.status === 'live') state = g.your_turn ? 'Your turn' : `${toMove ? toMove.name || toMove.seat_name : 'Their'} to play`;
  const left = g.deadline_ms ? formatClock(g.deadline_ms - now) : null;
  return html`<li class=${g.your_turn ? 'your-turn' : ''} data-testid=${`mine-${g.game}`} data-your-turn=${g.your_turn ? 'yes' : 'no'}>
    <span class="g-title">${g.title} #${g.game}</span>
    <span class=${g.your_turn ? 'turn-badge' : 'muted'}>${state}</span>
    <span class="seats-mini">${others.map((s) => html`<span class=${`chip ${seatClass(s.seat, s.seat_name)}`}>
      ${s.seat_name}: ${s.kind === 'ai' ? `AI (${s.level})` : s.name || s.kind}</span>`)}</span>
    <span class="muted">${paceText(g.clock)}</span>
    ${left && html`<span class="time-left" data-testid="time-left">${g.your_turn ? `${left} left` : `their time: ${left}`}</span>`}
    <a class="button" href=${`#/game/${g.game}`}>${g.your_turn ? 'Play' : 'Open'}</a>
  </li>`;
}
