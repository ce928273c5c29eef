// worker.js — the Web Worker that referees an offline game against the computer: it runs the
// engine in WebAssembly (engine.js), plays the computer's seats (the AI searches here, so the
// page never freezes) and tells the page only what the human's seat may see: that seat's
// view, its legal moves when it is to act, and the events of each move as told to that seat.
// Messages from the page: {t: 'games'} | {t: 'start', game, options, human, level} |
// {t: 'resume', record, human} | {t: 'move', move} | {t: 'hint'} | {t: 'undo'} |
// {t: 'resign'} | {t: 'record'} | {t: 'review'} | {t: 'outcomes'} (the coach's: games/outcomes.js).
// Answers: {t: 'games'|'snapshot'|'hint'|'record'|'review'|'outcomes'|'error'}.
import { loadEngine } from './engine.js';
import { outcomesOf } from '../games/outcomes.js';

/** To the page (a worker's postMessage, not the window's). @param {object} msg */
const post = (msg) => /** @type {any} */ (self).postMessage(msg);

/** @type {Promise<import('./engine.js').Engine>} */
let enginePromise;
/** @type {{match: number, human: number, reshuffles: boolean}|null} */
let current = null;

/** The engine, loaded once from the URL the page gave. @param {string} url */
function engineAt(url) {
  if (!enginePromise) {
    enginePromise = fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`could not load the engine (${r.status})`);
        return r.arrayBuffer();
      })
      .then((bytes) => loadEngine(bytes));
  }
  return enginePromise;
}

/** A seed for undo's re-sampling and hints, unknown to the page. */
function freshSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 4294967296 + words[1];
}

/** @param {any} engine @param {object} req */
function must(engine, req) {
  const a = engine.call(req);
  if (a.error) throw new Error(a.error);
  return a;
}

/**
 * What the human's seat may see now, with the events it was told since the last snapshot.
 * The record (for resuming after a reload and for download) goes with it; `computer` says a
 * computer's move made it (the page shows those one at a time).
 * @param {any} engine @param {any[]} events @param {boolean} [computer]
 */
function snapshot(engine, events, computer = false) {
  if (!current) return;
  const { match, human } = current;
  const info = must(engine, { op: 'info', match });
  const view = must(engine, { op: 'view', match, viewer: human }).view;
  const legal = must(engine, { op: 'legal', match, viewer: human }).legal;
  const record = must(engine, { op: 'record', match }).record;
  post({ t: 'snapshot', info: publicInfo(info), you: human, view, legal, events, record, computer });
}

/** The match's summary without the referee's notation of anything. @param {any} info */
function publicInfo(info) {
  const { game, title, players, to_move, turn, moves, over, status, seats, returns } = info;
  return { game, title, players, to_move, turn, moves, over, status, seats, returns };
}

/** The computer plays every seat that is not the human's until the human is to act or the
 * game is over; each of its moves is a snapshot of its own, so the page shows them one by one.
 * @param {any} engine */
function computerTurns(engine) {
  while (current) {
    const info = must(engine, { op: 'info', match: current.match });
    if (info.over || info.to_move === current.human) return;
    const played = must(engine, { op: 'genmove', match: current.match, viewer: current.human });
    snapshot(engine, played.events, true);
  }
}

