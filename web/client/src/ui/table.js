// table.js — the page of one game: opens it on the server, and lays out the seats, the game's
// own board (one module per game, games/index.js), the status line, the notation input, the
// controls, the event log and chat. Everything shown comes from the game's store entry.
import { Component } from 'preact';
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import { boardFor } from '../games/index.js';
import { GenericBoard } from '../games/generic.js';
import { Chat, Controls, EventLog, MoveInput, SeatsBar } from './parts.js';

/** @param {{client: import('../client.js').Client, id: number}} props */
export function Table({ client, id }) {
  useEffect(() => {
    client.openGame(id);
    return () => client.closeGame(id);
  }, [client, id]);
  const g = client.state.games[id];
  const focused = useRef(false);
  // Entering a game you play puts the cursor in the move field (once), unless the focus is
  // already somewhere on purpose.
  useEffect(() => {
    if (focused.current || !g || g.snap.status !== 'live' || g.snap.you === null) return;
    const input = document.getElementById('move-text');
    const idle = document.activeElement === document.body || document.activeElement === document.getElementById('main');
    if (input && idle) {
      input.focus({ preventScroll: true }); // fails while the field is disabled (not your turn yet): tried again later
      focused.current = document.activeElement === input;
    }
  });
  if (!g) return html`<p class="loading" role="status">Opening game ${id}…</p>`;
  const snap = g.snap;
  const Board = boardFor(snap.type);
  const live = snap.status === 'live';
  const myTurn = live && snap.you !== null && snap.to_move === snap.you && !!snap.legal;
  const interactive = myTurn && !g.pending;
  /** @param {import('../client.js').LegalMove|string} m */
  const send = (m) => client.move(id, m);
  return html`<div class=${`table-page game-${snap.type}`} data-testid="table" data-ply=${snap.ply}
      data-status=${snap.status} data-my-turn=${interactive ? 'yes' : 'no'}>
    <header class="table-head">
      <h1>${snap.title} <span class="muted">#${snap.game}</span></h1>
      <${SeatsBar} g=${g} />
      <p class="status" data-testid="status">${statusLine(g, interactive)}</p>
    </header>
    ${snap.status === 'open' && html`<${Waiting} client=${client} g=${g} />`}
    <div class="table-body">
      <section class="board-area" id="board" tabindex="-1" aria-labelledby="board-h">
        <h2 id="board-h" class="sr-only">Board</h2>
        ${snap.view && html`<${BoardGuard} key=${`${snap.ply}-${snap.v}`} Board=${Board} view=${snap.view}
          legal=${interactive ? snap.legal : null} you=${snap.you} seats=${snap.seats}
          send=${send} status=${snap.status} />`}
      </section>
      <aside class="side">
        ${snap.you !== null && live && html`<${MoveInput} legal=${interactive ? snap.legal : null}
          send=${send} disabled=${!interactive} hint=${g.hint} />`}
        ${g.error && html`<p class="error" role="alert" data-testid="move-error">${g.error}</p>`}
        <${Controls} g=${g} client=${client} />
        <${EventLog} g=${g} />
        <${Chat} g=${g} client=${client} />
      </aside>
    </div>
  </div>`;
}

/** @param {import('../client.js').GameState} g @param {boolean} interactive */
function statusLine(g, interactive) {
  const snap = g.snap;
  if (snap.status === 'over' || snap.status === 'aborted') return snap.result ? snap.result.text : 'The game is over.';
  if (snap.status === 'open') return 'Waiting for players.';
  if (g.pending) return `Sending ${g.pending.move}…`;
  if (interactive) return 'Your turn.';
  const s = snap.seats[snap.to_move];
  return s ? `${s.seat_name} to play.` : '';
}

/** @param {{client: import('../client.js').Client, g: import('../client.js').GameState}} props */
function Waiting({ client, g }) {
  const snap = g.snap;
  const seated = snap.you !== null && snap.you !== undefined;
  const invites = snap.invites || {};
  const openSeats = snap.seats.filter((s) => s.kind === 'open');
  return html`<div class="panel waiting">
    ${!seated && openSeats.length > 0 && html`<button type="button" class="primary" data-testid="join"
      onClick=${() => client.request({ t: 'join', game: snap.game })}>Take a seat</button>`}
    ${Object.entries(invites).map(([seat, code]) => html`<p>Invitation for ${snap.seats[Number(seat)].seat_name}:
      <input readonly class="invite-link" value=${`${location.origin}/?game=${snap.game}&invite=${code}`}
        aria-label="Invitation link" onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} /></p>`)}
  </div>`;
}

/**
 * A game's board, or, should it fail on a view it does not understand (a server newer than
 * the client), the plain table of the view and the legal moves, so the game stays playable.
 */
export class BoardGuard extends Component {
  constructor() {
    super();
    this.state = { failed: false };
  }

  componentDidCatch(/** @type {any} */ error) {
    console.warn('board failed; showing the plain table', error);
    this.setState({ failed: true });
  }

  render(/** @type {any} */ props) {
    const { Board, ...rest } = props;
    return this.state.failed ? html`<${GenericBoard} ...${rest} />` : html`<${Board} ...${rest} />`;
  }
}
