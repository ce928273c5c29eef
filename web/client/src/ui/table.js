// table.js — the page of one game: opens it on the server, and lays out the seats, the game's
// own board (one module per game, games/index.js), the status line, the notation input, the
// controls, the event log and chat. Everything shown comes from the game's store entry.
import { Component } from 'preact';
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { boardFor } from '../games/index.js';
import { GenericBoard } from '../games/generic.js';
import { Chat, Controls, EventLog, MoveInput, SeatsBar } from './parts.js';
import { ExplainLine, Explanations, RulesBody, explainedKey } from './rules.js';
import { Coach, CoachWarning, coachOn, lessonsDone, noteLesson, warningBefore } from './coach.js';
import { MovePreview, useCoachOutcomes, usePreview } from './preview.js';
import { readSetting, writeSetting } from './settings.js';
import { BrowsingLine, MoveList, frameAt, useBrowse } from './movelist.js';
import { outcomeWords } from '../outcome.js';
import { speak } from '../games/speech.js';
import { tournamentGames } from '../client.js';

/** A game's table; `learn` adds the coach of a guided first game (coach.js).
 * @param {{client: import('../client.js').Client, id: number, learn?: boolean}} props */
export function Table({ client, id, learn = false }) {
  useEffect(() => {
    client.openGame(id);
    return () => client.closeGame(id);
  }, [client, id]);
  const g = client.state.games[id];
  const focused = useRef(false);
  const [pointed, setPointed] = useState(/** @type {string|null} */ (null));
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
  // The legal move pointed at (board or move field), previewed from the seat's own view.
  const [previewed, setPreviewed] = useState(/** @type {string|null} */ (null));
  const preview = usePreview(g && g.snap.legal && !g.pending ? g.snap : null, previewed);
  useLowTime(client, g);
  // The move list's ply shown (null: the game as it stands).
  const [at, go] = useBrowse(g ? g.history : [], !!g && g.snap.status === 'live');
  // The guided game's coach: on or off (kept in this browser), and its warning before a move
  // that loses the game, shown once for that move at that ply.
  const [coaching, setCoaching] = useState(() => learn && coachOn());
  const [warning, setWarning] = useState(/** @type {{words: string, move: any, ply: number}|null} */ (null));
  const coachSnap = learn && coaching && g && g.snap.you !== null && g.snap.to_move === g.snap.you && !g.pending ? g.snap : null;
  const outcomes = useCoachOutcomes(coachSnap);
  if (!g) return html`<p class="loading" role="status">Opening game ${id}…</p>`;
  const snap = g.snap;
  const Board = boardFor(snap.type);
  const live = snap.status === 'live';
  const past = at === null ? null : frameAt(g.history, at);
  const myTurn = live && snap.you !== null && snap.to_move === snap.you && !!snap.legal;
  const interactive = myTurn && !g.pending && !past;
  /** @type {import('./coach.js').CoachGame} */
  const coached = { type: snap.type, title: snap.title, legal: snap.legal, view: snap.view, you: snap.you, ply: snap.ply,
    status: snap.status, hint: g.hint, hintBusy: g.hintBusy, askHint: () => client.hint(snap.game, true), outcomes };
  /** @param {import('../client.js').LegalMove|string} m */
  const send = (m) => {
    const entry = typeof m === 'string' ? (snap.legal || []).find((x) => x.text.toLowerCase() === m.trim().toLowerCase()) : m;
    const words = learn && coaching ? warningBefore(coached, entry, warning) : null;
    if (words) {
      setWarning({ words, move: entry, ply: snap.ply });
      return;
    }
    setWarning(null);
    if (learn && entry) noteLesson(id, snap.type, entry, snap.view);
    client.move(id, m);
  };
  const shownWarning = warning && warning.ply === snap.ply && interactive ? warning : null;
  return html`<div class=${`table-page game-${snap.type}`} data-testid="table" data-ply=${snap.ply}
      data-status=${snap.status} data-my-turn=${interactive ? 'yes' : 'no'} data-queued=${g.queued || 0}
      data-shown-ply=${past ? past.ply : snap.ply}>
    <header class="table-head">
      <h1>${snap.title} <span class="muted">#${snap.game}</span></h1>
      <${TournamentLink} game=${snap.game} />
      <${SeatsBar} g=${g} />
      <p class="status" data-testid="status">${statusLine(g, myTurn && !g.pending)}</p>
    </header>
    ${(snap.you === null || snap.you === undefined) && html`<p class="watching" data-testid="spectating">
      <b>You are watching</b> this game as a spectator: you see what every spectator sees, and no one's hidden cards.</p>`}
    ${snap.status === 'open' && html`<${Waiting} client=${client} g=${g} />`}
    <div class="table-body" onPointerOver=${(/** @type {Event} */ e) => previewAt(e, snap.legal, setPreviewed)}
      onFocusIn=${(/** @type {Event} */ e) => previewAt(e, snap.legal, setPreviewed)}>
      <section class="board-area" id="board" tabindex="-1" aria-labelledby="board-h"
        onMouseOver=${(/** @type {Event} */ e) => setPointed(explainedKey(e.target))}
        onFocusIn=${(/** @type {Event} */ e) => setPointed(explainedKey(e.target))}>
        <h2 id="board-h" class="sr-only">Board</h2>
        ${past && html`<${BrowsingLine} at=${past.ply} last=${snap.ply} />`}
        ${past ? html`<${BoardGuard} key=${`past-${past.ply}`} Board=${Board} view=${past.view}
          legal=${null} you=${snap.you} seats=${snap.seats} send=${() => {}} status=${'live'}
          last=${past.ply > 0 ? { seat: past.seat ?? null, events: past.events || [] } : null} />`
          : snap.view && html`<${BoardGuard} key=${`${snap.ply}-${snap.v}`} Board=${Board} view=${snap.view}
          legal=${interactive ? snap.legal : null} you=${snap.you} seats=${snap.seats}
          send=${send} status=${snap.status} last=${g.last} />`}
        <${ExplainLine} game=${snap.type} keyName=${pointed} />
        <${Explanations} game=${snap.type} />
      </section>
      <aside class="side">
        ${learn && snap.you !== null && html`<${Coach} c=${coached} interactive=${interactive} done=${lessonsDone(id)} on=${coaching} setOn=${setCoaching} again=${true} />`}
        <${CoachWarning} warning=${shownWarning} onGo=${() => shownWarning && send(shownWarning.move)} onBack=${() => setWarning(null)} />
        ${snap.you !== null && live && html`<${MoveInput} legal=${interactive ? snap.legal : null}
          send=${send} disabled=${!interactive} hint=${g.hintByCoach ? null : g.hint} onPoint=${setPreviewed} why=${past ? 'a past move is shown' : 'not your turn'} />`}
        ${interactive && html`<${MovePreview} type=${snap.type} preview=${preview} />`}
        ${g.error && html`<p class="error" role="alert" data-testid="move-error">${g.error}</p>`}
        <${Controls} g=${g} client=${client} />
        ${snap.you !== null && live && html`<${ForcedMoves} legal=${interactive ? snap.legal : null} send=${send} />`}
        ${snap.status !== 'open' && html`<${MoveList} type=${snap.type} frames=${g.history} at=${at} go=${go} live=${live}
          loading=${g.historyLoading} note=${g.historyError ? `The moves could not be loaded: ${g.historyError}` : ''}
          seatName=${(/** @type {number} */ seat) => (snap.seats[seat] ? snap.seats[seat].seat_name : `Seat ${seat + 1}`)} />`}
        ${snap.status === 'over' && html`<p class="small"><a href=${`#/review/${snap.game}${snap.you !== null && snap.you !== undefined ? `/${snap.you}` : ''}`}
          data-testid="review-link">Review this game</a>: where each move gained or lost winning chances.</p>`}
        <${EventLog} g=${g} />
        <details class="panel rules-panel" data-testid="table-rules">
          <summary>Rules of ${snap.title}</summary>
          <p class="small"><a href=${`#/rules/${snap.type}`}>On a page of their own</a></p>
          <${RulesBody} game=${snap.type} title=${snap.title} level=${3} drawn=${false} />
        </details>
        <${Chat} g=${g} client=${client} />
      </aside>
    </div>
  </div>`;
}

// A live clock under this is low (clock.js shows it so): the player hears it once.
const LOW_TIME_MS = 20000;

/** The low-time alert: once when the player's own running live clock falls under
 * LOW_TIME_MS, again only after it has been above (an increment).
 * @param {import('../client.js').Client} client @param {import('../client.js').GameState|undefined} g */
function useLowTime(client, g) {
  const warned = useRef(false);
  const snap = g ? g.snap : null;
  const clock = snap ? snap.clock : null;
  const mineRunning = !!snap && snap.status === 'live' && clock && clock.kind === 'live' && snap.you !== null &&
    snap.you !== undefined && clock.running === snap.you;
  useEffect(() => {
    if (!mineRunning || !g) return undefined;
    const check = () => {
      const left = clock.remaining_ms[snap.you] - (performance.now() - g.receivedAt);
      if (left >= LOW_TIME_MS) warned.current = false;
      else if (!warned.current) {
        warned.current = true;
        client.onAlert({ kind: 'low', game: snap.game, title: `Low time: ${snap.title} #${snap.game}`,
          body: 'Less than 20 seconds left on your clock.', hash: `#/game/${snap.game}` });
      }
    };
    check();
    const timer = window.setInterval(check, 500);
    return () => window.clearInterval(timer);
  }, [mineRunning, g && g.receivedAt]);
}