/** @param {any} engine @param {any} msg */
async function handle(engine, msg) {
  switch (msg.t) {
    case 'games':
      post({ t: 'games', games: must(engine, { op: 'games' }).games });
      return;
    case 'start': {
      if (current) engine.call({ op: 'free', match: current.match });
      current = null;
      const game = must(engine, { op: 'games' }).games.find((/** @type {any} */ g) => g.id === msg.game);
      if (!game) throw new Error(`no game '${msg.game}'`);
      const players = Number(msg.players) || game.default_players;
      if (!(msg.human >= 0 && msg.human < players)) throw new Error('choose one of the seats');
      const seats = [...Array(players).keys()].map((s) => (s === msg.human ? 'human' : msg.level));
      const options = `players=${players} seed=${freshSeed()}`;
      const match = must(engine, { op: 'new', game: msg.game, options, seats }).match;
      current = { match, human: msg.human, reshuffles: game.hidden_info || game.chance };
      snapshot(engine, []);
      computerTurns(engine);
      return;
    }
    case 'resume': {
      if (current) engine.call({ op: 'free', match: current.match });
      current = null;
      const loaded = must(engine, { op: 'load_record', record: msg.record });
      const game = must(engine, { op: 'games' }).games.find((/** @type {any} */ g) => g.id === loaded.game);
      current = { match: loaded.match, human: msg.human, reshuffles: game.hidden_info || game.chance };
      // As the terminal's `play --resume`: what the human could not see is dealt anew, so
      // nothing read from the saved record (it holds the seed) holds.
      const deal = must(engine, { op: 'deal_unseen', match: loaded.match, seed: freshSeed() });
      snapshot(engine, deal.dealt ? [{ kind: 'note', text: 'Everything you could not see has been dealt anew on resuming, so nothing read from the saved game holds.' }] : []);
      computerTurns(engine);
      return;
    }
    case 'record':
      if (current) post({ t: 'record', record: must(engine, { op: 'record', match: current.match }).record });
      return;
    default:
      break;
  }
  if (!current) throw new Error('no game in progress');
  const { match, human } = current;
  switch (msg.t) {
    case 'move': {
      const played = must(engine, { op: 'play', match, move: msg.move, viewer: human });
      snapshot(engine, played.events);
      computerTurns(engine);
      return;
    }
    case 'hint': {
      // The Hint button asks the hard search; the coach the level the server's coach asks
      // (HINT_LEVEL in src/server/session.c), so offline and online coaches suggest alike.
      const spec = msg.spec === 'easy' ? 'easy' : 'hard';
      const hint = must(engine, { op: 'hint', match, spec, seed: freshSeed() });
      post({ t: 'hint', text: hint.text, win_chance: hint.win_chance, ply: must(engine, { op: 'info', match }).moves });
      return;
    }
    case 'outcomes': {
      // As the server does for the seat to act: one world drawn from the human's view alone
      // (the referee's state never reaches the page), in which each legal move is previewed.
      const info = must(engine, { op: 'info', match });
      if (info.over || info.to_move !== human) return;
      const sample = engine.call({ op: 'sample', match, viewer: human, seed: freshSeed() });
      const legal = must(engine, { op: 'legal', match, viewer: human }).legal;
      // None (null) rather than an error: the coach then warns from the view alone.
      const found = sample.error ? null : outcomesOf(engine, info.game, sample.state, human, legal, freshSeed());
      post({ t: 'outcomes', ply: info.moves, outcomes: found ? found.outcomes : null });
      return;
    }
    case 'undo': {
      const undone = must(engine, { op: 'undo_fair', match, seat: human, seed: freshSeed() });
      snapshot(engine, [{ kind: 'undo', text: undoText(undone.taken, current.reshuffles), seat: human }]);
      return;
    }
    case 'review':
      // The human seat's moves judged from its own view (docs/review.md); the engine refuses a
      // game still going except for the human's own past moves against the computer.
      post({ t: 'review', review: must(engine, { op: 'review', match, seat: human }) });
      return;
    case 'resign':
      must(engine, { op: 'resign', match, seat: human });
      snapshot(engine, [{ kind: 'resign', text: 'You resign.', seat: human }]);
      return;
    default:
      throw new Error(`unknown message '${msg.t}'`);
  }
}

/** As the terminal game says it. @param {number} taken @param {boolean} reshuffles */
function undoText(taken, reshuffles) {
  const moves = `Took back ${taken} move${taken === 1 ? '' : 's'} (yours and the replies).`;
  return reshuffles ? `${moves} Everything you could not see has been shuffled again, so what you saw after that move no longer holds.` : moves;
}

// One message at a time, in order: a move waits for the computer's replies to the last one.
let queue = Promise.resolve();
self.onmessage = (/** @type {MessageEvent} */ e) => {
  const msg = e.data;
  queue = queue.then(async () => {
    try {
      await handle(await engineAt(msg.wasm), msg);
    } catch (err) {
      post({ t: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  });
};
