// profile.js — a player's page (GET /api/v1/players/NAME): ratings per game with their
// history charted, the tournaments played with their places, results against the computer by
// level, and the last finished games with their replays and records to download; a registered
// visitor can challenge the player.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { RatingChart } from './chart.js';
import { count } from './seats.js';
import { Players } from './lobby.js';
import { ScrollTable, ordinal, pointsFigure } from './tournaments.js';

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
    <${Tournaments} list=${p.tournaments || []} name=${p.name} title=${title} />
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

const FORMAT_NAMES = { swiss: 'Swiss', sets: 'A set', arena: 'Arena' };

/** A profile's tournament line's status: "Finished", "Running: round 3" (a Swiss). @param {any} t */
function tourStatus(t) {
  if (t.status === 'over') return 'Finished';
  if (t.status === 'cancelled') return 'Cancelled';
  return t.format === 'swiss' ? `Running: round ${t.round}` : 'Running';
}

/**
 * The place in the standings the server computed from the stored results: "3rd of 8" once
 * over. While it runs, an arena counts each game as it ends ("2nd of 8 so far"); a Swiss or a
 * set counts only the rounds whose every game has ended (docs/tournaments.md), so a Swiss in
 * round 3 stands "after round 2" (for the second between a round's last result and the
 * director's next tick, which pairs the next round, the place already counts the round just
 * ended: the profile does not say how many rounds its standings count), and a set in play or
 * a Swiss's first round has no place yet.
 * A tournament cancelled at its start time, still short of players, was never played.
 * @param {any} t
 */
function tourPlace(t) {
  const place = `${ordinal(t.place)} of ${t.of}`;
  if (t.status === 'over') return place;
  if (t.status === 'cancelled') return 'none: it never started';
  if (t.format === 'arena') return `${place} so far`;
  if (t.format === 'swiss' && t.round > 1) return `${place} after round ${t.round - 1}`;
  return t.format === 'swiss' ? 'none yet: round 1 is being played' : 'none yet: the set is being played';
}

/** The tournaments the player entered that have started, newest first (the server's 20), each
 * linked to its page; a short line when there are none.
 * @param {{list: any[], name: string, title: (type: string) => string}} props */
function Tournaments({ list, name, title }) {
  return html`<section class="panel" aria-labelledby="profile-tournaments-h" data-testid="profile-tournaments">
    <h2 id="profile-tournaments-h">Tournaments</h2>
    ${list.length === 0 ? html`<p class="muted">No tournaments played yet.</p>` : html`<${ScrollTable} label="The table of tournaments played">
      <table class="data tour-table">
        <caption class="sr-only">Tournaments ${name} played, newest first, with the place and points in each</caption>
        <thead><tr><th scope="col">Tournament</th><th scope="col">Game</th><th scope="col">Format</th>
          <th scope="col">Status</th><th scope="col">Place</th><th scope="col">Points</th></tr></thead>
        <tbody>${list.map((t) => html`<tr key=${t.id} data-testid=${`profile-tour-${t.id}`}>
          <th scope="row"><a href=${`#/tournaments/${t.id}`}>${t.name}</a></th>
          <td>${title(t.type)}${t.rated ? html`<span class="small muted">, rated</span>` : ''}</td>
          <td>${FORMAT_NAMES[t.format] || t.format}</td>
          <td>${tourStatus(t)}</td>
          <td>${tourPlace(t)}</td>
          <td>${pointsFigure(t.points)}</td>
        </tr>`)}</tbody>
      </table><//>`}
  </section>`;
}
