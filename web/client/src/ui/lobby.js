// lobby.js — the first page: play the AI in one click (game, level, seat), create a game for
// people (open seats or invitations, a clock, rated), join open games, watch live ones, and
// replay finished ones.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { seatClass } from './seats.js';
import { PACES, PaceField } from './paces.js';
import { isRegistered } from './account.js';

const LEVELS = ['random', 'greedy', 'beginner', 'easy', 'medium', 'hard'];

/** @param {{client: import('../client.js').Client}} props */
export function Lobby({ client }) {
  useEffect(() => {
    client.watchLobby();
    return () => client.unwatchLobby();
  }, [client]);
  const s = client.state;
  const [finished, setFinished] = useState(/** @type {any[]} */ ([]));
  useEffect(() => {
    fetch('/api/v1/games?status=finished')
      .then((r) => r.json())
      .then((j) => setFinished(j.finished || []))
      .catch(() => setFinished([]));
  }, []);
  const lobby = s.lobby || { open: [], live: [] };
  return html`
    <div class="lobby">
      <h1 class="sr-only">Lobby</h1>
      ${s.conn === 'offline' && html`<p class="panel lobby-offline" role="alert" data-testid="lobby-offline">
        No connection to the server: the games here wait for it. <a class="button primary" href="#/offline" data-testid="lobby-go-offline">Play offline</a>
        against the computer in this browser meanwhile.</p>`}
      ${s.typesFailed && html`<p class="error" role="alert" data-testid="types-failed">Could not load the list of games.</p>`}
      <${PlayAi} client=${client} />
      <${CreateGame} client=${client} />
      <section class="panel" aria-labelledby="open-h">
        <h2 id="open-h">Open games</h2>
        ${lobby.open.length === 0 && html`<p class="muted">No game is waiting for players.</p>`}
        <ul class="games">${lobby.open.map((g) => html`<${GameRow} key=${g.game} g=${g} client=${client} />`)}</ul>
        <${MoreGames} client=${client} list="open" first=${lobby} />
      </section>
      <section class="panel" aria-labelledby="live-h">
        <h2 id="live-h">Live games</h2>
        ${lobby.live.length === 0 && html`<p class="muted">No game is being played.</p>`}
        <ul class="games">${lobby.live.map((g) => html`<${GameRow} key=${g.game} g=${g} client=${client} />`)}</ul>
        <${MoreGames} client=${client} list="live" first=${lobby} />
      </section>
      <section class="panel" aria-labelledby="done-h">
        <h2 id="done-h">Finished games</h2>
        ${finished.length === 0 && html`<p class="muted">None yet.</p>`}
        <ul class="games">${finished.slice(0, 20).map((g) => html`<li key=${g.id} data-testid=${`finished-${g.id}`}>
          <span class="g-title">${titleOf(s.types, g.game)} #${g.id}</span>
          <${Players} types=${s.types} g=${g} />
          <span class="muted">${g.result || g.reason}</span>
          <a class="button" href=${`#/replay/${g.id}`}>Replay</a>
        </li>`)}</ul>
      </section>
    </div>`;
}

/**
 * Who played a finished game (its list entry: `seats` with `name` or an AI's `level`), each
 * under their seat's name.
 * @param {{types: any[], g: any}} props
 */
export function Players({ types, g }) {
  const t = types.find((x) => x.type === g.game);
  const seatName = (/** @type {number} */ i) => (t && t.seat_names[i]) || `Seat ${i + 1}`;
  return html`<span class="seats-mini" data-testid="players">${(g.seats || []).map((seat) => html`<span
    class=${`chip ${seatClass(seat.seat, seatName(seat.seat))}`}>${seatName(seat.seat)}: ${seat.kind === 'ai' ? `AI (${seat.level})` : seat.name || seat.kind}</span>`)}</span>`;
}

/** @param {any[]} types @param {string} type */
function titleOf(types, type) {
  const t = types.find((x) => x.type === type);
  return t ? t.title : type;
}

/**
 * The games of a lobby list past its first page (the server sends 50, the viewer's own and the
 * most relevant first: issue 49), a page more at each click of "More", with the cursor the
 * last page gave. The pages asked for stay until the list's first page changes its cursor.
 * @param {{client: import('../client.js').Client, list: 'open'|'live', first: any}} props
 */
