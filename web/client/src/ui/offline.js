// offline.js — "Play the computer" with no server (#/offline): the engine runs in the browser
// as WebAssembly in a Web Worker (offline/worker.js), so it works on a train or from a page
// installed on the device. A setup form (game, seats, your seat, the computer's level), then
// the game's own board with the seat's view only, the move field, hint, fair undo as in the
// terminal, resign, the record to download (which `ramparts replay` reads), resume after
// a reload, and the guided game's coach (coach.js: words, warnings, an off switch), driven by
// the engine's hint and previews in the worker.
import { html } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { OfflineSession } from '../offline/session.js';
import { boardFor } from '../games/index.js';
import { BoardGuard } from './table.js';
import { Explanations } from './rules.js';
import { EventLog, MoveInput } from './parts.js';
import { SeatMark, seatClass } from './seats.js';
import { BrowsingLine, MoveList, frameAt, useBrowse } from './movelist.js';
import { ReviewView } from './review.js';
import { Coach, CoachWarning, coachOn, warningBefore } from './coach.js';
import { lessonsOf } from '../rules/learn.js';
import { GAMES_WITH_OUTCOMES } from '../games/outcomes.js';

const LEVELS = ['random', 'greedy', 'beginner', 'easy', 'medium', 'hard'];

/** @type {OfflineSession|null} one session for the page's lifetime (the worker keeps the game) */
let session = null;

export function Offline() {
  if (!session) session = new OfflineSession();
  const s = /** @type {OfflineSession} */ (session);
  const [, setTick] = useState(0);
  useEffect(() => s.subscribe(() => setTick((n) => n + 1)), [s]);
  const st = s.state;
  if (st.failed) return html`<p class="error" role="alert">${st.failed}</p>`;
  if (!st.games) return html`<p class="loading" role="status">Starting the offline engine…</p>`;
  if (st.snap && st.review) return html`<${OfflineReview} s=${s} />`;
  return st.snap ? html`<${OfflineTable} s=${s} />` : html`<${Setup} s=${s} />`;
}

/** The review of the human's moves, over the frames the worker sent the human's seat.
 * @param {{s: OfflineSession}} props */
function OfflineReview({ s }) {
  const st = s.state;
  const info = /** @type {import('../offline/session.js').Snapshot} */ (st.snap).info;
  return html`<${ReviewView} type=${info.game} seats=${info.seats} frames=${st.frames} review=${st.review}
    seat=${/** @type {import('../offline/session.js').Snapshot} */ (st.snap).you} heading=${html`Review: ${info.title} <span class="muted">offline</span>`}
    onBack=${() => s.closeReview()} />`;
}

