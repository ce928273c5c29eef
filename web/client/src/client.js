// client.js — the client's one store and what changes it: server messages replace a game's
// state wholesale (the view, the legal moves, the clocks), events are appended to its log, and
// the UI only renders this store. Requests go out through the transport; nothing here knows
// any game's rules.
import { Transport } from './transport.js';
import { holdAfter, pacing, PACE_MS } from './pace.js';
import { afterMove } from './games/last-move.js';

export { PACE_MS };

const TOKEN_KEY = 'ramparts.token';

/**
 * @typedef {{[key: string]: any}} Message
 * @typedef {{id: number, text: string, kind?: string, [key: string]: any}} LegalMove
 * @typedef {{kind: string, text: string, seat?: number, reveal?: boolean, [key: string]: any}} GameEvent
 * @typedef {{key: number, v: number|null, text: string, seat?: number|null, reveal?: boolean, kind: string}} LogLine
 * @typedef {{
 *   snap: Message, log: LogLine[], chat: Message[], pending: {move: string, ply: number}|null,
 *   chatOn: boolean, chatBy: string|null, chatChannel: string, muted: string[],
 *   error: string|null, hint: string|null, hintBusy: boolean, hintByCoach?: boolean, rematch: number|null,
 *   spectators: number, receivedAt: number, last: import('./games/last-move.js').LastMove|null,
 *   queued?: number, history: import('./ui/movelist.js').Frame[], historyLoading: boolean, historyError: string|null
 * }} GameState
 * @typedef {{
 *   conn: import('./transport.js').ConnState, user: Message|null, server: string,
 *   lobby: Message|null, types: Message[], typesFailed: boolean, games: {[id: string]: GameState},
 *   notice: string|null, announce: string, mine: Message|null, challengesIn: Message[], seeks: Message[]
 * }} State
 * @typedef {{kind: 'turn'|'move'|'challenge'|'low', game?: number, ply?: number, title: string, body: string, hash: string}} Alert
 */

