// parts.js — the shared parts of every table: the seats bar with clocks, the event log (the
// page's live region for moves), chat, the notation input with completion, and the game
// controls (resign, draw, takeback, claim, hint, rematch).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Clock } from './clock.js';
import { SeatMark, seatClass } from './seats.js';
import { speak } from '../games/speech.js';

/** @typedef {import('../client.js').GameState} GameState */
/** @typedef {import('../client.js').LegalMove} LegalMove */

/** @param {{g: GameState}} props */
export function SeatsBar({ g }) {
  const snap = g.snap;
  const over = snap.status !== 'live';
  return html`<ol class="seats" aria-label="Players">
    ${snap.seats.map((s) => {
      const toMove = !over && snap.to_move === s.seat;
      const who = s.kind === 'ai' ? `Computer (${s.level})` : s.name || (s.kind === 'open' ? 'open seat' : s.kind);
      return html`<li key=${s.seat} class=${`seat ${seatClass(s.seat, s.seat_name)}${toMove ? ' to-move' : ''}${snap.you === s.seat ? ' me' : ''}`}
        data-testid=${`seat-${s.seat}`}>
        <${SeatMark} seat=${s.seat} name=${s.seat_name} />
        <span class="seat-name">${s.seat_name}</span>
        <span class="seat-who">${who}${snap.you === s.seat ? ' (you)' : ''}</span>
        ${s.kind === 'human' && html`<span class=${`dot ${s.connected ? 'on' : 'off'}`}
          title=${s.connected ? 'connected' : 'disconnected'}>${s.connected ? '' : ' away'}</span>`}
        <${Clock} clock=${snap.clock} seat=${s.seat} receivedAt=${g.receivedAt} over=${over} />
        ${toMove && html`<span class="turn-flag">to play</span>`}
      </li>`;
    })}
  </ol>`;
}

/** @param {{g: GameState}} props */
export function EventLog({ g }) {
  const list = useRef(/** @type {HTMLDivElement|null} */ (null));
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [g.log.length]);
  const lines = g.log.slice(-300);
  // The live region wraps the list (role=log is not allowed on a list); it scrolls, so it takes
  // the focus, and the arrow keys then scroll it. Only additions are read, each once.
  return html`<section class="log-panel" aria-labelledby="log-h">
    <h2 id="log-h">What happened</h2>
    <div class="log" ref=${list} role="log" aria-labelledby="log-h" aria-live="polite" aria-relevant="additions"
      tabindex="0" data-testid="event-log">
      <ol>${lines.map((l) => html`<li key=${l.key} class=${`ev ev-${l.kind}${l.reveal ? ' reveal' : ''}${l.seat !== null && l.seat !== undefined ? ` ${seatClass(l.seat, seatNameOf(g, l.seat))}` : ''}`}>${speak(g.snap.type, l.text)}</li>`)}</ol>
    </div>
  </section>`;
}

/** @param {GameState} g @param {number} seat */
function seatNameOf(g, seat) {
  const s = g.snap.seats[seat];
  return s ? s.seat_name : undefined;
}

/**
 * The table's chat: the viewer's channel only (issue 49: the players and the spectators chat
 * apart), with, for a player, a Mute button on the others' lines and the game's chat switch.
 * @param {{g: GameState, client: import('../client.js').Client}} props
 */
export function Chat({ g, client }) {
  const [text, setText] = useState('');
  const game = g.snap.game;
  const players = g.chatChannel === 'players';
  const me = client.state.user ? client.state.user.name : null;
  /** @param {Event} e */
  async function say(e) {
    e.preventDefault();
    const line = text.trim();
    if (!line) return;
    const reply = await client.request({ t: 'chat', game, text: line });
    if (reply.t === 'done') setText('');
  }
  const off = g.chatOn === false;
  return html`<section class="chat" aria-labelledby="chat-h" data-testid="chat" data-channel=${g.chatChannel}>
    <h2 id="chat-h">${players ? 'Players’ chat' : 'Spectators’ chat'}</h2>
    <p class="muted chat-who" data-testid="chat-who">${players ? 'Only the players read these lines; spectators chat apart.'
      : 'Only spectators read these lines; the players chat apart.'}</p>
    <ol class="chat-lines" tabindex=${g.chat.length ? '0' : undefined} aria-label="Chat lines">${g.chat.slice(-50).map((c, i) => html`<li key=${i}><b>${c.from}:</b> ${c.text}${players && c.from !== me && html` <button type="button" class="link-button" data-testid="chat-mute"
      onClick=${() => client.muteChatter(game, c.from, true)} aria-label=${`Mute ${c.from}`}>Mute</button>`}</li>`)}</ol>
    ${g.muted.length > 0 && html`<p class="muted" data-testid="chat-muted">Muted: ${g.muted.map((n) => html`<button type="button" class="link-button"
      onClick=${() => client.muteChatter(game, n, false)} aria-label=${`Unmute ${n}`}>${n}</button> `)}</p>`}
    ${off && html`<p class="muted" data-testid="chat-off">The chat is off${g.chatBy ? ` (turned off by ${g.chatBy})` : ''}.</p>`}
    <form onSubmit=${say} class="chat-form">
      <input value=${text} maxlength="300" aria-label="Chat message" disabled=${off} data-testid="chat-input"
        onInput=${(/** @type {any} */ e) => setText(e.currentTarget.value)} />
      <button type="submit" disabled=${off}>Say</button>
    </form>
    ${players && html`<button type="button" data-testid="chat-switch"
      onClick=${() => client.request({ t: 'chat-switch', game, on: off })}>${off ? 'Turn the chat on' : 'Turn the chat off'}</button>`}
  </section>`;
}

