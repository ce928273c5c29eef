// profile.js — a player's page (GET /api/v1/players/NAME): ratings per game with their
// history charted, results against the computer by level, and the last finished games with
// their replays and records to download; a registered visitor can challenge the player.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { RatingChart } from './chart.js';
import { count } from './seats.js';
import { Players } from './lobby.js';

// Every player's rating before their first rated game of a kind (docs/server-protocol.md,
// "Ratings": new players 1500 / 350), the chart's point 0 when the history is whole.
const NEW_PLAYER = { rating: 1500, rd: 350 };

/** A registered player may challenge another registered one. @param {import('../client.js').Client} client @param {any} p */
function canChallenge(client, p) {
  const me = client.state.user;
  return !!me && !me.guest && !p.guest && me.name !== p.name;
}

/** @param {{client: import('../client.js').Client, name: string}} props */
export function Profile({ client, name }) {
  const [p, setP] = useState(/** @type {any} */ (null));
  const [error, setError] = useState('');
  useEffect(() => {
    fetch(`/api/v1/players/${encodeURIComponent(name)}`)
      .then(async (r) => {
        const j = await r.json();
        if (!r.ok) throw new Error(j.message || 'not found');
        setP(j);
      })
      .catch((e) => setError(String(e.message || e)));
  }, [name]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!p) return html`<p role="status">Loading ${name}…</p>`;
  const title = (/** @type {string} */ t) => (client.state.types.find((x) => x.type === t) || { title: t }).title;
  const games = Object.keys(p.ratings);
  return html`<div class="profile">
    <h1>${p.name}${p.guest ? html` <span class="muted">(guest)</span>` : ''}</h1>
    <p class="muted">Playing since ${new Date(p.created_ms).toLocaleDateString()}</p>
    ${canChallenge(client, p) && html`<p><a class="button primary" href=${`#/challenge/${encodeURIComponent(p.name)}`}
      data-testid="profile-challenge">Challenge ${p.name}</a></p>`}
    <section class="panel"><h2>Ratings</h2>
      ${games.length === 0 && html`<p class="muted">No rated games yet.</p>`}
      ${games.map((g) => {
        const r = p.ratings[g];
        const hist = p.rating_history.filter((h) => h.game === g).reverse();
        return html`<div class="rating-block">
          <h3>${title(g)}: ${Math.round(r.rating)} <span class="muted">± ${Math.round(2 * r.rd)}, ${count(r.games, 'game')}</span></h3>
          <${RatingChart} points=${hist} title=${`${title(g)} rating`} first=${r.games - hist.length + 1}
            start=${hist.length === r.games ? NEW_PLAYER : null} />
          <table class="data"><caption class="sr-only">${title(g)} rating history</caption>
            <thead><tr><th>Date</th><th>Game</th><th>Rating</th></tr></thead>
            <tbody>${hist.slice(-10).map((h) => html`<tr><td>${new Date(h.at_ms).toLocaleString()}</td>
              <td><a href=${`#/replay/${h.id}`}>#${h.id}</a></td><td>${Math.round(h.rating)}</td></tr>`)}</tbody></table>
        </div>`;
      })}
    </section>
    <section class="panel"><h2>Against the computer</h2>
      ${Object.keys(p.vs_ai).length === 0 ? html`<p class="muted">No games against the computer yet.</p>` : html`<table class="data"><thead><tr><th>Game</th><th>Level</th><th>Won</th><th>Lost</th><th>Drawn</th></tr></thead>
        <tbody>${Object.entries(p.vs_ai).flatMap(([g, levels]) => Object.entries(levels).map(([lvl, r]) => html`<tr>
          <td>${title(g)}</td><td>${lvl}</td><td>${r.won}</td><td>${r.lost}</td><td>${r.drawn}</td></tr>`))}</tbody></table>`}
    </section>
    <section class="panel"><h2>Finished games</h2>
      <table class="data"><thead><tr><th>Game</th><th>Players</th><th>Result</th><th>Replay and record</th></tr></thead>
        <tbody>${p.games.map((g) => html`<tr data-testid=${`finished-${g.id}`}><td>${title(g.game)} #${g.id}${g.rated ? ' (rated)' : ''}</td>
          <td><${Players} types=${client.state.types} g=${g} /></td><td>${g.result}</td>
          <td><a href=${`#/replay/${g.id}`}>Replay</a> · <a href=${`/api/v1/games/${g.id}/record`} download=${`game-${g.id}.record`}>Record</a></td></tr>`)}</tbody></table>
    </section>
  </div>`;
}
