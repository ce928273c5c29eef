// wasm_parity.mjs — the engine in WebAssembly plays the same games as the native one: seeded
// games of every game run side by side in ramparts.wasm (through the client's own loader,
// src/offline/engine.js) and in the native `ramparts engine`, and after every move the two
// must agree on the full-state notation, the legal moves, every seat's and the spectator's
// view and the events each viewer is told; AI moves (rp_match_genmove, seeded from the match)
// must be the same moves; an undo must restore the same state; at the end the status and
// the record must match, and the native record replayed in WebAssembly reaches the same
// state. Before each random move, the preview an online page would show (issue 28): the world
// the server sends the seat to act (op sample) must look to the seat as the real state does,
// and a preview the engine calls determined must be exactly the events the referee then tells
// the seat. The review of each game's first finished run is the terminal's (ramparts review
// --json). A second part checks that bad requests are refused with a reason.
// Usage: node wasm_parity.mjs --ramparts BIN --wasm FILE [--games a,b] [--seeds N]
//        (prints 'N passed, N failed'; exit 0 when all pass)
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { loadEngine } from '../src/offline/engine.js';

const args = parseArgs(process.argv.slice(2));
const SEEDS = Number(args.seeds || 2);
const MAX_PLIES = 300;
// The options of each game's runs where they go beyond the defaults: more seats where a game
// allows them. Every other game of the registry plays at its defaults.
const OPTION_RUNS = {
  'danger-at-the-walls': [''],
  'king-of-danger': ['', 'players=2', 'players=5 dealer=3'],
  'rush-the-wall': ['', 'players=1', 'players=3 variant=vogel'],
  'castle-danger': ['turn-limit=4'],
  'walls-and-armies': [''],
};

let passed = 0;
let failed = 0;
/** @param {boolean} ok @param {string} what */
function check(ok, what) {
  if (ok) passed++;
  else {
    failed++;
    console.error(`FAIL: ${what}`);
  }
  return ok;
}

/** @param {string[]} argv */
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!out.ramparts || !out.wasm) {
    console.error('usage: node wasm_parity.mjs --ramparts BIN --wasm FILE [--games a,b] [--seeds N]');
    process.exit(2);
  }
  return out;
}

/** A small seeded generator for the choice of moves. @param {number} a */
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The native engine over its text protocol: one command, one answer (docs/protocol.md). */
class NativeEngine {
  /** @param {string} bin */
  constructor(bin) {
    this.proc = spawn(bin, ['engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buffer = '';
    /** @type {((s: string) => void)[]} */
    this.waiting = [];
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => {
      this.buffer += chunk;
      let end;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const answer = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const resolve = this.waiting.shift();
        if (resolve) resolve(answer);
      }
    });
  }

  /** The answer's text after '= ' (throws on '? reason'). @param {string} line */
  async ask(line) {
    const answer = await new Promise((resolve) => {
      this.waiting.push(resolve);
      this.proc.stdin.write(`${line}\n`);
    });
    if (!answer.startsWith('=')) throw new Error(`native engine refused '${line}': ${answer}`);
    return answer.replace(/^= ?/, '');
  }

  close() {
    this.proc.stdin.end('quit\n');
  }
}

/** The wasm engine's answer, which must not be a refusal. @param {any} engine @param {object} req */
function must(engine, req) {
  const a = engine.call(req);
  if (a.error) throw new Error(`wasm refused ${JSON.stringify(req)}: ${a.error}`);
  return a;
}

/**
 * Compare everything every viewer may see, and the referee's state, in both engines.
 * @param {NativeEngine} native @param {any} wasm @param {number} players @param {string} where
 * @param {boolean} afterMove
 */
async function compareAll(native, wasm, players, where, afterMove) {
  const nState = await native.ask('state');
  const wState = must(wasm, { op: 'state', match: 0 }).state;
  let ok = check(nState === wState, `${where}: state\n  native ${nState}\n  wasm   ${wState}`);
  const info = must(wasm, { op: 'info', match: 0 });
  const nLegal = info.over ? [] : (await native.ask('legal')).split('\n');
  const wLegal = info.over ? [] : must(wasm, { op: 'legal', match: 0, viewer: info.to_move }).legal.map((m) => m.text);
  ok = check(isDeepStrictEqual(nLegal, wLegal), `${where}: legal moves differ`) && ok;
  const nTurn = await native.ask('turn');
  ok = check(nTurn === (info.over ? 'over' : String(info.to_move)), `${where}: turn ${nTurn} vs ${info.to_move}`) && ok;
  for (const viewer of [...Array(players).keys(), 'spectator']) {
    const nView = JSON.parse(await native.ask(`view ${viewer}`));
    const wView = must(wasm, { op: 'view', match: 0, viewer }).view;
    ok = check(isDeepStrictEqual(nView, wView), `${where}: view of ${viewer} differs`) && ok;
    if (!afterMove) continue;
    const nEvents = JSON.parse(await native.ask(`events ${viewer}`));
    const wEvents = must(wasm, { op: 'events', match: 0, viewer }).events;
    ok = check(isDeepStrictEqual(nEvents, wEvents), `${where}: events told to ${viewer} differ`) && ok;
  }
  return { ok, info, legal: wLegal };
}

