// tournament.js — one tournament's page (#/tournaments/ID): its settings, "your game" (the game
// the player is paired in now, one click away), Join, Withdraw and Start (its creator) as the
// server allows them, the standings with the tie-breaks as the server sends them, and the
// pairings round by round (docs/server-protocol.md "Tournaments", docs/tournaments.md).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { paceText } from './paces.js';
import { count } from './seats.js';
import { ScrollTable, formatText, optionsText, ordinal, pairingText, points, startText, statusText, usePolled, whenText } from './tournaments.js';

/** @typedef {import('../client.js').Client} Client */

/** @param {{client: Client, id: number}} props */
export function TournamentPage({ client, id }) {
  // The player's own games changing (one ended, one opened: `mine`) reads the tournament again
  // at once; the rest comes with the poll.
  const { body: t, error, again } = usePolled(`/api/v1/tournaments/${id}`, (b) => !b || b.status !== 'over', myGamesKey(client));
  if (error && !t) return html`<div class="tournament"><h1>Tournament ${id}</h1><p class="error" role="alert" data-testid="tour-error">${error}</p></div>`;
  if (!t) return html`<p role="status">Loading tournament ${id}…</p>`;
  const me = client.state.user ? client.state.user.name : null;
  const entry = (t.standings || []).find((/** @type {any} */ s) => s.name === me);
  return html`<div class="tournament" data-testid="tournament" data-status=${t.status} data-round=${t.round}>
    <h1>${t.name}</h1>
    <p class="tour-status">${t.title} · ${formatText(t)} · <strong data-testid="tour-status">${statusText(t)}</strong></p>
    <${YourGame} t=${t} me=${me} entry=${entry} />
    <${Actions} client=${client} t=${t} me=${me} entry=${entry} again=${again} />
    <${Settings} t=${t} />
    <${Standings} t=${t} me=${me} />
    <${Pairings} t=${t} me=${me} />
    <p class="small muted">${t.status === 'over' ? 'The tournament is over: these are its final standings.'
      : 'This page reads the tournament again every few seconds, and at once when a game of yours starts or ends.'}${' '}
      <a href="#/tournaments">All tournaments</a></p>
  </div>`;
}

/** What changes when one of the player's own games opens or ends: the ids `mine` lists.
 * @param {Client} client */
function myGamesKey(client) {
  const mine = client.state.mine;
  return mine ? (mine.games || []).map((/** @type {any} */ g) => g.game).join(',') : '';
}

/** The player's pairing: the one whose game is being played (an arena's may come from an
 * earlier tick than the last), else the current round's, if any. @param {any} t @param {string|null} me */
function myPairing(t, me) {
  const mine = (t.pairings || []).filter((/** @type {any} */ p) => p.players.includes(me));
  return mine.find((/** @type {any} */ p) => p.game) || mine.find((/** @type {any} */ p) => p.round === t.round) || null;
}

/** "Your game": the game the player is paired in, with a link; else what comes next.
 * @param {{t: any, me: string|null, entry: any}} props */
function YourGame({ t, me, entry }) {
  if (!entry) return null;
  const p = myPairing(t, me);
  let body;
  const arena = t.format === 'arena';
  if (!entry.active && arena && t.status === 'running') {
    body = html`<p>You are paused: nobody is paired with you${p && p.game ? ' once this game ends' : ''}. Come back to be paired again; your points are kept.</p>`;
  } else if (!entry.active) {
    body = html`<p>You withdrew: you are paired no more${t.status === 'over' ? '' : '; join again to come back'}.</p>`;
  } else if (t.status === 'open') {
    body = html`<p>You are in. When the tournament starts, your game opens by itself, wherever you are on the site.</p>`;
  } else if (t.status === 'over') {
    body = html`<p>The tournament is over: you are ${ordinal(entry.rank)} of ${t.standings.length}, with ${points(entry.points)}.</p>`;
  } else if (p && p.game) {
    const others = p.players.filter((/** @type {string} */ n) => n !== me);
    const which = t.games > 1 ? ` (game ${p.games_done + 1} of ${t.games})` : '';
    body = html`<p>${arena ? '' : `Round ${t.round}: `}Your game against ${others.join(', ')}${which} is being played.</p>
      <p><a class="button primary" href=${`#/game/${p.game}`} data-testid="tour-my-game">Go to your game: ${t.title} #${p.game}</a></p>`;
  } else if (arena) {
    body = html`<p>You are waiting: each second the arena pairs whoever is free, and your next game opens by itself.</p>`;
  } else if (p && p.players.length === 1) {
    body = html`<p>Round ${t.round}: you have a bye (it counts as a win). The next round is paired when every game of this one has ended; your game opens by itself.</p>`;
  } else if (p) {
    body = html`<p>Round ${t.round}: your ${t.games > 1 ? 'set' : 'game'} is over. The next round is paired when every game of this one has ended; your game opens by itself.</p>`;
  } else {
    body = html`<p>You are in from the next round: your game opens by itself when it is paired.</p>`;
  }
  return html`<section class="panel your-game" aria-labelledby="your-game-h" data-testid="tour-your-game">
    <h2 id="your-game-h">${t.status === 'over' ? 'Your result' : 'Your game'}</h2>${body}</section>`;
}