/** A legal move under the pointer or the focus (an element with data-move) becomes the one
 * previewed. @param {Event} e @param {any[]|undefined} legal @param {(m: string) => void} set */
function previewAt(e, legal, set) {
  const el = e.target instanceof Element ? e.target.closest('[data-move]') : null;
  const text = el && el.getAttribute('data-move');
  if (text && legal && legal.some((m) => m.text === text)) set(text);
}

/** @param {import('../client.js').GameState} g @param {boolean} interactive */
function statusLine(g, interactive) {
  const snap = g.snap;
  if (snap.status === 'over' || snap.status === 'aborted') return html`<${ResultBanner} snap=${snap} why=${endReason(snap, g.last)} />`;
  if (snap.status === 'open') return 'Waiting for players.';
  if (g.pending) return `Sending ${g.pending.move}…`;
  if (interactive) return 'Your turn.';
  const s = snap.seats[snap.to_move];
  return s ? `${s.seat_name} to play.` : '';
}

/**
 * How a finished game ended, in the table's status line above the board (which may still show
 * the last position's turn): the player's own outcome first ("You won"), then the server's
 * words ("Red wins: Blue resigned"), then, for an end by the rules, why as the game told it
 * ("Red captured a third Legion fort and wins at once (RW-18).").
 * @param {{snap: any, why: string|null}} props
 */
