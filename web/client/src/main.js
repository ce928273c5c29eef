// main.js — the browser client's entry: one Client (store + transport), a hash router
// (#/ lobby, #/game/ID, #/replay/ID, #/review/ID[/SEAT], #/player/NAME, #/rules/GAME, #/learn/GAME (a guided first game), #/offline: the computer with
// no server, #/mine: my games, #/play: play now, #/challenge/NAME, #/tournaments[/ID|/new]),
// game and invitation links (?game=ID[&invite=CODE], confirmed on #/join/ID[/CODE]), the service worker for offline loading, and the
// page frame: header (with "My games" and its count), connection status, notices, challenges
// received, the screen-reader announcer, the title that counts what waits for you, and the
// alerts (a sound, a notification while hidden) of your turn.
import { html, render } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Client } from './client.js';
import { Lobby } from './ui/lobby.js';
import { Table } from './ui/table.js';
import { JoinPage } from './ui/join.js';
import { Replay } from './ui/replay.js';
import { Review } from './ui/review.js';
import { Profile } from './ui/profile.js';
import { Account } from './ui/account.js';
import { Offline } from './ui/offline.js';
import { RulesPage } from './ui/rules.js';
import { Learn } from './ui/learn.js';
import { MyGames } from './ui/mine.js';
import { PlayNow } from './ui/playnow.js';
import { ChallengeBanner, ChallengePage } from './ui/challenge.js';
import { TournamentList } from './ui/tournaments.js';
import { TournamentPage } from './ui/tournament.js';
import { CreateTournamentPage } from './ui/tournament-form.js';
import { armSound, playSound } from './sound.js';
import { listenToServiceWorker, notify } from './notify.js';
import { registerServiceWorker } from './offline/register.js';
import './app.css';

const client = new Client();

/** @returns {{name: string, arg: string}} */
function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  return { name: parts[0] || 'lobby', arg: decodeURIComponent(parts.slice(1).join('/')) };
}

function useRoute() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const on = () => setRoute(parseRoute());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

const CONN_TEXT = { online: 'Online', connecting: 'Connecting…', offline: 'Offline: reconnecting' };