/** @param {{s: OfflineSession}} props */
function Setup({ s }) {
  const games = s.state.games || [];
  const [gameId, setGameId] = useState(games[0].id);
  const game = games.find((g) => g.id === gameId) || games[0];
  const [players, setPlayers] = useState(game.default_players);
  const [human, setHuman] = useState(0);
  const [level, setLevel] = useState('medium');
  const saved = s.saved();
  const seats = Math.min(Math.max(players, game.min_players), game.max_players);
  /** @param {Event} e */
  function submit(e) {
    e.preventDefault();
    s.start(game.id, seats, Math.min(human, seats - 1), level);
  }
  return html`<div class="offline-setup">
    <section class="panel" aria-labelledby="offline-h">
      <h1 id="offline-h">Play the computer, offline</h1>
      <p class="muted">The game runs in this browser: no server is needed, and once this page
        has loaded it works without a connection.</p>
      ${s.state.error && html`<p class="error" role="alert">${s.state.error}</p>`}
      ${saved && html`<p>A game of ${titleOf(games, saved.game)} is saved here.
        <button type="button" class="primary" data-testid="offline-resume" onClick=${() => s.resume()}>Resume it</button></p>`}
      <form onSubmit=${submit} class="offline-form">
        <label>Game <select data-testid="offline-game" value=${game.id}
          onChange=${(/** @type {any} */ e) => { setGameId(e.currentTarget.value); setHuman(0); const g = games.find((x) => x.id === e.currentTarget.value); if (g) setPlayers(g.default_players); }}>
          ${games.map((g) => html`<option value=${g.id}>${g.title}</option>`)}
        </select></label>
        ${game.max_players > game.min_players && html`<label>Players <select data-testid="offline-players" value=${seats}
          onChange=${(/** @type {any} */ e) => setPlayers(Number(e.currentTarget.value))}>
          ${range(game.min_players, game.max_players).map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>`}
        <label>You play <select data-testid="offline-seat" value=${Math.min(human, seats - 1)}
          onChange=${(/** @type {any} */ e) => setHuman(Number(e.currentTarget.value))}>
          ${range(0, seats - 1).map((n) => html`<option value=${n}>${game.seat_names[n]}</option>`)}
        </select></label>
        <label>Computer <select data-testid="offline-level" value=${level}
          onChange=${(/** @type {any} */ e) => setLevel(e.currentTarget.value)}>
          ${LEVELS.map((l) => html`<option value=${l}>${l}</option>`)}
        </select></label>
        <button type="submit" class="primary" data-testid="offline-start">Start</button>
      </form>
    </section>
  </div>`;
}

/** @param {number} lo @param {number} hi */
function range(lo, hi) {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** @param {any[]} games @param {string} id */
function titleOf(games, id) {
  const g = games.find((x) => x.id === id);
  return g ? g.title : id;
}

/** @param {{s: OfflineSession}} props */
function OfflineTable({ s }) {
  const st = s.state;
  const snap = /** @type {import('../offline/session.js').Snapshot} */ (st.snap);
  const info = snap.info;
  const Board = boardFor(info.game);
  // The move list's ply shown (null: the game as it stands); the board takes no move meanwhile.
  const [at, go] = useBrowse(st.frames, !info.over);
  const past = at === null ? null : frameAt(st.frames, at);
  const myTurn = !info.over && info.to_move === snap.you && snap.legal.length > 0 && !st.pending && !past;
  const seats = info.seats.map((/** @type {any} */ x) => ({ ...x, kind: x.who === 'human' ? 'human' : 'ai', level: x.who }));
  // The log speaks the game's cards as the online log does ("Cannons 4", not "cannons-4").
  const g = useMemo(() => ({ log: st.log, snap: { seats, type: info.game } }), [st.log, info]);
  const [confirmResign, setConfirmResign] = useState(false);
  const [coaching, setCoaching] = useState(coachOn);
  const [warning, setWarning] = useState(/** @type {{words: string, move: any, ply: number}|null} */ (null));
  // undefined while the worker works on them (coach.js waits), null where none are needed.
  const wanted = coaching && myTurn && GAMES_WITH_OUTCOMES.has(info.game);
  const outcomes = !wanted ? null : st.outcomes && st.outcomes.ply === info.moves ? st.outcomes.outcomes : undefined;
  // The coach's warnings read the engine's outcomes in some games: asked once per turn.
  useEffect(() => {
    if (wanted && outcomes === undefined) s.askOutcomes();
  }, [coaching, myTurn, info.moves]);
  /** @type {import('./coach.js').CoachGame} */
  const coached = { type: info.game, title: info.title, legal: snap.legal, view: snap.view, you: snap.you, ply: info.moves,
    status: info.over ? 'over' : 'live', hint: st.hintByCoach ? st.hint : null, hintBusy: st.hintBusy, askHint: () => s.hint(true), outcomes };
  /** A move of the board or the move field, after the coach's warning if it has one (once).
   * @param {import('../client.js').LegalMove|string} m */
  const send = (m) => {
    const entry = typeof m === 'string' ? snap.legal.find((x) => x.text.toLowerCase() === m.trim().toLowerCase()) : m;
    const words = coaching ? warningBefore(coached, entry, warning) : null;
    setWarning(words ? { words, move: entry, ply: info.moves } : null);
    if (words) return;
    if (entry) s.noteLessons(new Set([...st.lessons, ...lessonsOf(info.game, entry, snap.view)]));
    s.move(m);
  };
  const shownWarning = warning && warning.ply === info.moves && myTurn ? warning : null;
  const recordUrl = useMemo(() => URL.createObjectURL(new Blob([snap.record], { type: 'text/plain' })), [snap.record]);
  useEffect(() => () => URL.revokeObjectURL(recordUrl), [recordUrl]);
  const status = info.over ? st.log.length && st.log[st.log.length - 1].kind === 'game-over' ? st.log[st.log.length - 1].text : 'The game is over.'
    : myTurn ? 'Your turn.' : `${info.seats[info.to_move].seat_name} (computer) is thinking…`;
  return html`<div class=${`table-page game-${info.game}`} data-testid="table" data-offline="yes" data-ply=${info.moves}
      data-status=${info.over ? 'over' : 'live'} data-my-turn=${myTurn ? 'yes' : 'no'} data-queued=${st.queued}
      data-thinking=${st.thinking ? 'yes' : 'no'} data-shown-ply=${past ? past.ply : info.moves}>
    <header class="table-head">
      <h1>${info.title} <span class="muted">offline</span></h1>
      <ol class="seats" aria-label="Players">${seats.map((/** @type {any} */ x) => html`<li key=${x.seat}
        class=${`seat ${seatClass(x.seat, x.seat_name)}${!info.over && info.to_move === x.seat ? ' to-move' : ''}${x.seat === snap.you ? ' me' : ''}`}
        data-testid=${`seat-${x.seat}`}>
        <${SeatMark} seat=${x.seat} name=${x.seat_name} />
        <span class="seat-name">${x.seat_name}</span>
        <span class="seat-who">${x.seat === snap.you ? 'you' : `Computer (${x.who})`}</span>
      </li>`)}</ol>
      <p class="status" data-testid="status" role="status">${status}</p>
    </header>
    <div class="table-body">
      <section class="board-area" id="board" tabindex="-1" aria-labelledby="board-h">
        <h2 id="board-h" class="sr-only">Board</h2>
        ${past && html`<${BrowsingLine} at=${past.ply} last=${info.moves} />`}
        ${past ? html`<${BoardGuard} key=${`past-${past.ply}`} Board=${Board} view=${past.view} legal=${null} you=${snap.you}
          seats=${seats} send=${() => {}} status=${'live'}
          last=${past.ply > 0 && past.events && past.events.length ? { seat: past.seat ?? null, events: past.events } : null} />`
        : html`<${BoardGuard} key=${`${info.moves}-${st.log.length}`} Board=${Board} view=${snap.view}
          legal=${myTurn ? snap.legal : null} you=${snap.you} seats=${seats}
          send=${send} status=${info.over ? 'over' : 'live'}
          last=${st.last} />`}
        <${Explanations} game=${info.game} />
      </section>
      <aside class="side">
        <${Coach} c=${coached} interactive=${myTurn} done=${st.lessons} on=${coaching} setOn=${setCoaching} heading=${'Coach'} />
        <${CoachWarning} warning=${shownWarning} onGo=${() => shownWarning && send(shownWarning.move)} onBack=${() => setWarning(null)} />
        ${!info.over && html`<${MoveInput} legal=${myTurn ? snap.legal : null}
          send=${send} disabled=${!myTurn} hint=${st.hintByCoach ? null : st.hint}
          why=${past ? 'a past move is shown' : 'not your turn'} />`}
        ${st.error && html`<p class="error" role="alert" data-testid="move-error">${st.error}</p>`}
        <div class="controls" role="group" aria-label="Game actions">
          ${!info.over && html`<button type="button" data-testid="hint-btn" disabled=${!myTurn || st.hintBusy}
            onClick=${() => s.hint()}>${st.hintBusy ? 'Thinking…' : 'Hint'}</button>`}
          ${!info.over && html`<button type="button" data-testid="offline-undo" disabled=${!myTurn || info.moves === 0}
            onClick=${() => s.undo()}>Undo</button>`}
          ${!info.over && (confirmResign
            ? html`<span class="offer">Resign? <button type="button" class="danger" data-testid="resign-yes"
                onClick=${() => { setConfirmResign(false); s.resign(); }}>Yes, resign</button>
                <button type="button" onClick=${() => setConfirmResign(false)}>No</button></span>`
            : html`<button type="button" data-testid="resign" onClick=${() => setConfirmResign(true)}>Resign</button>`)}
          <a class="button" href=${recordUrl} download=${`${info.game}-offline.record`} data-testid="offline-record">Record</a>
          <button type="button" data-testid="offline-new" onClick=${() => s.leave()}>New game</button>
          ${info.over && html`<button type="button" data-testid="offline-review" disabled=${st.reviewing}
            onClick=${() => s.review()}>${st.reviewing ? 'Reviewing…' : 'Review'}</button>`}
        </div>
        <${MoveList} type=${info.game} frames=${st.frames} at=${at} go=${go} live=${!info.over}
          note=${st.resumed ? 'The moves before this game was resumed are not listed.' : ''}
          seatName=${(/** @type {number} */ seat) => (info.seats[seat] ? info.seats[seat].seat_name : `Seat ${seat + 1}`)} />
        <${EventLog} g=${g} />
      </aside>
    </div>
  </div>`;
}