function MoreGames({ client, list, first }) {
  const [pages, setPages] = useState(/** @type {{from: string|null, games: any[], next: string|null}} */ ({ from: null, games: [], next: null }));
  const start = first.more ? first.more[list] : null;
  const shown = pages.from === start ? pages : { from: start, games: [], next: start };
  if (!shown.next && shown.games.length === 0) return null;
  const total = first.total ? first.total[list] : null;
  async function more() {
    const reply = await client.request({ t: 'lobby', [`${list}_after`]: shown.next });
    if (reply.t !== 'lobby') return;
    const seen = new Set([...first[list], ...shown.games].map((g) => g.game));
    setPages({ from: start, games: [...shown.games, ...reply[list].filter((g) => !seen.has(g.game))], next: reply.more[list] });
  }
  return html`<ul class="games">${shown.games.map((g) => html`<${GameRow} key=${g.game} g=${g} client=${client} />`)}</ul>
    ${shown.next && html`<button type="button" onClick=${more} data-testid=${`more-${list}`}>More ${list} games${total ? ` (${total} in all)` : ''}</button>`}`;
}

/** @param {{client: import('../client.js').Client, g: any}} props */
function GameRow({ client, g }) {
  const open = g.status === 'open';
  async function join() {
    const reply = await client.request({ t: 'join', game: g.game });
    if (reply.t === 'joined') location.hash = `#/game/${g.game}`;
  }
  return html`<li>
    <span class="g-title">${g.title} #${g.game}</span>
    <span class="seats-mini">${g.seats.map((seat) => html`<span class=${`chip ${seatClass(seat.seat)}`}>
      ${seat.seat_name}: ${seat.kind === 'ai' ? `AI (${seat.level})` : seat.name || seat.kind}</span>`)}</span>
    ${open && html`<button type="button" onClick=${join}>Join</button>`}
    <a class="button" href=${`#/game/${g.game}`}>Watch</a>
  </li>`;
}

/** @param {{client: import('../client.js').Client}} props */
function PlayAi({ client }) {
  const types = client.state.types;
  const [type, setType] = useState('castle-danger');
  const [level, setLevel] = useState('medium');
  const chosen = useRef(false);
  useNewcomerLevel(client, chosen, setLevel);
  const [seat, setSeat] = useState('0');
  const [players, setPlayers] = useState(2);
  const [busy, setBusy] = useState(false);
  const t = types.find((x) => x.type === type);
  const seatNames = t ? t.seat_names.slice(0, players) : ['Blue', 'Red'];

  /** @param {Event} e */
  async function play(e) {
    e.preventDefault();
    setBusy(true);
    const seats = seatNames.map((_, i) => (String(i) === seat ? 'me' : `ai:${level}`));
    const reply = await client.request({ t: 'create', type, seats });
    setBusy(false);
    if (reply.t === 'created') location.hash = `#/game/${reply.game}`;
  }
  const range = t ? rangeOf(t.min_players, t.max_players) : [2];
  return html`<section class="panel play-ai" aria-labelledby="ai-h">
    <h2 id="ai-h">Play the computer</h2>
    <form onSubmit=${play} class="row-form">
      <label>Game <select value=${type} data-testid="ai-game"
        onChange=${(/** @type {any} */ e) => { setType(e.currentTarget.value); setPlayers(2); setSeat('0'); }}>
        ${types.map((x) => html`<option value=${x.type}>${x.title}</option>`)}
      </select></label>
      ${range.length > 1 && html`<label>Players <select value=${players} data-testid="ai-players"
        onChange=${(/** @type {any} */ e) => setPlayers(Number(e.currentTarget.value))}>
        ${range.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>`}
      <label>Level <select value=${level} data-testid="ai-level"
        onChange=${(/** @type {any} */ e) => { chosen.current = true; setLevel(e.currentTarget.value); }}>
        ${LEVELS.map((l) => html`<option value=${l}>${l}</option>`)}</select></label>
      <label>Your seat <select value=${seat} data-testid="ai-seat"
        onChange=${(/** @type {any} */ e) => setSeat(e.currentTarget.value)}>
        ${seatNames.map((n, i) => html`<option value=${String(i)}>${n}</option>`)}</select></label>
      <button type="submit" class="primary" disabled=${busy || !t || client.state.conn === 'offline'} data-testid="play-ai">Play</button>
    </form>
    ${t && html`<p class="muted">${t.summary} <a href=${`#/rules/${t.type}`} data-testid="lobby-rules">Rules of ${t.title}</a> ·
      <a href=${`#/learn/${t.type}`} data-testid="lobby-learn">Learn by playing</a></p>`}
    ${t && t.ai_level_note && html`<p class="muted" data-testid="ai-level-note">${t.ai_level_note}</p>`}
  </section>`;
}

/**
 * A player with no finished games is offered the beginner level first (issue 43: a level a
 * newcomer can beat), unless they have already picked a level.
 * @param {import('../client.js').Client} client
 * @param {{current: boolean}} chosen
 * @param {(level: string) => void} setLevel
 */