function ResultBanner({ snap, why }) {
  const result = snap.result;
  const text = result ? result.text : snap.status === 'aborted' ? 'The game was aborted.' : 'The game is over.';
  const mine = ownOutcome(snap);
  return html`<span class="result-banner" data-testid="result">
    ${mine && html`<b data-testid="result-mine">${mine}</b> `}<span>${text}</span>${why && html`<span data-testid="result-why">: ${why}</span>`}</span>`;
}

/** Why a game ended by the rules: the game's own sentence for it (its `game-over` event, which
 * the last move carries, in the words of the log), without its "Game over:". Null for any
 * other end (a resignation, time, an agreement say why in the result's text already).
 * @param {any} snap @param {import('../games/last-move.js').LastMove|null} last */
function endReason(snap, last) {
  if (!snap.result || snap.result.reason !== 'rules' || !last) return null;
  const e = (last.turn || [last.events]).flat().find((x) => x.kind === 'game-over' && typeof x.text === 'string');
  return e ? speak(snap.type, e.text).replace(/^Game over:\s*/, '') : null;
}

/** "You won", "You lost", "Drawn" or "You shared the win", for a seated player. @param {any} snap */
export function ownOutcome(snap) {
  const seated = snap.you !== null && snap.you !== undefined;
  const returns = snap.result && snap.result.returns;
  if (!seated || !returns || snap.status !== 'over') return null;
  return outcomeWords(returns, snap.you);
}