/**
 * Join, Withdraw and Start as the server allows them: Join for anyone not in (a guest only in
 * an unrated tournament; a set only while it has room), Withdraw for a player in it, Start for
 * its creator while it is open. A refusal is said next to the buttons.
 * @param {{client: Client, t: any, me: string|null, entry: any, again: () => void}} props
 */
function Actions({ client, t, me, entry, again }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState(/** @type {{ok: boolean, text: string}|null} */ (null));
  if (t.status === 'over' || !me) return null;
  const guest = !!(client.state.user && client.state.user.guest);
  const active = (t.standings || []).filter((/** @type {any} */ s) => s.active && !s.computer).length;
  const inIt = !!entry && entry.active;
  const full = t.format === 'sets' && active >= t.table;
  const creator = t.creator === me;
  // In a running arena, withdrawing pauses and joining comes back, points kept (as on lichess).
  const pausing = t.format === 'arena' && t.status === 'running';
  const needed = t.format === 'sets' ? t.table : t.table > 2 ? 3 : 2;

  /** @param {string} op @param {string} done */
  async function send(op, done) {
    setBusy(true);
    setMessage(null);
    const reply = await client.transport.request({ t: 'tournament', op, tournament: t.id }, { quiet: true });
    setBusy(false);
    setMessage(reply.t === 'error' ? { ok: false, text: reply.message } : { ok: true, text: done });
    again();
  }
  return html`<section class="panel tour-actions" aria-labelledby="tour-actions-h">
    <h2 id="tour-actions-h" class="sr-only">Take part</h2>
    <p class="page-links">
      ${!inIt && !full && html`<button type="button" class="primary" disabled=${busy} data-testid="tour-join"
        onClick=${() => send('join', 'You are in.')}>${pausing && entry ? 'Come back' : 'Join'}</button>`}
      ${inIt && html`<button type="button" disabled=${busy} data-testid="tour-withdraw"
        onClick=${() => send('withdraw', pausing ? 'Paused.' : 'You withdrew.')}>${pausing ? 'Pause' : 'Withdraw'}</button>`}
      ${creator && t.status === 'open' && html`<button type="button" class=${inIt || full ? 'primary' : ''} disabled=${busy}
        data-testid="tour-start" aria-describedby="tour-start-help" onClick=${() => send('start', 'Started: the first round is paired.')}>Start the tournament</button>`}
    </p>
    ${!inIt && full && html`<p class="muted" data-testid="tour-full">The set has its ${t.table} players.</p>`}
    ${!inIt && guest && t.rated && html`<p class="muted">A rated tournament is for registered players: register at the top of the page to join it.</p>`}
    ${creator && t.status === 'open' && html`<p class="small muted" id="tour-start-help">You created it: start it once
      ${t.format === 'sets' ? `its ${t.table} players are in` : `at least ${needed} players are in`} (${count(active, 'player')} now).</p>`}
    ${message && html`<p class=${message.ok ? 'ok' : 'error'} role=${message.ok ? 'status' : 'alert'} data-testid="tour-message">${message.text}</p>`}
  </section>`;
}

/** The terms it is played under. @param {{t: any}} props */
function Settings({ t }) {
  const rows = [
    ['Game', t.title],
    ['Format', formatText(t) + (pairingText(t) ? `; ${pairingText(t)}` : '')],
    ['Players at each game', String(t.table)],
    ['Game options', optionsText(t.options)],
    ['Pace', paceText(t.clock)],
    ['Rated', t.rated ? 'Yes' : 'No'],
    ['Players', String(t.entries)],
    ['Created', `${whenText(t.created_ms)}${t.creator ? ` by ${t.creator}` : ''}`],
    ['Start', startText(t).replace(/^starts? /, '')],
  ];
  if (t.ends_ms) rows.push(['End', `${whenText(t.ends_ms)}: only games that end before then count`]);
  if (t.computer) rows.push(['The computer', `plays whoever would have had a bye (level ${t.computer})`]);
  return html`<section class="panel" aria-labelledby="tour-settings-h">
    <h2 id="tour-settings-h">Settings</h2>
    <dl class="tour-settings" data-testid="tour-settings">${rows.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
    ${t.type === 'castle-danger' && t.options && t.options.tournament === 1 && html`<p class="small muted">Castle Danger's formal
      play: "a pre-determined number of turns (25 is recommended) should be scored as a draw".</p>`}
  </section>`;
}

