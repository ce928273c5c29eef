// bench_wasm.mjs — the engine's speed in WebAssembly beside native (a benchmark, not a test):
// for each game the random-playout workload of `ramparts bench` (same seeds, so the action
// counts must agree) and the AI's search iterations per second of `ramparts bench --ai` on
// one thread, run natively and in Debian's Chromium (headless, through the client's own
// loader src/offline/engine.js). V8 first runs new code from its baseline compiler and moves
// hot functions to its optimizing one in the background while they run, so each game is
// first run in WebAssembly for two seconds of warm-up (the first call's speed is printed as
// "first"); every figure is then the median of RUNS runs (default 3), natively too, since
// the machine's load moves single runs. Then the download size of the offline client (every
// file of the built client, gzip). Budgets (issue 28): at least half the native playout speed; the whole
// offline client under 400 KB gzip. Prints one line per figure.
// Usage: node bench_wasm.mjs --ramparts BIN --wasm FILE --dist DIR --node-modules DIR
//        [--games N] [--ms N] [--runs N]
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
if (!args.ramparts || !args.wasm || !args.dist || !args['node-modules']) {
  console.error('usage: node bench_wasm.mjs --ramparts BIN --wasm FILE --dist DIR --node-modules DIR [--games N] [--ms N]');
  process.exit(2);
}
const require = createRequire(path.resolve(args['node-modules']) + path.sep);
const { chromium } = require('playwright-core');
const here = path.dirname(fileURLToPath(import.meta.url));
const GAMES = Number(args.games || 20000);
const MS = Number(args.ms || 1000);
const RUNS = Number(args.runs || 3);
const WARM_UP_MS = 2000;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The median of `RUNS` results of `run`, by `key`. @param {() => Promise<any>|any} run @param {string} key */
async function medianOf(run, key) {
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await run());
  const m = median(results.map((r) => r[key]));
  return results.find((r) => r[key] === m);
}

/** @param {string[]} cmd */
function native(cmd) {
  const r = spawnSync(args.ramparts, cmd, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ramparts ${cmd.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// The engine in a blank page of Chromium; calls go through page.evaluate.
const browser = await chromium.launch({
  executablePath: process.env.RAMPARTS_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage();
const loader = readFileSync(path.join(here, '..', 'src', 'offline', 'engine.js'), 'utf8');
await page.addScriptTag({ type: 'module', content: `${loader}\nwindow.loadEngine = loadEngine;` });
await page.waitForFunction(() => window.loadEngine);
await page.evaluate(async (bytes) => {
  window.engine = await window.loadEngine(new Uint8Array(bytes));
}, [...readFileSync(args.wasm)]);
/** @param {object} req */
const wasmCall = async (req) => {
  const a = await page.evaluate((r) => window.engine.call(r), req);
  if (a.error) throw new Error(a.error);
  return a;
};

try {
  const games = (await wasmCall({ op: 'games' })).games.map((/** @type {any} */ g) => g.id);
  let slowest = Infinity;
  for (const game of games) {
    const first = await wasmCall({ op: 'bench', game, games: Math.ceil(GAMES / 5) });
    for (const t0 = Date.now(); Date.now() - t0 < WARM_UP_MS;) await wasmCall({ op: 'bench', game, games: Math.ceil(GAMES / 20) });
    const n = await medianOf(() => JSON.parse(native(['bench', game, '--games', String(GAMES), '--json']))[0], 'games_per_s');
    const w = await medianOf(() => wasmCall({ op: 'bench', game, games: GAMES }), 'games_per_s');
    const share = w.games_per_s / n.games_per_s;
    slowest = Math.min(slowest, share);
    const same = w.actions === n.actions ? 'same actions' : `ACTIONS DIFFER (native ${n.actions})`;
    console.log(`playouts ${game}: native ${n.games_per_s.toFixed(0)} games/s (${n.ns_per_action.toFixed(1)} ns/action), ` +
      `wasm ${w.games_per_s.toFixed(0)} games/s (${w.ns_per_action.toFixed(1)} ns/action; first ${first.games_per_s.toFixed(0)}): ` +
      `${(100 * share).toFixed(0)}% of native, ${w.actions} actions, ${same}`);
  }
  console.log(`playouts: the slowest game runs at ${(100 * slowest).toFixed(0)}% of native in wasm (budget 50%)`);
  for (const game of games) {
    const n = await medianOf(() => ({ per_s: Number(/iters_per_s_1=(\d+)/.exec(native(['bench', game, '--ai', '--threads', '1']))[1]) }), 'per_s');
    await wasmCall({ op: 'bench_ai', game, ms: WARM_UP_MS });
    const w = await medianOf(() => wasmCall({ op: 'bench_ai', game, ms: MS }), 'iters_per_s');
    console.log(`search ${game} (${w.ai}): native ${n.per_s} iterations/s, wasm ${w.iters_per_s.toFixed(0)} iterations/s: ` +
      `${((100 * w.iters_per_s) / n.per_s).toFixed(0)}% of native`);
  }
  console.log(`wasm in ${await page.evaluate(() => navigator.userAgent)}`);
} finally {
  await browser.close();
}

// ---- download size ----
/** @param {string} dir @returns {string[]} */
const filesUnder = (dir) => readdirSync(dir).flatMap((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? filesUnder(p) : [p];
});
const wasmGz = gzipSync(readFileSync(args.wasm), { level: 9 }).length;
console.log(`size ramparts.wasm: ${statSync(args.wasm).size} bytes, ${wasmGz} gzip`);
// Every file the client is made of, without the build's precompressed copies (FILE.gz,
// FILE.br: the server sends one of them in place of FILE).
let total = 0;
let brotli = 0;
for (const f of filesUnder(args.dist).filter((p) => !/\.(gz|br)$/.test(p))) {
  const gz = gzipSync(readFileSync(f), { level: 9 }).length;
  total += gz;
  brotli += statSync(`${f}.br`, { throwIfNoEntry: false }) ? statSync(`${f}.br`).size : gz;
}
console.log(`size whole offline client (${args.dist}, every file): ${(total / 1024).toFixed(1)} KiB gzip, ` +
  `${(brotli / 1024).toFixed(1)} KiB as the server sends it to a browser that takes Brotli (budget 400 KB)`);
