// transport.js — the one WebSocket to `ramparts serve` (docs/server-protocol.md), with no game
// code: requests with ids and their direct replies, a ping every few seconds with a pong
// timeout that forces a reconnect, sends queued while (re)connecting, moves resent until
// acknowledged, and an online/offline class on the document for the UI.

const PING_EVERY_MS = 4000;
const PONG_TIMEOUT_MS = 9000;
const RESEND_AFTER_MS = 2500;
const RESEND_CHECK_MS = 1200;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 8000;

/**
 * @typedef {{[key: string]: any}} Message
 * @typedef {(msg: Message) => void} Listener
 * @typedef {'connecting'|'online'|'offline'} ConnState
 */

export class Transport {
  /**
   * @param {string} url the WebSocket address
   * @param {{onMessage: Listener, onState: (s: ConnState) => void, onOpen: () => void}} hooks
   *   onOpen runs on every (re)connection, before queued sends go out.
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<string, {resolve: (m: Message) => void, msg: Message, ackable: boolean, quiet: boolean, sentAt: number}>} */
    this.waiting = new Map();
    /** @type {Message[]} */
    this.queue = [];
    this.attempts = 0;
    this.pongDue = 0;
    this.lastPingSent = 0;
    this.latencyMs = null;
    /** @type {ConnState} */
    this.state = 'connecting';
    this.stopped = false;
    this.pingTimer = 0;
    this.resendTimer = 0;
    this.reconnectTimer = 0;
  }

  start() {
    this.connect();
    this.resendTimer = window.setInterval(() => this.resendUnacked(), RESEND_CHECK_MS);
    window.addEventListener('online', () => this.reconnectNow());
  }

  connect() {
    window.clearTimeout(this.reconnectTimer);
    this.setState('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.setState('online');
      this.hooks.onOpen();
      const queued = this.queue;
      this.queue = [];
      for (const msg of queued) this.write(msg);
      // Moves not yet acknowledged go again: the server answers a retry with dup:true.
      for (const w of this.waiting.values()) if (w.ackable) this.write(w.msg);
      this.schedulePing(0);
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      window.clearTimeout(this.pingTimer);
      this.failPending();
      this.setState('offline');
      if (!this.stopped) this.scheduleReconnect();
    };
    ws.onerror = () => ws.close();
  }

  /** Requests other than moves cannot be retried safely (a second `create` makes a second
   * game): they are answered with a local error when the connection drops under them. */
  failPending() {
    for (const [id, w] of this.waiting) {
      if (w.ackable) continue;
      this.waiting.delete(id);
      w.resolve({ t: 'error', code: 'disconnected', message: 'the connection dropped; try again', id });
    }
  }

  scheduleReconnect() {
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempts);
    this.attempts++;
    this.reconnectTimer = window.setTimeout(() => this.connect(), delay);
  }

  /** Drop the connection and open a new one at once (a lost pong, the browser back online). */
  reconnectNow() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.close();
      this.failPending();
    }
    this.connect();
  }

  /** @param {ConnState} s */
  setState(s) {
    if (this.state === s) return;
    this.state = s;
    document.documentElement.classList.toggle('online', s === 'online');
    document.documentElement.classList.toggle('offline', s !== 'online');
    this.hooks.onState(s);
  }

  /** @param {number} delay */
  schedulePing(delay) {
    window.clearTimeout(this.pingTimer);
    this.pingTimer = window.setTimeout(() => this.ping(), delay);
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.lastPingSent = performance.now();
    this.write({ t: 'ping' });
    this.pongDue = this.lastPingSent + PONG_TIMEOUT_MS;
    this.pingTimer = window.setTimeout(() => {
      if (this.pongDue && performance.now() >= this.pongDue) this.reconnectNow();
    }, PONG_TIMEOUT_MS);
  }

  /** @param {string} data */
  receive(data) {
    /** @type {Message} */
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.t === 'pong') {
      this.pongDue = 0;
      this.latencyMs = Math.round(performance.now() - this.lastPingSent);
      this.schedulePing(PING_EVERY_MS);
      return;
    }
    if (msg.id !== undefined && this.waiting.has(String(msg.id))) {
      const w = this.waiting.get(String(msg.id));
      this.waiting.delete(String(msg.id));
      w.resolve(msg);
      if (w.quiet && msg.t === 'error') return; // its page says the refusal where it belongs
    }
    this.hooks.onMessage(msg);
  }

  /** @param {Message} msg */
  write(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  /**
   * Send a message and resolve with its direct reply (its success message or an error).
   * An ackable message (a move) is resent until its reply comes: retries are idempotent. A
   * quiet one's refusal goes to the caller alone (a form that shows it under its field), not
   * to the page's notice too.
   * @param {Message} msg
   * @param {{ackable?: boolean, quiet?: boolean}} [opts]
   * @returns {Promise<Message>}
   */
  request(msg, opts = {}) {
    const id = `c${this.nextId++}`;
    const full = { ...msg, id };
    return new Promise((resolve) => {
      this.waiting.set(id, { resolve, msg: full, ackable: !!opts.ackable, quiet: !!opts.quiet, sentAt: performance.now() });
      this.write(full);
    });
  }

  /** Fire and forget (ping, lobby unsubscribe). @param {Message} msg */
  send(msg) {
    this.write(msg);
  }

  resendUnacked() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    for (const w of this.waiting.values()) {
      if (w.ackable && now - w.sentAt > RESEND_AFTER_MS) {
        w.sentAt = now;
        this.write(w.msg);
      }
    }
  }
}