function useNewcomerLevel(client, chosen, setLevel) {
  const name = client.state.user ? client.state.user.name : null;
  useEffect(() => {
    if (!name) return undefined;
    let live = true;
    fetch(`/api/v1/players/${encodeURIComponent(name)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((p) => {
        if (live && !chosen.current && p && Array.isArray(p.games) && p.games.length === 0) setLevel('beginner');
      })
      .catch(() => {}); // the level stays as it is: medium is a fine default too
    return () => { live = false; };
  }, [name]);
}

/** @param {number} lo @param {number} hi */
function rangeOf(lo, hi) {
  const out = [];
  for (let n = lo; n <= hi; n++) out.push(n);
  return out;
}

/** @param {{client: import('../client.js').Client}} props */
function CreateGame({ client }) {
  const types = client.state.types;
  const [type, setType] = useState('danger-at-the-walls');
  const [players, setPlayers] = useState(2);
  const [invite, setInvite] = useState(false);
  const [clock, setClock] = useState('none');
  const [rated, setRated] = useState(false);
  const [options, setOptions] = useState(/** @type {{[k: string]: any}} */ ({}));
  const [links, setLinks] = useState(/** @type {string[]} */ ([]));
  const t = types.find((x) => x.type === type);
  const registered = isRegistered(client);

  /** @param {Event} e */
  async function create(e) {
    e.preventDefault();
    const seats = ['me'];
    for (let i = 1; i < players; i++) seats.push(invite ? 'invite' : 'open');
    const msg = { t: 'create', type, seats, clock: PACES[clock].clock, rated: registered && rated, options };
    const reply = await client.request(msg);
    if (reply.t !== 'created') return;
    const made = Object.values(reply.invites || {}).map(
      (code) => `${location.origin}/?game=${reply.game}&invite=${code}`);
    setLinks(made);
    if (made.length === 0) location.hash = `#/game/${reply.game}`;
  }
  const range = t ? rangeOf(Math.max(2, t.min_players), t.max_players) : [2];
  return html`<section class="panel" aria-labelledby="create-h">
    <h2 id="create-h">Play people</h2>
    <p class="play-now-intro"><a class="button primary" href="#/play" data-testid="lobby-play-now">Play now</a>
      meets someone waiting for the same game and pace; or <a href="#/challenge" data-testid="lobby-challenge">challenge
      a player by name</a>, or set a table below.</p>
    <form onSubmit=${create} class="row-form">
      <label>Game <select value=${type} data-testid="create-game"
        onChange=${(/** @type {any} */ e) => { setType(e.currentTarget.value); setPlayers(2); setOptions({}); }}>
        ${types.map((x) => html`<option value=${x.type}>${x.title}</option>`)}
      </select></label>
      ${range.length > 1 && html`<label>Players <select value=${players} data-testid="create-players"
        onChange=${(/** @type {any} */ e) => setPlayers(Number(e.currentTarget.value))}>
        ${range.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>`}
      ${t && t.options.filter((o) => o.kind === 'int' || o.kind === 'choice').map((o) => html`
        <label title=${o.help}>${o.name}
          ${o.kind === 'int'
            ? html`<input type="number" min=${o.min} max=${o.max} value=${options[o.name] ?? o.default}
                data-testid=${`opt-${o.name}`}
                onInput=${(/** @type {any} */ e) => setOptions({ ...options, [o.name]: Number(e.currentTarget.value) })} />`
            : html`<select value=${options[o.name] ?? o.default}
                onChange=${(/** @type {any} */ e) => setOptions({ ...options, [o.name]: e.currentTarget.value })}>
                ${o.choices.split("|").map((c) => html`<option value=${c}>${c}</option>`)}</select>`}
        </label>`)}
      <${PaceField} id="create-clock" value=${clock} onChange=${setClock} />
      <label class="check"><input type="checkbox" checked=${invite} data-testid="invite"
        onChange=${(/** @type {any} */ e) => setInvite(e.currentTarget.checked)} /> Invite by link</label>
      ${registered
        ? html`<label class="check"><input type="checkbox" checked=${rated} data-testid="rated"
            onChange=${(/** @type {any} */ e) => setRated(e.currentTarget.checked)} /> Rated</label>`
        : html`<span class="muted" data-testid="rated-note">Rated games: register first</span>`}
      <button type="submit" class="primary" data-testid="create">Create</button>
    </form>
    ${links.length > 0 && html`<div class="invites">
      <p>Send ${links.length === 1 ? 'this link' : 'these links'} to the players you invite:</p>
      ${links.map((l) => html`<input readonly value=${l} class="invite-link" aria-label="Invitation link"
        onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />`)}
      <a class="button" href=${`#/game/${links[0].match(/game=(\d+)/)[1]}`}>Go to the table</a>
    </div>`}
  </section>`;
}