/** The standings in the server's order, with its tie-breaks. @param {{t: any, me: string|null}} props */
function Standings({ t, me }) {
  const lines = t.standings || [];
  const direct = lines.some((/** @type {any} */ s) => s.direct !== undefined);
  // An arena's lines carry no Buchholz, Sonneborn-Berger or byes (no rounds to count them over).
  const ties = lines.some((/** @type {any} */ s) => s.buchholz !== undefined);
  return html`<section class="panel" aria-labelledby="tour-standings-h">
    <h2 id="tour-standings-h">Standings</h2>
    ${lines.length === 0 ? html`<p class="muted">No one has joined yet.</p>` : html`<${ScrollTable} label="The standings table">
    <table class="data tour-table" data-testid="tour-standings">
      <caption class="sr-only">Standings: points, then ${ties ? `the tie-breaks Buchholz, Sonneborn-Berger${direct ? ' and direct encounter' : ''}` : 'the seed'}</caption>
      <thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Points</th>
        ${ties && html`<th scope="col"><abbr title="Buchholz: the sum of the opponents' points">Buchholz</abbr></th>
        <th scope="col"><abbr title="Sonneborn-Berger: each opponent's points times the result against them">S-B</abbr></th>`}
        ${direct && html`<th scope="col">Direct</th>`}
        <th scope="col">${t.games > 1 && t.format !== 'arena' ? 'Sets played' : 'Played'}</th>${ties && html`<th scope="col">Byes</th>`}</tr></thead>
      <tbody>${lines.map((/** @type {any} */ s) => html`<tr key=${s.name} class=${s.name === me ? 'you' : ''} data-testid=${`tour-line-${s.name}`}>
        <td>${s.rank}</td>
        <th scope="row">${s.name}${s.name === me ? ' (you)' : ''}${s.active ? '' : html` <span class="muted">(withdrawn)</span>`}</th>
        <td data-testid="points">${s.points}</td>${ties && html`<td>${s.buchholz}</td><td>${s.sonneborn_berger}</td>`}
        ${direct && html`<td>${s.direct ?? ''}</td>`}
        <td>${s.played}</td>${ties && html`<td>${s.byes}</td>`}
      </tr>`)}</tbody>
    </table><//>`}
    <p class="small muted">${t.table > 2 ? 'At a table of n players, place p scores n − p points (shared places share their points).'
      : 'A win is 1 point, a draw ½.'} ${ties ? `Ties are broken by Buchholz, then Sonneborn-Berger, then the games between the
      tied players; the standings count the rounds whose every game has ended.` : 'Ties are broken by the seed (rating, then who entered first).'}</p>
  </section>`;
}

/** The pairings, the current round first. @param {{t: any, me: string|null}} props */
function Pairings({ t, me }) {
  const rounds = [...new Set((t.pairings || []).map((/** @type {any} */ p) => p.round))].sort((a, b) => b - a);
  if (rounds.length === 0) return null;
  return html`<section class="panel" aria-labelledby="tour-pairings-h" data-testid="tour-pairings">
    <h2 id="tour-pairings-h">${t.format === 'arena' ? 'Games' : 'Pairings'}</h2>
    ${t.format === 'arena' ? html`<${ArenaGames} t=${t} me=${me} />`
      : rounds.map((r) => html`<${Round} key=${r} t=${t} round=${r} me=${me} />`)}
  </section>`;
}

// An arena pairs at every tick: its page lists the newest games, not every one.
const ARENA_SHOWN = 100;

/** An arena's games, those in play first, then the newest. @param {{t: any, me: string|null}} props */
function ArenaGames({ t, me }) {
  const games = [...t.pairings].sort((/** @type {any} */ a, /** @type {any} */ b) => (b.game ? 1 : 0) - (a.game ? 1 : 0)
    || b.round - a.round || a.board - b.board).slice(0, ARENA_SHOWN);
  return html`<ul class="games">${games.map((/** @type {any} */ p) => html`<${Board} key=${`${p.round}-${p.board}`} t=${t} p=${p} me=${me} />`)}</ul>`;
}

/** @param {{t: any, round: number, me: string|null}} props */
function Round({ t, round, me }) {
  const boards = t.pairings.filter((/** @type {any} */ p) => p.round === round).sort((/** @type {any} */ a, /** @type {any} */ b) => a.board - b.board);
  return html`<div class="tour-round" data-testid=${`tour-round-${round}`}>
    <h3>Round ${round}${round === t.round && t.status === 'running' ? ' (now)' : ''}</h3>
    <ul class="games">${boards.map((/** @type {any} */ p) => html`<${Board} key=${p.board} t=${t} p=${p} me=${me} />`)}</ul>
  </div>`;
}

/** One pairing: its board, players and points so far, a bye, the game in play.
 * @param {{t: any, p: any, me: string|null}} props */
function Board({ t, p, me }) {
  return html`<li class=${p.players.includes(me) ? 'you' : ''}>
    ${t.format !== 'arena' && html`<span class="muted">Board ${p.board}</span>`}
    ${p.players.length === 1
      ? html`<span><b>${p.players[0]}</b>: a bye</span>`
      : html`<span>${p.players.map((/** @type {string} */ n, /** @type {number} */ i) => html`${i ? ' – ' : ''}<b>${n}</b> ${p.points[i]}`)}</span>`}
    ${t.games > 1 && p.players.length > 1 && html`<span class="muted">${p.games_done} of ${t.games} games played</span>`}
    ${p.game ? html`<a class="button" href=${`#/game/${p.game}`}>${p.players.includes(me) ? 'Play' : 'Watch'} #${p.game}</a>` : ''}
  </li>`;
}