// How long a forced move waits before it plays itself: long enough to be seen.
const FORCED_DELAY_MS = 700;

/**
 * The option to have a forced move (the only legal one, such as Walls and Armies' "Leave it"
 * with nothing to counter with) play itself after a moment, so it neither waits for a click nor
 * burns the clock; on unless the player turned it off (kept in this browser). A click first
 * cancels the timer, as the table then stops being interactive.
 * @param {{legal: import('../client.js').LegalMove[]|null, send: (m: import('../client.js').LegalMove) => void}} props
 */
function ForcedMoves({ legal, send }) {
  const [auto, setAuto] = useState(() => readAutoForced());
  const forced = auto && legal && legal.length === 1 ? legal[0] : null;
  useEffect(() => {
    if (!forced) return undefined;
    const timer = setTimeout(() => send(forced), FORCED_DELAY_MS);
    return () => clearTimeout(timer);
  }, [forced]);
  /** @param {any} e */
  const toggle = (e) => {
    const on = e.currentTarget.checked;
    setAuto(on);
    writeSetting('autoForced', on);
  };
  return html`<p class="auto-forced small">
    <label><input type="checkbox" checked=${auto} onChange=${toggle} data-testid="auto-forced" />
      Play forced moves for me</label>
    ${forced && html` <span class="muted" role="status" data-testid="forced-pending">Only one move: ${forced.text}</span>`}</p>`;
}

function readAutoForced() {
  return readSetting('autoForced');
}

/**
 * While a game waits for players: who may take each seat (anyone from the lobby, whoever has
 * the invitation link, the person a rematch keeps it for), the invitation links for the
 * creator, and a seat for a visitor.
 * @param {{client: import('../client.js').Client, g: import('../client.js').GameState}} props
 */
function Waiting({ client, g }) {
  const snap = g.snap;
  const seated = snap.you !== null && snap.you !== undefined;
  const invites = snap.invites || {};
  const openSeats = snap.seats.filter((s) => s.kind === 'open');
  return html`<div class="panel waiting">
    ${!seated && openSeats.length > 0 && html`<button type="button" class="primary" data-testid="join"
      onClick=${() => client.request({ t: 'join', game: snap.game })}>Take a seat</button>`}
    <p class="waiting-head">Who may join:</p>
    <ul class="who-may-join" data-testid="who-may-join">${snap.seats.map((s) => html`<li key=${s.seat}>
      <b>${s.seat_name}</b>: ${whoMayJoin(s, snap.you)}
      ${invites[s.seat] && html`<br /><input readonly class="invite-link" value=${`${location.origin}/?game=${snap.game}&invite=${invites[s.seat]}`}
        aria-label=${`Invitation link for ${s.seat_name}`} onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />`}</li>`)}</ul>
  </div>`;
}

/** Who a seat is for, in words. @param {any} s @param {number|null} you */
function whoMayJoin(s, you) {
  switch (s.kind) {
    case 'human': return s.seat === you ? `you (${s.name})` : `${s.name} has taken it`;
    case 'ai': return `the computer (${s.level})`;
    case 'open': return 'open: anyone may take it from the lobby';
    case 'invite': return 'by invitation: whoever opens its link';
    case 'reserved': return `kept for ${s.name}`;
    default: return s.kind;
  }
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

/** A game this tab was paired in by a tournament links back to it (its standings, the next
 * game). @param {{game: number}} props */
function TournamentLink({ game }) {
  const tournament = tournamentGames()[game];
  if (!tournament) return null;
  return html`<p class="small tour-back"><a href=${`#/tournaments/${tournament}`}
    data-testid="table-tournament">A tournament game: the standings and your next game</a></p>`;
}