/** @param {{client: Client}} props */
function App({ client }) {
  const [, setTick] = useState(0);
  useEffect(() => client.subscribe(() => setTick((n) => n + 1)), [client]);
  const route = useRoute();
  const s = client.state;
  const firstRoute = useRef(true);
  // A new page (not the first load) moves the focus to the main area, so keyboard and screen
  // reader users start there; a page that placed the focus itself (a game's move field) keeps it.
  useEffect(() => {
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [route.name, route.arg]);
  let page;
  if (route.name === 'game' && /^\d+$/.test(route.arg)) {
    page = html`<${Table} key=${route.arg} client=${client} id=${Number(route.arg)} />`;
  } else if (route.name === 'join' && /^\d+(\/[\w-]+)?$/.test(route.arg)) {
    const [game, invite] = route.arg.split('/');
    page = html`<${JoinPage} key=${route.arg} client=${client} id=${Number(game)} invite=${invite || null} />`;
  } else if (route.name === 'replay' && /^\d+$/.test(route.arg)) {
    page = html`<${Replay} key=${route.arg} client=${client} id=${Number(route.arg)} />`;
  } else if (route.name === 'review' && /^\d+(\/\d+)?$/.test(route.arg)) {
    const [game, seat] = route.arg.split('/');
    page = html`<${Review} key=${route.arg} client=${client} id=${Number(game)} seat=${seat === undefined ? null : Number(seat)} />`;
  } else if (route.name === 'learn' && /^[a-z-]+(\/\d+)?$/.test(route.arg)) {
    const [game, id] = route.arg.split('/');
    page = html`<${Learn} key=${route.arg} client=${client} game=${game} id=${id ? Number(id) : null} />`;
  } else if (route.name === 'rules') {
    page = html`<${RulesPage} key=${route.arg} client=${client} game=${route.arg} />`;
  } else if (route.name === 'offline') {
    page = html`<${Offline} />`;
  } else if (route.name === 'mine') {
    page = html`<${MyGames} client=${client} />`;
  } else if (route.name === 'play') {
    page = html`<${PlayNow} client=${client} />`;
  } else if (route.name === 'challenge') {
    page = html`<${ChallengePage} key=${route.arg} client=${client} to=${route.arg} />`;
  } else if (route.name === 'tournaments' && /^\d+$/.test(route.arg)) {
    page = html`<${TournamentPage} key=${route.arg} client=${client} id=${Number(route.arg)} />`;
  } else if (route.name === 'tournaments' && route.arg === 'new') {
    page = html`<${CreateTournamentPage} client=${client} />`;
  } else if (route.name === 'tournaments') {
    page = html`<${TournamentList} client=${client} />`;
  } else if (route.name === 'player' && route.arg) {
    page = html`<${Profile} key=${route.arg} client=${client} name=${route.arg} />`;
  } else {
    page = html`<${Lobby} client=${client} />`;
  }
  const waiting = client.waitingCount();
  useEffect(() => { document.title = pageTitle(waiting.games, waiting.challenges); }, [waiting.games, waiting.challenges]);
  const count = waiting.games + waiting.challenges;
  return html`
    <a class="skip" href="#main" onClick=${skipToMain}>Skip to the board</a>
    <header class="top">
      <a class="brand" href="#/">Ramparts</a>
      <nav aria-label="Main">
        <a href="#/">Lobby</a>
        <a href="#/play" data-testid="nav-play">Play now</a>
        <a href="#/mine" data-testid="nav-mine">My games${count ? html` <span class="count" data-testid="nav-mine-count"
          aria-hidden="true">${count}</span><span class="sr-only">, ${countWords(waiting.games, waiting.challenges)}</span>` : ''}</a>
        <a href="#/tournaments" data-testid="nav-tournaments">Tournaments</a>
        <a href="#/rules" data-testid="nav-rules">Rules</a>
        <a href="#/offline" data-testid="nav-offline">Play offline</a>
        ${s.user && html`<a href=${`#/player/${encodeURIComponent(s.user.name)}`}>Profile</a>`}
      </nav>
      <span class=${`conn conn-${s.conn}`} role="status" data-testid="conn">${CONN_TEXT[s.conn]}</span>
      <${Account} client=${client} />
    </header>
    ${s.notice && html`
      <div class="notice" role="alert">
        <span>${s.notice}</span>
        <button type="button" onClick=${() => client.dismissNotice()} aria-label="Dismiss">×</button>
      </div>`}
    ${route.name !== 'mine' && html`<${ChallengeBanner} client=${client} />`}
    <main id="main" tabindex="-1">${page}</main>
    <div class="sr-only" aria-live="assertive" data-testid="announce">${s.announce}</div>
  `;
}

/** The tab's title: "(2) Your turn — Ramparts" while games wait for you (and challenges). @param {number} games
 * @param {number} challenges */
export function pageTitle(games, challenges) {
  const n = games + challenges;
  if (!n) return 'Ramparts';
  const what = games && challenges ? 'Your turn and challenges' : games ? 'Your turn' : challenges === 1 ? 'Challenge' : 'Challenges';
  return `(${n}) ${what} — Ramparts`;
}

/** @param {number} games @param {number} challenges */
function countWords(games, challenges) {
  const parts = [];
  if (games) parts.push(`${games} waiting for you`);
  if (challenges) parts.push(`${challenges} ${challenges === 1 ? 'challenge' : 'challenges'}`);
  return parts.join(', ');
}

// The same alert (kind, game and ply) again within this time is not repeated (an update and
// a `mine` saying the same turn).
const ALERT_REPEAT_MS = 3000;
/** @type {Map<string, number>} */
const lastAlert = new Map();

/** An alert: its sound, and a desktop notification while the tab is hidden (a move that is
 * not your turn yet only sounds). @param {import('./client.js').Alert} a */
function onAlert(a) {
  const key = `${a.kind}:${a.game ?? ''}:${a.ply ?? ''}`;
  const now = performance.now();
  if (lastAlert.has(key) && now - /** @type {number} */ (lastAlert.get(key)) < ALERT_REPEAT_MS) return;
  lastAlert.set(key, now);
  playSound(a.kind);
  if (a.kind !== 'move') notify(a.title, a.body, a.hash, a.game ? `game-${a.game}` : a.kind).catch(() => {});
}

/** The skip link lands on a table's board (its first card or square is then one Tab away),
 * elsewhere on the page's main area. @param {Event} e */
function skipToMain(e) {
  e.preventDefault();
  const target = document.getElementById('board') || document.getElementById('main');
  if (target instanceof HTMLElement) target.focus();
}

/** A game or invitation link (?game=ID&invite=CODE, docs/server-protocol.md) shows what the
 * game is and asks before taking a seat (#/join, ui/join.js; issue 49: it seated the visitor). */
function followInvitation() {
  const q = new URLSearchParams(location.search);
  const game = Number(q.get('game'));
  if (!Number.isInteger(game) || game < 1) return;
  const invite = q.get('invite');
  const code = invite && /^[\w-]+$/.test(invite) ? `/${invite}` : '';
  history.replaceState(null, '', `/#/join/${game}${code}`);
}

client.onAlert = onAlert;
armSound();
listenToServiceWorker();
client.start();
followInvitation();
registerServiceWorker();
const root = /** @type {HTMLElement} */ (document.getElementById('app'));
root.textContent = '';
render(html`<${App} client=${client} />`, root);