/** @param {string} s */
const norm = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The move typed in notation, with completion from the legal list (an ARIA combobox):
 * arrows choose a suggestion, Tab completes it, Enter plays it. Text that is not in the list
 * still goes to the server, whose refusal says why in the game's words.
 * The suggestion chosen (arrows, or under the pointer) goes to onPoint, for a preview.
 * `why` says why it is disabled when that is not the others' turn (a past move shown).
 * @param {{legal: LegalMove[]|null, send: (m: LegalMove|string) => void, disabled: boolean, hint: string|null,
 *          onPoint?: (text: string) => void, why?: string}} props
 */
export function MoveInput({ legal, send, disabled, hint, onPoint, why = 'not your turn' }) {
  const [value, setValue] = useState('');
  const [active, setActive] = useState(0);
  // The list opened by the Down arrow on an empty field: every legal move, so the first move
  // is two keys from a table's load (Down, Enter) for a player who knows no notation yet.
  const [browsing, setBrowsing] = useState(false);
  const field = useRef(/** @type {HTMLInputElement|null} */ (null));
  const hadFocus = useRef(false);
  // The field is disabled while a move is sent and the others play, which drops the focus; a
  // player who typed their move finds the cursor back in the field when it is their turn
  // again, unless they have moved the focus elsewhere since.
  useEffect(() => {
    // A forced move that plays itself (table.js) disables the field without play(): the focus
    // is remembered whenever it enters the field (its own onFocus, below, which is there from
    // the first render: the table may focus the field before this listener is added), and
    // forgotten when it goes anywhere else.
    const moved = (/** @type {FocusEvent} */ e) => { hadFocus.current = e.target === field.current; };
    document.addEventListener('focusin', moved);
    return () => document.removeEventListener('focusin', moved);
  }, []);
  useEffect(() => {
    const input = field.current;
    if (!input || disabled || !hadFocus.current) return;
    if (document.activeElement === document.body || !document.activeElement) input.focus();
  }, [disabled]);
  const moves = legal || [];
  const typed = norm(value);
  const starts = moves.filter((m) => norm(m.text).startsWith(typed));
  const contains = typed ? moves.filter((m) => !norm(m.text).startsWith(typed) && norm(m.text).includes(typed)) : [];
  const suggestions = typed ? [...starts, ...contains].slice(0, 8) : moves;
  const open = !disabled && suggestions.length > 0 && (typed !== '' || browsing);
  const current = suggestions[Math.min(active, suggestions.length - 1)];
  const currentId = open && current ? `move-opt-${current.id}` : undefined;
  useEffect(() => {
    const option = currentId ? document.getElementById(currentId) : null;
    if (option) option.scrollIntoView({ block: 'nearest' });
    if (open && current && onPoint) onPoint(current.text);
  }, [currentId]);

  /** @param {LegalMove|string} m */
  function play(m) {
    hadFocus.current = document.activeElement === field.current;
    send(m);
    setValue('');
    setActive(0);
    setBrowsing(false);
  }
  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.key === 'ArrowDown' && !open && !disabled && moves.length > 0) {
      e.preventDefault();
      setBrowsing(true);
      setActive(0);
    } else if (e.key === 'ArrowDown' && open) {
      e.preventDefault();
      setActive((active + 1) % suggestions.length);
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      setActive((active - 1 + suggestions.length) % suggestions.length);
    } else if (e.key === 'Tab' && open && current && norm(current.text) !== typed) {
      e.preventDefault();
      setValue(current.text);
    } else if (e.key === 'Escape') {
      setValue('');
      setBrowsing(false);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (disabled) return;
      if (!typed) {
        if (open && current) play(current);
        return;
      }
      const exact = moves.find((m) => norm(m.text) === typed);
      if (exact) play(exact);
      else if (open && current) play(current);
      else play(value.trim());
    }
  }
  const label = disabled ? `Move (${why})` : `Type a move, or press Down for the list (${moves.length} legal)`;
  return html`<div class="move-input">
    <label for="move-text">${label}</label>
    <input id="move-text" ref=${field} value=${value}
      disabled=${disabled} autocomplete="off" spellcheck=${false}
      role="combobox" aria-autocomplete="list" aria-expanded=${open} aria-controls="move-list"
      aria-activedescendant=${currentId}
      placeholder=${moves[0] ? `e.g. ${moves[0].text}` : ''} data-testid="move-text"
      onInput=${(/** @type {any} */ e) => { setValue(e.currentTarget.value); setActive(0); }}
      onFocus=${() => { hadFocus.current = true; }}
      onBlur=${() => setBrowsing(false)} onKeyDown=${onKey} />
    <ul id="move-list" role="listbox" class=${open ? 'completions' : 'completions hidden'}>
      ${open && suggestions.map((m) => html`<li key=${m.id} id=${`move-opt-${m.id}`} role="option"
        aria-selected=${m === current} class=${m === current ? 'active' : ''}
        onMouseEnter=${() => onPoint && onPoint(m.text)}
        onMouseDown=${(/** @type {Event} */ e) => { e.preventDefault(); play(m); }}>${m.text}</li>`)}
    </ul>
    ${hint && html`<p class="hint" data-testid="hint">Hint: <b>${hint}</b></p>`}
  </div>`;
}

