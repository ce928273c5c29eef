// tournaments.js — the list of tournaments (#/tournaments): open, running and finished, each
// with its game, format, rounds or duration, entries, status and start, read from the HTTP API
// (GET /api/v1/tournaments, docs/server-protocol.md "Tournaments"); and the words every
// tournament page and the profile share (a format, a status, a time, a place, points), and the
// poll that keeps them fresh.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { paceText } from './paces.js';
import { count } from './seats.js';

/** @typedef {import('../client.js').Client} Client */

// How often an open page reads the list or a tournament again. The server pushes nothing of
// a tournament (its director records results once a second), so the pages read the HTTP API:
// every few seconds while the page is visible, at once when something of the player's own
// changes (tournament.js) and again once the director has had its second to record it, never
// while the tab is hidden.
export const POLL_MS = 5000;
export const DIRECTOR_MS = 1500;

/**
 * Read `url` now, again every POLL_MS while the page is visible and `changing` says the last
 * body read may still change (a finished tournament does not), and each time `kick` changes:
 * at once and DIRECTOR_MS later. Returns the body, the error (words), and a function that
 * reads again at once.
 * @param {string} url @param {(body: any) => boolean} changing @param {any} [kick]
 */
export function usePolled(url, changing, kick) {
  const [state, setState] = useState(/** @type {{body: any, error: string}} */ ({ body: null, error: '' }));
  const live = changing(state.body);
  const [asked, setAsked] = useState(0);
  const firstKick = useRef(true);
  useEffect(() => {
    if (firstKick.current) {
      firstKick.current = false;
      return undefined;
    }
    const timer = window.setTimeout(() => setAsked((n) => n + 1), DIRECTOR_MS);
    return () => window.clearTimeout(timer);
  }, [kick]);
  useEffect(() => {
    let gone = false;
    fetch(url)
      .then(async (r) => {
        const j = await r.json();
        if (!r.ok) throw new Error(j.message || j.error || `the server answered ${r.status}`);
        if (!gone) setState({ body: j, error: '' });
      })
      .catch((e) => { if (!gone) setState((s) => ({ body: s.body, error: String(e.message || e) })); });
    return () => { gone = true; };
  }, [url, asked, kick]);
  useEffect(() => {
    if (!live) return undefined;
    const timer = window.setInterval(() => { if (!document.hidden) setAsked((n) => n + 1); }, POLL_MS);
    const onShow = () => { if (!document.hidden) setAsked((n) => n + 1); };
    document.addEventListener('visibilitychange', onShow);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onShow);
    };
  }, [live, url]);
  return { ...state, again: () => setAsked((n) => n + 1) };
}

/** "Swiss, 5 rounds", "A set of 2 games", "Arena, 60 minutes". @param {any} t */
export function formatText(t) {
  if (t.format === 'swiss') return `Swiss, ${count(t.rounds, 'round')}`;
  if (t.format === 'arena') return `Arena, ${count(t.minutes, 'minute')}`;
  return `A set of ${count(t.games, 'game')}`;
}

/** What else a pairing plays, beyond the format: a set in each Swiss pairing, tables of more.
 * @param {any} t */
export function pairingText(t) {
  const parts = [];
  if (t.format !== 'sets' && t.games > 1) parts.push(`each pairing a set of ${t.games} games`);
  if (t.table > 2) parts.push(`tables of ${t.table}`);
  return parts.join(', ');
}

const STATUS_TEXT = { open: 'Open: join now', running: 'Running', over: 'Finished' };

/** @param {any} t */
export function statusText(t) {
  if (t.status === 'running' && t.format === 'swiss') return `Running: round ${t.round} of ${t.rounds}`;
  if (t.status === 'running' && t.ends_ms) return `Running until ${whenText(t.ends_ms)}`;
  return STATUS_TEXT[t.status] || t.status;
}