export class Client {
  constructor() {
    /** @type {State} */
    this.state = {
      conn: 'connecting',
      user: null,
      server: '',
      lobby: null,
      types: [],
      typesFailed: false,
      games: {},
      notice: null,
      announce: '',
      mine: null,
      challengesIn: [],
      seeks: [],
    };
    /** @type {(a: Alert) => void} what the page does on an alert (main.js: a sound, a notification) */
    this.onAlert = () => {};
    /** @type {Map<number, Message>} challenges this page sent, until they end */
    this.sentHere = new Map();
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    /** @type {Map<number, number>} the games this page watches, with the last version seen */
    this.watched = new Map();
    this.lobbyWatched = false;
    /** @type {Map<number, {held: boolean, queue: {m: Message, at: number}[], timer: any}>} the pacing of each game's display */
    this.pacing = new Map();
    this.logKey = 1;
    /** @type {Set<number>} seeks paired or dropped, hidden even while a `mine` still lists them */
    this.goneSeeks = new Set();
    this.renderQueued = false;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.transport = new Transport(`${proto}//${location.host}/ws`, {
      onMessage: (m) => this.receive(m),
      onState: (s) => this.set({ conn: s }),
      onOpen: () => this.reopen(),
    });
    /** @type {Promise<void>} resolved once the first welcome arrives */
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  start() {
    this.transport.start();
    this.loadTypes();
  }

  /** The games the server offers. A failure is the lobby's to say (the offline page, which
   * needs no server, shows nothing of it); the next connection tries again. */
  loadTypes() {
    fetch('/api/v1/types')
      .then((r) => r.json())
      .then((types) => this.set({ types, typesFailed: false }))
      .catch(() => this.set({ typesFailed: true }));
  }

  /** @param {() => void} fn */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @param {Partial<State>} patch */
  set(patch) {
    this.state = { ...this.state, ...patch };
    if (this.renderQueued) return;
    this.renderQueued = true;
    queueMicrotask(() => {
      this.renderQueued = false;
      for (const fn of this.listeners) fn();
    });
  }

  /** @param {number} id @param {Partial<GameState>} patch */
  setGame(id, patch) {
    const old = this.state.games[id];
    if (!old) return;
    this.set({ games: { ...this.state.games, [id]: { ...old, ...patch } } });
  }

  // ---- the connection ----

  /** Every (re)connection: say who we are, then resubscribe to what this page shows. */
  reopen() {
    const token = localStorage.getItem(TOKEN_KEY);
    const hello = { t: 'hello', proto: 1 };
    if (token) hello.token = token;
    this.transport.request(hello).then((reply) => {
      if (reply.t === 'error' && reply.code === 'bad-token') {
        localStorage.removeItem(TOKEN_KEY);
        this.reopen();
        return;
      }
      if (reply.t !== 'welcome') return;
      if (this.state.types.length === 0) this.loadTypes();
      if (this.lobbyWatched) this.transport.send({ t: 'lobby' });
      this.transport.send({ t: 'mine' });
      for (const [game, v] of this.watched) this.transport.send({ t: 'open', game, v });
      this.resolveReady();
    });
  }

  // ---- messages from the server ----

  /** @param {Message} m */
  receive(m) {
    switch (m.t) {
      case 'welcome':
        if (m.token) localStorage.setItem(TOKEN_KEY, m.token);
        this.set({ user: m.user, server: m.server });
        break;
      case 'registered':
        this.set({ user: m.user });
        break;
      case 'mine':
        this.mineChanged(m);
        break;
      case 'paired':
        this.paired(m);
        break;
      case 'challenge':
        this.challengeIn(m.challenge);
        break;
      case 'challenge-gone':
        this.challengeGone(m);
        break;
      case 'logged-out':
        // This page logged out, or another one with the same token did: the token is void,
        // so start again as a new guest.
        localStorage.removeItem(TOKEN_KEY);
        this.set({ user: null, mine: null, challengesIn: [] });
        this.reopen();
        break;
      case 'lobby':
        // A page asked for with a cursor (a direct reply, with an id) is the lobby page's to
        // show below the first; the first pages come pushed, without one.
        if (m.id === undefined) this.set({ lobby: m });
        break;
      case 'snapshot':
        this.flushPaced(m.game);
        this.snapshot(m);
        break;
      case 'update':
        this.paced(m);
        break;
      case 'presence':
        this.presence(m);
        break;
      case 'chat':
        this.chatLine(m);
        break;
      case 'chat-switch':
        // A player turned the game's chat off or on (issue 49): the chat field follows it.
        this.setGame(m.game, { chatOn: m.on, chatBy: m.by });
        this.set({ announce: `${m.by} turned the chat ${m.on ? 'on' : 'off'}.` });
        break;
      case 'rematch':
        this.setGame(m.game, { rematch: m.rematch });
        break;
      case 'hint': {
        const g = this.state.games[m.game];
        this.setGame(m.game, { hint: m.move, hintBusy: false });
        // The guided game's coach says its hint in words (ui/coach.js), never in notation.
        if (!(g && g.hintByCoach)) this.set({ announce: `Hint: ${m.move}` });
        break;
      }
      case 'error':
        this.error(m);
        break;
      default:
        break;
    }
  }

  /** @param {Message} m */
  snapshot(m) {
    const old = this.state.games[m.game];
    const log = old ? old.log.slice() : [];
    if (!old) log.push(this.line(m.v, 'open', openingLine(m)));
    for (const cause of m.missed || []) this.appendCause(log, m, cause, cause.v);
    if (m.missed_truncated) log.push(this.line(m.v, 'note', 'Some earlier moves are not shown.'));
    this.watched.set(m.game, m.v);
    const pending = old && old.pending && old.pending.ply === m.ply ? old.pending : null;
    // The snapshot names the last move (as this viewer was told it), so a reloaded page marks it.
    let last = old ? old.last : null;
    for (const cause of m.missed || []) last = lastMoveAfter(last, cause);
    if (m.last) last = lastMoveAfter(null, m.last);
    else if (m.ply === 0) last = null;
    /** @type {GameState} */
    const game = {
      snap: m,
      log,
      chat: m.chat || (old ? old.chat : []),
      // The chat's channel (the players' or the spectators', issue 49) and switch come with a
      // snapshot that carries the chat; a resync without it keeps what was known.
      chatOn: m.chat_on !== undefined ? m.chat_on : old ? old.chatOn : true,
      chatBy: old ? old.chatBy : null,
      chatChannel: m.chat_channel || (old ? old.chatChannel : m.you !== null && m.you !== undefined ? 'players' : 'spectators'),
      muted: old ? old.muted : [],
      pending,
      error: old ? old.error : null,
      hint: null,
      hintBusy: false,
      rematch: old ? old.rematch : null,
      spectators: old ? old.spectators : 0,
      receivedAt: performance.now(),
      last,
      // The snapshot's view is this viewer's view after its ply: that ply's frame.
      history: mergeFrames(old ? old.history : [], m.status === 'open' || !m.view ? []
        : [{ ply: m.ply, view: m.view, seat: m.last ? m.last.seat ?? null : null, events: m.last && Array.isArray(m.last.events) ? m.last.events : null }], m.ply),
      historyLoading: old ? old.historyLoading : true,
      historyError: null,
    };
    this.set({ games: { ...this.state.games, [m.game]: game } });
    // The first frame this page lacks: all of them on opening, those after a gap since.
    const held = old ? old.history.filter((f) => f.ply < m.ply) : [];
    let from = 0;
    while (from < held.length && held[from].ply === from) from++;
    if (from < m.ply && m.status !== 'open') this.loadHistory(m.game, from);
    else this.setGame(m.game, { historyLoading: false });
  }

  /**
   * The moves so far as this viewer saw them (issue 42), from the server's `history` (live or
   * finished; at most 100 frames a reply, asked again while `more`): each frame is this
   * viewer's own view after that ply, as it was sent then.
   * @param {number} game @param {number} from
   */
  loadHistory(game, from) {
    this.transport.request({ t: 'history', game, from }).then((m) => this.historyReply(game, m));
  }

  /** @param {number} game @param {Message} m */
  historyReply(game, m) {
    const g = this.state.games[game];
    if (!g) return;
    if (m.t !== 'history' || !Array.isArray(m.frames)) {
      this.setGame(game, { historyLoading: false, historyError: m.message || 'the moves could not be loaded' });
      return;
    }
    const history = mergeFrames(g.history, m.frames, g.snap.ply);
    this.setGame(game, { history, historyLoading: !!m.more, historyError: null });
    if (m.more && m.frames.length) this.loadHistory(game, m.frames[m.frames.length - 1].ply + 1);
  }

  /**
   * The computer's moves are shown one at a time, each for PACE_MS, and a finished King of
   * Danger trick stays on the table for TRICK_HOLD_MS (pace.js), so a person can follow a
   * trick or a turn of several steps: an update that comes while one is on show waits in the
   * game's queue (its clock read when it came). Off under prefers-reduced-motion and when the
   * player turned it off; a snapshot shows everything at once.
   * @param {Message} m
   */
  paced(m) {
    const p = this.pacing.get(m.game) || { held: false, queue: [], timer: 0 };
    this.pacing.set(m.game, p);
    // A change that is not the computer's move (the player's own, above all) shows at once
    // unless computer's moves wait before it: the order stays the server's.
    if (p.held && (p.queue.length > 0 || this.byComputer(m))) {
      p.queue.push({ m, at: performance.now() });
      this.setGame(m.game, { queued: p.queue.length });
      return;
    }
    this.update(m);
    this.hold(m, p);
  }

  /** Keep `m` in view for its time before the queue goes on; false when it has none.
   * @param {Message} m @param {{held: boolean, queue: {m: Message, at: number}[], timer: any}} p */
  hold(m, p) {
    const ms = this.holdFor(m);
    if (!ms) return false;
    clearTimeout(p.timer);
    p.held = true;
    p.timer = setTimeout(() => this.nextPaced(m.game, p), ms);
    return true;
  }

  /** @param {number} game @param {{held: boolean, queue: {m: Message, at: number}[], timer: any}} p */
  nextPaced(game, p) {
    if (this.pacing.get(game) !== p) return; // closed, or a snapshot showed everything
    p.held = false;
    for (let next = p.queue.shift(); next; next = p.queue.shift()) {
      this.update(next.m, next.at);
      if (this.hold(next.m, p)) break;
    }
    this.setGame(game, { queued: p.queue.length });
  }

  /** @param {number} game */
  flushPaced(game) {
    const p = this.pacing.get(game);
    this.pacing.delete(game);
    if (p) clearTimeout(p.timer);
    for (const { m, at } of p ? p.queue : []) this.update(m, at);
  }

  /** A move of a computer's seat, in a game this page plays (not watches), with pacing on.
   * @param {Message} m */
  byComputer(m) {
    const c = m.cause;
    const seat = c && c.kind === 'move' && m.seats ? m.seats[c.seat] : null;
    return !!seat && seat.kind === 'ai' && m.you !== null && m.you !== undefined && pacing();
  }

  /** How long `m` stays in view before the next queued update: only in a game against the
   * computer that this page plays, with pacing on (pace.js). @param {Message} m */
  holdFor(m) {
    const c = m.cause;
    if (!c || c.kind !== 'move' || m.you === null || m.you === undefined || !pacing()) return 0;
    if (!(m.seats || []).some((/** @type {Message} */ s) => s.kind === 'ai')) return 0;
    return holdAfter(c.events, this.byComputer(m));
  }

  /** @param {Message} m @param {number} [at] when it came (performance.now()) */
  update(m, at) {
    const old = this.state.games[m.game];
    if (!old) return;
    if (m.v <= old.snap.v) return; // already seen
    if (m.v > old.snap.v + 1) {
      // A gap: some change never reached us. Ask for a snapshot with what we missed.
      this.transport.send({ t: 'open', game: m.game, v: old.snap.v });
      return;
    }
    const log = old.log.slice();
    this.appendCause(log, m, m.cause, m.v);
    this.watched.set(m.game, m.v);
    const pending = old.pending && old.pending.ply === m.ply ? old.pending : null;
    const patch = { snap: m, log, pending, hint: null, hintBusy: false, receivedAt: at === undefined ? performance.now() : at,
      last: lastMoveAfter(old.last, m.cause), history: historyAfter(old.history, m) };
    if (pending === null) patch.error = null;
    this.setGame(m.game, patch);
    const announce = announceFor(m);
    if (announce) this.set({ announce });
    this.moveAlert(m);
  }

  /** Another seat's move in a game this page plays: the turn's alert when it is now yours,
   * else the softer one of a move against you. @param {Message} m */
  moveAlert(m) {
    const c = m.cause;
    const seated = m.you !== null && m.you !== undefined;
    if (!c || c.kind !== 'move' || !seated || c.seat === m.you || m.status !== 'live') return;
    const mine = m.to_move === m.you && !!m.legal;
    this.onAlert({ kind: mine ? 'turn' : 'move', game: m.game, ply: m.ply, title: `${mine ? 'Your turn' : 'A move'}: ${m.title} #${m.game}`,
      body: moveLine(m, c), hash: `#/game/${m.game}` });
  }

  /** @param {LogLine[]} log @param {Message} m @param {Message} cause @param {number} v */
  appendCause(log, m, cause, v) {
    if (!cause) return;
    if (cause.kind === 'move') {
      const events = Array.isArray(cause.events) ? cause.events : [];
      for (const e of events) log.push({ ...this.line(v, e.kind, e.text, e.seat), reveal: !!e.reveal });
      if (events.length === 0) log.push(this.line(v, 'move', moveLine(m, cause), cause.seat));
      return;
    }
    log.push(this.line(v, cause.kind, causeLine(m, cause), cause.seat));
  }

  /** @param {number|null} v @param {string} kind @param {string} text @param {number} [seat] @returns {LogLine} */
  line(v, kind, text, seat) {
    return { key: this.logKey++, v, kind, text, seat: seat === undefined ? null : seat };
  }

  /** @param {Message} m */
  presence(m) {
    const old = this.state.games[m.game];
    if (!old) return;
    this.setGame(m.game, { snap: { ...old.snap, seats: m.seats }, spectators: m.spectators });
  }

  /** @param {Message} m */
  chatLine(m) {
    const old = this.state.games[m.game];
    if (!old) return;
    this.setGame(m.game, { chat: [...old.chat, m].slice(-200) });
  }

  /** Mute (or unmute) a chatter in a game: the server stops sending their lines to this
   * player, and the lines already shown go too. @param {number} game @param {string} name
   * @param {boolean} mute */
  async muteChatter(game, name, mute) {
    const reply = await this.request({ t: 'mute', game, name, mute });
    const old = this.state.games[game];
    if (reply.t !== 'done' || !old) return reply;
    const muted = mute ? [...old.muted, name] : old.muted.filter((n) => n !== name);
    this.setGame(game, { muted, chat: mute ? old.chat.filter((c) => c.from !== name) : old.chat });
    return reply;
  }

  /** @param {Message} m */
  error(m) {
    if (m.game !== undefined && this.state.games[m.game]) {
      const g = this.state.games[m.game];
      this.setGame(m.game, { error: m.message, pending: null, hintBusy: false });
      if (m.code === 'stale' || m.code === 'not-your-turn') {
        this.transport.send({ t: 'open', game: m.game, v: g.snap.v });
      }
      return; // the table shows it in a role=alert paragraph, which reads it once
    }
    // A server older than `mine` (issue 41) says so: the page goes without the count.
    if (m.code === 'unknown-type' && /'(mine|history)'/.test(m.message || '')) return;
    if (m.code !== 'bad-token' && m.code !== 'disconnected') this.set({ notice: m.message });
  }

  // ---- "My games", pairings and challenges (docs/server-protocol.md, `mine`) ----

  /** A new `mine`: games that have become your turn since the last one alert (never the
   * first one after the page loaded: no sound on load). @param {Message} m */
  mineChanged(m) {
    const before = this.state.mine;
    this.set({ mine: m, challengesIn: (m.challenges && m.challenges.received) || [] });
    if (!before) return;
    const waited = new Set((before.games || []).filter((g) => g.your_turn).map((g) => g.game));
    for (const g of m.games || []) {
      if (!g.your_turn || waited.has(g.game)) continue;
      const others = (g.seats || []).filter((x) => x.seat !== g.seat).map((x) => (x.kind === 'ai' ? 'the computer' : x.name || 'an open seat'));
      this.onAlert({ kind: 'turn', game: g.game, ply: g.ply, title: `Your turn: ${g.title} #${g.game}`,
        body: others.length ? `Against ${others.join(', ')}.` : 'It is your move.', hash: `#/game/${g.game}` });
    }
  }

  /** A seek, an accepted challenge or a tournament made a game with this user in it: open it
   * (a tournament's game is remembered with its tournament, so its table links back).
   * @param {Message} m */
  paired(m) {
    if (m.seek !== undefined) this.goneSeeks.add(m.seek);
    if (m.tournament !== undefined) rememberTournamentGame(m.game, m.tournament);
    const what = m.tournament !== undefined ? `Your tournament game is ready: game ${m.game}.` : `A game is ready: game ${m.game}.`;
    this.set({ announce: what, seeks: this.state.seeks.filter((x) => x.id !== m.seek) });
    location.hash = `#/game/${m.game}`;
  }

  /** @param {Message} c a challenge received */
  challengeIn(c) {
    if (!c || this.state.challengesIn.some((x) => x.id === c.id)) return;
    const text = `${c.from} challenges you to ${c.title}.`;
    this.set({ challengesIn: [...this.state.challengesIn, c], announce: text });
    this.onAlert({ kind: 'challenge', title: text, body: 'Accept or decline it in Ramparts.', hash: '#/mine', game: undefined });
  }

  /** A challenge ended: dropped from the lists; the sender hears a decline. @param {Message} m */
  /** A challenge this page sent (the `challenged` reply): known here at once, so an answer that
   * comes before the next `mine` still names it. @param {Message} c */
  challengeSent(c) {
    if (c && c.id) this.sentHere.set(c.id, c);
  }

  challengeGone(m) {
    const mine = this.state.mine;
    const sent = mine && mine.challenges ? mine.challenges.sent || [] : [];
    const was = sent.find((c) => c.id === m.challenge) || this.sentHere.get(m.challenge);
    this.sentHere.delete(m.challenge);
    const patch = { challengesIn: this.state.challengesIn.filter((c) => c.id !== m.challenge) };
    if (mine && mine.challenges) {
      patch.mine = { ...mine, challenges: { received: (mine.challenges.received || []).filter((c) => c.id !== m.challenge),
        sent: sent.filter((c) => c.id !== m.challenge) } };
    }
    if (was && (m.why === 'declined' || m.why === 'expired')) {
      patch.notice = `${was.to} ${m.why === 'declined' ? 'declined' : 'did not answer'} your challenge to ${was.title}.`;
    }
    this.set(patch);
  }

  /** The games this user is looking for: those `mine` lists (after a reload too) and those
   * this page asked for (answered `seeking`), until paired or dropped. */
  seekList() {
    const listed = (this.state.mine && Array.isArray(this.state.mine.seeks)) ? this.state.mine.seeks : [];
    const gone = this.goneSeeks;
    return [...listed, ...this.state.seeks.filter((x) => !listed.some((y) => y.id === x.id))].filter((x) => !gone.has(x.id));
  }

  /** Look for a game ("Play now"): resolves with the server's reply. @param {Message} msg */
  async seek(msg) {
    const reply = await this.request({ t: 'seek', ...msg });
    if (reply.t === 'seeking' && !this.state.seeks.some((x) => x.id === reply.seek.id)) {
      this.set({ seeks: [...this.state.seeks, reply.seek] });
    }
    return reply;
  }

  /** Stop looking (one seek, or all of them without an id). @param {number} [id] */
  async unseek(id) {
    const reply = await this.request(id === undefined ? { t: 'unseek' } : { t: 'unseek', seek: id });
    if (reply.t === 'error') return reply;
    for (const x of id === undefined ? this.seekList() : [{ id }]) this.goneSeeks.add(x.id);
    this.set({ seeks: id === undefined ? [] : this.state.seeks.filter((x) => x.id !== id) });
    return reply;
  }

  /** How many things wait for this user: games on their turn and challenges received. */
  waitingCount() {
    const mine = this.state.mine;
    return { games: mine ? mine.waiting || 0 : 0, challenges: this.state.challengesIn.length };
  }

  /** The user changed (a login, a registration): watch the new one's games. */
  userChanged() {
    this.set({ mine: null, challengesIn: [] });
    this.transport.send({ t: 'mine' });
  }

  // ---- what the UI asks for ----

  watchLobby() {
    if (this.lobbyWatched) return;
    this.lobbyWatched = true;
    this.transport.send({ t: 'lobby' });
  }

  unwatchLobby() {
    if (!this.lobbyWatched) return;
    this.lobbyWatched = false;
    this.transport.send({ t: 'lobby', watch: false });
  }

  /** @param {number} game */
  openGame(game) {
    if (this.watched.has(game)) return;
    this.watched.set(game, 0);
    this.transport.send({ t: 'open', game });
  }

  /** @param {number} game */
  closeGame(game) {
    if (!this.watched.has(game)) return;
    this.watched.delete(game);
    this.pacing.delete(game);
    this.transport.send({ t: 'close', game });
    const games = { ...this.state.games };
    delete games[game];
    this.set({ games });
  }

  /** @param {Message} msg @returns {Promise<Message>} */
  async request(msg) {
    const reply = await this.transport.request(msg);
    if (reply.t === 'error') this.set({ notice: reply.message });
    return reply;
  }

  /** Send a move (the `text` of a legal entry): shown pending until acknowledged and updated.
   * @param {number} game @param {LegalMove|string} move */
  move(game, move) {
    const g = this.state.games[game];
    if (!g || g.pending) return;
    const text = typeof move === 'string' ? move : move.text;
    const ply = g.snap.ply;
    this.setGame(game, { pending: { move: text, ply }, error: null, hint: null });
    // Resent until its direct reply comes; a refusal reaches error(), which drops the pending
    // move, and the update that follows an ack replaces it with the new position.
    this.transport.request({ t: 'move', game, ply, move: text }, { ackable: true });
  }

  /** @param {number} game @param {string} t @param {string} [op] */
  action(game, t, op) {
    const msg = { t, game };
    if (op) msg.op = op;
    return this.request(msg);
  }

  /** @param {number} game */
  /** Ask the server's hint search for a move, from this seat's own view; `byCoach` when the
   * guided game's coach asks (it says the move in words). @param {number} game @param {boolean} [byCoach] */
  hint(game, byCoach = false) {
    const g = this.state.games[game];
    if (!g) return;
    this.setGame(game, { hintBusy: true, hint: null, hintByCoach: byCoach });
    this.transport.request({ t: 'hint', game, ply: g.snap.ply });
  }

  dismissNotice() {
    this.set({ notice: null });
  }
}

const TOURNAMENT_GAMES_KEY = 'ramparts.tournamentGames';

/** The tournament games this tab was paired in (game -> tournament), kept for the tab
 * (sessionStorage: a reload keeps them) so a table can link back to its tournament.
 * @returns {{[game: string]: number}} */
export function tournamentGames() {
  try {
    return JSON.parse(sessionStorage.getItem(TOURNAMENT_GAMES_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/** @param {number} game @param {number} tournament */
function rememberTournamentGame(game, tournament) {
  const all = tournamentGames();
  all[game] = tournament;
  const kept = Object.keys(all).slice(-50); // the newest ones: a tab never needs more
  try {
    sessionStorage.setItem(TOURNAMENT_GAMES_KEY, JSON.stringify(Object.fromEntries(kept.map((k) => [k, all[k]]))));
  } catch {
    // storage full or refused: the table simply shows no link back
  }
}

/** The last move after a change (the boards mark where it happened): a move replaces it, a
 * takeback forgets it, anything else keeps it. The moves a seat made in a row (its turn so far)
 * are kept too, for the boards that mark a whole turn (Danger at the Walls: the play and the
 * refill draw after it). @param {GameState['last']} last @param {Message} cause */
function lastMoveAfter(last, cause) {
  if (!cause) return last;
  if (cause.kind === 'takeback') return null;
  if (cause.kind !== 'move') return last;
  return afterMove(last, cause.seat ?? null, Array.isArray(cause.events) ? cause.events : []);
}

/**
 * The frames after an update: a move adds the viewer's view after it, with its events as told
 * (the frame `history` would send for that ply); a takeback drops the plies taken back.
 * @param {import('./ui/movelist.js').Frame[]} frames @param {Message} m
 */
function historyAfter(frames, m) {
  const kept = frames.filter((f) => f.ply < m.ply || (f.ply === m.ply && !(m.cause && m.cause.kind === 'move')));
  const c = m.cause;
  if (!c || c.kind !== 'move' || !m.view) return kept.length === frames.length ? frames : kept;
  return [...kept, { ply: m.ply, view: m.view, seat: c.seat ?? null, events: Array.isArray(c.events) ? c.events : null }];
}

/** Frames held and frames received, one per ply in order, none past ply `upTo`.
 * @param {import('./ui/movelist.js').Frame[]} held @param {import('./ui/movelist.js').Frame[]} got @param {number} upTo */
function mergeFrames(held, got, upTo) {
  const byPly = new Map();
  for (const f of got) byPly.set(f.ply, f);
  for (const f of held) byPly.set(f.ply, f); // an update's frame is as new as the reply's
  return [...byPly.values()].filter((f) => f.ply <= upTo).sort((a, b) => a.ply - b.ply);
}

/** @param {Message} m */
function openingLine(m) {
  if (m.you === null || m.you === undefined) return `Watching ${m.title} as a spectator.`;
  const seat = m.seats[m.you];
  return `You play ${seat ? seat.seat_name : 'a seat'} in ${m.title}.`;
}

/** @param {Message} m @param {Message} cause */
function moveLine(m, cause) {
  const who = seatName(m, cause.seat);
  return cause.move ? `${who} plays ${cause.move}.` : `${who} moves.`;
}

/** @param {Message} m @param {number} seat */
export function seatName(m, seat) {
  const s = m.seats && m.seats[seat];
  return s ? s.seat_name : `Seat ${seat + 1}`;
}

/** One sentence for a change that is not a move. @param {Message} m @param {Message} cause */
function causeLine(m, cause) {
  const who = cause.seat === undefined || cause.seat === null ? 'Someone' : seatName(m, cause.seat);
  switch (cause.kind) {
    case 'join': return `${who} takes a seat.`;
    case 'leave': return `${who} leaves.`;
    case 'start': return 'The game starts.';
    case 'resign': return `${who} resigns.`;
    case 'draw-offer': return `${who} offers a draw.`;
    case 'draw-decline': return `${who} declines the draw.`;
    case 'draw': return 'The game is drawn by agreement.';
    case 'takeback-offer': return `${who} asks to take back a move.`;
    case 'takeback-accept': return `${who} accepts the takeback.`;
    case 'takeback-decline': return `${who} declines the takeback.`;
    case 'takeback': return 'A move is taken back.';
    case 'flag': return `${who} runs out of time.`;
    case 'claim': return `${who} claims the game: the opponent is gone.`;
    case 'abort': return 'The game is aborted.';
    case 'expire': return `The game ends: ${who} left it.`;
    default: return `${who}: ${cause.kind}.`;
  }
}

/** What a screen reader should hear at once about an update. @param {Message} m */
function announceFor(m) {
  if (m.status === 'over' && m.result) return `Game over. ${m.result.text}`;
  if (m.you !== null && m.you !== undefined && m.to_move === m.you && m.legal) return 'Your turn.';
  return '';
}