/** @param {{g: GameState, client: import('../client.js').Client}} props */
export function Controls({ g, client }) {
  const snap = g.snap;
  const id = snap.game;
  const seated = snap.you !== null && snap.you !== undefined;
  const live = snap.status === 'live';
  const [confirmResign, setConfirmResign] = useState(false);
  if (!seated) {
    return html`<div class="controls">${snap.status === 'over' && html`<a class="button" href=${`#/replay/${id}`}>Replay</a>`}</div>`;
  }
  const offers = snap.offers || { draw: [], takeback: null };
  const othersDraw = offers.draw.filter((s) => s !== snap.you);
  const takebackBy = offers.takeback;
  const hasAi = snap.seats.some((s) => s.kind === 'ai');
  const myTurn = live && snap.to_move === snap.you && !!snap.legal;
  // The server's `allowed.takeback` is for the position shown; while the computer's replies wait
  // in the display queue (client.js, paced) the server is already past them, and a card they
  // revealed makes the takeback fail: offer it only when what is shown is the server's now.
  const canTakeBack = live && !!snap.allowed && snap.allowed.takeback && snap.ply > 0 && takebackBy === null && !g.queued;
  const canClaim = live && snap.seats.some((s) => s.seat !== snap.you && s.kind === 'human' && !s.connected && (s.gone_ms || 0) >= 60000);
  return html`<div class="controls" role="group" aria-label="Game actions">
    ${live && hasAi && html`<button type="button" disabled=${!myTurn || g.hintBusy} data-testid="hint-btn"
      onClick=${() => client.hint(id)}>${g.hintBusy ? 'Thinking…' : 'Hint'}</button>`}
    ${canTakeBack && html`
      <button type="button" onClick=${() => client.action(id, 'takeback', 'offer')}>Take back</button>`}
    ${live && takebackBy !== null && takebackBy !== snap.you && html`<span class="offer">
      Take back asked: <button type="button" onClick=${() => client.action(id, 'takeback', 'accept')}>Accept</button>
      <button type="button" onClick=${() => client.action(id, 'takeback', 'decline')}>Decline</button></span>`}
    ${live && snap.allowed && snap.allowed.draw && !offers.draw.includes(snap.you) && html`
      <button type="button" onClick=${() => client.action(id, 'draw', othersDraw.length ? 'accept' : 'offer')}>
        ${othersDraw.length ? 'Accept draw' : 'Offer draw'}</button>`}
    ${live && othersDraw.length > 0 && html`<button type="button" onClick=${() => client.action(id, 'draw', 'decline')}>Decline draw</button>`}
    ${canClaim && html`<button type="button" onClick=${() => client.action(id, 'claim')}>Claim the win</button>`}
    ${live && (confirmResign
      ? html`<span class="offer">Resign? <button type="button" class="danger" data-testid="resign-yes"
          onClick=${() => { setConfirmResign(false); client.action(id, 'resign'); }}>Yes, resign</button>
          <button type="button" onClick=${() => setConfirmResign(false)}>No</button></span>`
      : html`<button type="button" data-testid="resign" onClick=${() => setConfirmResign(true)}>Resign</button>`)}
    ${snap.status === 'open' && html`<button type="button" onClick=${() => client.action(id, 'leave')}>Leave</button>`}
    ${snap.status === 'over' && html`
      ${g.rematch
        ? html`<button type="button" onClick=${async () => { await client.request({ t: 'join', game: g.rematch }); location.hash = `#/game/${g.rematch}`; }}>Join the rematch</button>`
        : html`<button type="button" onClick=${async () => { const r = await client.request({ t: 'rematch', game: id }); if (r.t === 'created') location.hash = `#/game/${r.game}`; }}>Rematch</button>`}
      <a class="button" href=${`#/replay/${id}`}>Replay</a>
      <a class="button" href=${`/api/v1/games/${id}/record`} download=${`game-${id}.record`}>Record</a>`}
  </div>`;
}