/** One seeded game played in both engines. @param {any} wasm @param {string} game @param {string} options @param {number} seed */
async function playGame(wasm, game, options, seed) {
  const native = new NativeEngine(args.ramparts);
  const opts = `seed=${seed} ${options}`.trim();
  const rng = mulberry32(seed * 7919 + game.length);
  const started = must(wasm, { op: 'new', game, options: opts });
  const nNew = await native.ask(`new ${game} ${opts}`);
  check(nNew === `${game} ${started.options}`, `${game} ${opts}: options in effect: ${nNew} vs ${started.options}`);
  const label = `${game} ${opts}`;
  let state = await compareAll(native, wasm, started.players, `${label} start`, false);
  let plies = 0;
  let undone = false;
  while (!state.info.over && plies < MAX_PLIES && state.ok) {
    const where = `${label} ply ${plies + 1}`;
    if (plies % 9 === 4) {
      // An AI move: the same search from the same seed must choose the same move.
      const nMove = (await native.ask('genmove easy')).split('\n')[0];
      const wMove = must(wasm, { op: 'genmove', match: 0, spec: 'easy' }).text;
      check(nMove === wMove, `${where}: the AI chose ${nMove} natively, ${wMove} in wasm`);
    } else {
      const move = state.legal[Math.floor(rng() * state.legal.length)];
      const preview = previewAsTheServerWould(wasm, game, state.info.to_move, move, seed * 1000 + plies);
      await native.ask(`play ${move}`);
      const played = must(wasm, { op: 'play', match: 0, move, viewer: state.info.to_move });
      checkPreview(preview, played.events, `${where} ${move}`);
    }
    plies++;
    if (!undone && plies === 6) {
      // The referee's undo takes the move back exactly in both; then it is played again.
      const before = must(wasm, { op: 'record', match: 0 }).record.trim().split('\n').pop();
      await native.ask('undo');
      must(wasm, { op: 'undo', match: 0 });
      await compareAll(native, wasm, started.players, `${where} after undo`, false);
      await native.ask(`play ${before}`);
      must(wasm, { op: 'play', match: 0, move: before });
      undone = true;
    }
    state = await compareAll(native, wasm, started.players, where, true);
  }
  const nStatus = await native.ask('status');
  check(nStatus === state.info.status, `${label}: status ${nStatus} vs ${state.info.status}`);
  // The protocol's answer starts on the line after '= ' and drops the final newline.
  const nRecord = (await native.ask('record')).replace(/^\n/, '');
  const wRecord = must(wasm, { op: 'record', match: 0 }).record;
  check(`${nRecord}\n` === wRecord, `${label}: records differ\n--- native\n${nRecord}\n--- wasm\n${wRecord}`);
  const loaded = must(wasm, { op: 'load_record', record: `${nRecord}\n` });
  const replayed = must(wasm, { op: 'state', match: loaded.match }).state;
  check(replayed === (await native.ask('state')), `${label}: the native record replayed in wasm ends elsewhere`);
  must(wasm, { op: 'free', match: loaded.match });
  if (seed === 101 && state.info.over) checkReview(wasm, `${nRecord}\n`, label);
  must(wasm, { op: 'free', match: 0 });
  native.close();
  console.log(`${label}: ${plies} plies${state.info.over ? ', over' : ''}`);
}

/** The review (docs/review.md) of seat 0 in WebAssembly is the terminal's, number for number:
 * the offline page and `ramparts review --json` agree. @param {any} wasm @param {string} record @param {string} label */
function checkReview(wasm, record, label) {
  const budget = 'iters=50';
  const inWasm = must(wasm, { op: 'review', record, seat: 0, budget });
  const out = spawnSync(args.ramparts, ['review', '-', '--seat', '0', '--json', '--budget', budget], { input: record, encoding: 'utf8' });
  check(out.status === 0, `${label}: ramparts review exits ${out.status}: ${out.stderr}`);
  if (out.status !== 0) return;
  check(isDeepStrictEqual(JSON.parse(out.stdout), inWasm), `${label}: the review differs\n--- native\n${out.stdout}\n--- wasm\n${JSON.stringify(inWasm)}`);
}

let previewsDetermined = 0;
let previewsOpen = 0;

/** An online game's preview: the world the server would send the seat to act (its `sample`:
 * the state determinized for that seat), and the preview of `move` on it.
 * @param {any} wasm @param {string} game @param {number} seat @param {string} move @param {number} seed */
function previewAsTheServerWould(wasm, game, seat, move, seed) {
  const truth = must(wasm, { op: 'state', match: 0 }).state;
  const sample = must(wasm, { op: 'sample', game, state: truth, viewer: seat, seed }).state;
  const view = must(wasm, { op: 'view', match: 0, viewer: seat }).view;
  const answer = must(wasm, { op: 'preview', game, state: sample, viewer: seat, moves: [move], seed: seed + 1 });
  return { preview: answer.previews[0], view, sampleView: answer.view };
}