/** A time stamp (ms) as the reader's local date and time. @param {number} ms */
export function whenText(ms) {
  return new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

/** Points as players write them: "0", "½", "1½" (the server sends halves). @param {number} n */
export function pointsFigure(n) {
  const whole = Math.floor(n);
  return n - whole === 0.5 ? `${whole || ''}½` : String(n);
}

/** "1 point", "1½ points". @param {number} n */
export function points(n) {
  return `${pointsFigure(n)} ${n === 1 ? 'point' : 'points'}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st. @param {number} n */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th';
  return `${n}${suffix}`;
}

/** When it starts: a time set at creation (later than the creation itself), else its creator
 * starts it (the `start` message), and a started one shows when it was made.
 * @param {any} t */
export function startText(t) {
  if (t.starts_ms > t.created_ms) return `${t.status === 'open' ? 'starts ' : 'started '}${whenText(t.starts_ms)}`;
  return t.status === 'open' ? 'starts when its creator starts it' : 'started by its creator';
}

/**
 * A table that may be wider than a phone's screen: it scrolls sideways in a region the
 * keyboard can reach (tabindex 0, a region named apart from its section), as WCAG's reflow asks.
 * @param {{label: string, children: any}} props
 */
export function ScrollTable({ label, children }) {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label=${label}>${children}</div>`;
}

/** The game options a tournament's games are played under, in words ("tournament 1"); none:
 * "the game's own". @param {any} options */
export function optionsText(options) {
  const list = Object.entries(options || {});
  return list.length ? list.map(([k, v]) => `${k} ${v}`).join(', ') : 'as the game sets them';
}

/** @param {{client: Client}} props */
export function TournamentList({ client }) {
  const { body, error } = usePolled('/api/v1/tournaments', () => true);
  const user = client.state.user;
  const list = body ? body.tournaments || [] : [];
  return html`<div class="tournaments">
    <h1>Tournaments</h1>
    <p class="page-links">
      ${user && !user.guest
        ? html`<a class="button primary" href="#/tournaments/new" data-testid="tour-create-link">Create a tournament</a>`
        : html`<span class="muted" data-testid="tour-create-guest">Registered players create tournaments (register at the top
          of the page); anyone may join an unrated one.</span>`}
    </p>
    ${error && html`<p class="error" role="alert" data-testid="tour-list-error">The tournaments could not be read: ${error}</p>`}
    ${!body && !error && html`<p class="muted" role="status">Loading the tournaments…</p>`}
    ${body && html`
      <${TourSection} title="Open" id="tour-open" list=${list.filter((t) => t.status === 'open')}
        empty="No tournament is waiting for players." />
      <${TourSection} title="Running" id="tour-running" list=${list.filter((t) => t.status === 'running')}
        empty="No tournament is being played." />
      <${TourSection} title="Finished" id="tour-over" list=${list.filter((t) => t.status === 'over')}
        empty="None yet." />
      <p class="small muted">The newest 50 tournaments. The list reads the server again every few seconds.</p>`}
  </div>`;
}

/** One group of the list, as a table. @param {{title: string, id: string, list: any[], empty: string}} props */
function TourSection({ title, id, list, empty }) {
  return html`<section class="panel" aria-labelledby=${`${id}-h`} data-testid=${id}>
    <h2 id=${`${id}-h`}>${title}</h2>
    ${list.length === 0 ? html`<p class="muted">${empty}</p>` : html`<${ScrollTable} label=${`The table of ${title.toLowerCase()} tournaments`}>
      <table class="data tour-table">
        <caption class="sr-only">${title} tournaments</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Game</th><th scope="col">Format</th>
          <th scope="col">Players</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
        <tbody>${list.map((t) => html`<tr key=${t.id} data-testid=${`tour-row-${t.id}`}>
          <th scope="row"><a href=${`#/tournaments/${t.id}`}>${t.name}</a></th>
          <td>${t.title}<br /><span class="small muted">${paceText(t.clock)}${t.rated ? ', rated' : ''}</span></td>
          <td>${formatText(t)}${pairingText(t) ? html`<br /><span class="small muted">${pairingText(t)}</span>` : ''}</td>
          <td>${t.entries}</td>
          <td>${statusText(t)}</td>
          <td>${t.starts_ms > t.created_ms || t.status === 'open' ? startText(t) : `created ${whenText(t.created_ms)}`}</td>
        </tr>`)}</tbody>
      </table><//>`}
  </section>`;
}