/** A preview the engine called determined must be exactly what the referee then told the
 * seat; an open one names only what every world agreed on, never more than was told.
 * @param {any} p @param {any[]} told @param {string} where */
function checkPreview(p, told, where) {
  check(isDeepStrictEqual(p.sampleView, p.view), `${where}: the sample looks to the seat as the real state does`);
  check(p.preview.legal, `${where}: the move is legal in the sample`);
  if (p.preview.determined) {
    previewsDetermined++;
    check(isDeepStrictEqual(p.preview.events, told), `${where}: the determined preview is what the referee told\n  preview ${JSON.stringify(p.preview.events)}\n  told    ${JSON.stringify(told)}`);
  } else {
    previewsOpen++;
  }
}

/** Bad requests: refused with a reason, nothing changed. @param {any} wasm */
function badRequests(wasm) {
  const refusals = [
    [{ op: 'nope' }, /no operation 'nope'/],
    [{ op: 'new', game: 'chess' }, /no game 'chess'/],
    [{ op: 'new', game: 'castle-danger', options: 'players=9' }, /players/],
    [{ op: 'new', game: 'castle-danger', seats: ['human', 'grandmaster'] }, /grandmaster|AI/],
    [{ op: 'view', match: 5 }, /no match 5/],
    [{ op: 'view', match: -1 }, /'match' must be a whole number/],
    [{ op: 'load_record', record: '[game nope]\n' }, /record/],
  ];
  for (const [req, pattern] of refusals) {
    const a = wasm.call(req);
    check(typeof a.error === 'string' && pattern.test(a.error), `${JSON.stringify(req)} refused: ${JSON.stringify(a)}`);
  }
  const m = must(wasm, { op: 'new', game: 'danger-at-the-walls', options: 'seed=3' });
  const before = must(wasm, { op: 'state', match: m.match }).state;
  const illegal = wasm.call({ op: 'play', match: m.match, move: 'flag wall 99' });
  check(typeof illegal.error === 'string', `an illegal move is refused: ${JSON.stringify(illegal)}`);
  check(must(wasm, { op: 'state', match: m.match }).state === before, 'a refused move changes nothing');
  const other = must(wasm, { op: 'info', match: m.match }).to_move === 0 ? 1 : 0;
  check(must(wasm, { op: 'legal', match: m.match, viewer: other }).legal.length === 0,
    'the legal moves are told only to the seat to act');
  must(wasm, { op: 'free', match: m.match });
  const cd = must(wasm, { op: 'new', game: 'castle-danger', options: 'seed=3' });
  const cdState = must(wasm, { op: 'state', match: cd.match }).state;
  must(wasm, { op: 'free', match: cd.match });
  const previewRefusals = [
    [{ op: 'preview', game: 'castle-danger', state: cdState, viewer: 1, moves: [], seed: 1 }, /Red is not to act/],
    [{ op: 'preview', game: 'castle-danger', state: 'cd1 nonsense', viewer: 0, moves: [], seed: 1 }, /./],
    [{ op: 'preview', game: 'castle-danger', state: cdState, viewer: 0, moves: [3], seed: 1 }, /'moves' must list moves/],
    [{ op: 'sample', game: 'castle-danger', state: cdState, viewer: 4, seed: 1 }, /'viewer' must be a seat/],
  ];
  for (const [req, pattern] of previewRefusals) {
    const a = wasm.call(req);
    check(typeof a.error === 'string' && pattern.test(a.error), `${JSON.stringify(req).slice(0, 80)} refused: ${JSON.stringify(a)}`);
  }
  const bogus = must(wasm, { op: 'preview', game: 'castle-danger', state: cdState, viewer: 0, moves: ['fly to the moon'], seed: 1 });
  check(bogus.previews[0].legal === false && bogus.previews[0].events.length === 0, 'a preview of an illegal move says so and shows nothing');
  const notJson = wasm.call(/** @type {any} */ ({ toJSON: () => 'x' }));
  check(typeof notJson.error === 'string', 'a request that is not an object is refused');
}

const wasm = await loadEngine(readFileSync(args.wasm));
const registry = must(wasm, { op: 'games' }).games.map((/** @type {{id: string}} */ g) => g.id);
for (const game of Object.keys(OPTION_RUNS)) check(registry.includes(game), `${game} (OPTION_RUNS) is a game of the registry`);
const only = args.games ? args.games.split(',') : registry;
for (const game of only) {
  for (const options of OPTION_RUNS[game] || ['']) {
    for (let s = 1; s <= SEEDS; s++) {
      try {
        await playGame(wasm, game, options, 100 + s);
      } catch (e) {
        check(false, `${game} ${options} seed ${100 + s}: ${e instanceof Error ? e.stack : e}`);
        for (let h = 0; h < 16; h++) wasm.call({ op: 'free', match: h });
      }
    }
  }
}
badRequests(wasm);
console.log(`previews: ${previewsDetermined} determined (each equal to what the referee told), ${previewsOpen} open`);
if (!args.games) check(previewsDetermined > 0 && previewsOpen > 0, 'some previews are determined and some left open');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
