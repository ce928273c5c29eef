// bench.mjs — the browser client's budgets, measured (a benchmark, not a test): the bytes of
// JavaScript and CSS the server actually sends a new visitor's Chromium (compressed as the
// browser asks, budget 250 KB), and the time from navigation to the
// first render of a game's board over loopback (budget 1 s), in Debian's Chromium driven by
// playwright-core against a `ramparts serve` of its own. Prints one line per figure.
// Usage: node bench.mjs --ramparts BIN --node-modules DIR --dist DIR [--runs N]
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
if (!args.ramparts || !args['node-modules'] || !args.dist) {
  console.error('usage: node bench.mjs --ramparts BIN --node-modules DIR --dist DIR [--runs N]');
  process.exit(2);
}
const RUNS = Number(args.runs || 10);
const require = createRequire(path.resolve(args['node-modules']) + path.sep);
const { chromium } = require('playwright-core');

// ---- size: the files as built ----
for (const f of readdirSync(args.dist)) {
  if (!/\.(js|css)$/.test(f)) continue;
  const bytes = readFileSync(path.join(args.dist, f));
  console.log(`size ${f}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzip -9`);
}

// ---- first render ----
const work = mkdtempSync(path.join(tmpdir(), 'ramparts-bench-'));
const server = spawn(args.ramparts, ['serve', '--listen', '127.0.0.1:0', '--db', path.join(work, 'db'), '--quiet'],
  { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let seen = '';
  server.stdout.on('data', (d) => {
    seen += String(d);
    const m = /listening on (http:\/\/\S+?)\/?\s/.exec(seen);
    if (m) resolve(m[1]);
  });
});
const browser = await chromium.launch({
  executablePath: process.env.RAMPARTS_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
// Record, from inside the page, when the board first has content (navigation start = 0).
const marker = () => {
  const seen = () => document.querySelector('.board-area > *');
  new MutationObserver((_, obs) => {
    if (seen()) {
      window.__firstBoard = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  // ---- size: the bytes sent to a new visitor (body as sent, after compression) ----
  const visitor = await browser.newContext();
  const first = await visitor.newPage();
  const sent = [];
  first.on('requestfinished', (request) => sent.push(request.sizes().then((sz) => ({ request, sz }))));
  await first.goto(`${url}/`);
  await first.waitForSelector('[data-testid=play-ai]:not([disabled])');
  let code = 0;
  let all = 0;
  for (const { request, sz } of await Promise.all(sent)) {
    const response = await request.response();
    const name = new URL(request.url()).pathname;
    const encoding = (response && (await response.headerValue('content-encoding'))) || 'none';
    all += sz.responseBodySize + sz.responseHeadersSize;
    if (/\.(js|css)$/.test(name)) code += sz.responseBodySize;
    console.log(`sent ${name}: ${sz.responseBodySize} bytes (${encoding}) + ${sz.responseHeadersSize} of headers`);
  }
  console.log(`size sent JS+CSS: ${(code / 1024).toFixed(1)} KiB (budget 250 KB); everything over HTTP on a first visit ` +
    `${(all / 1024).toFixed(1)} KiB with headers`);
  await visitor.close();

  const owner = await browser.newPage();
  await owner.goto(`${url}/`);
  await owner.waitForSelector('[data-testid=play-ai]:not([disabled])');
  // Every game the server offers (its registry), in its order.
  const types = (await (await fetch(`${url}/api/v1/types`)).json()).map((t) => t.type);
  for (const type of types) {
    await owner.goto(`${url}/#/`);
    await owner.selectOption('[data-testid=ai-game]', type);
    await owner.selectOption('[data-testid=ai-level]', 'random');
    await owner.click('[data-testid=play-ai]');
    await owner.waitForSelector('[data-testid=table]');
    const id = /#\/game\/(\d+)/.exec(owner.url())[1];
    const cold = [];
    const warm = [];
    for (let i = 0; i < RUNS; i++) {
      // A new visitor: empty cache, a new guest, the game opened as a spectator.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.addInitScript(marker);
      await page.goto(`${url}/#/game/${id}`);
      await page.waitForFunction(() => window.__firstBoard !== undefined);
      cold.push(await page.evaluate(() => window.__firstBoard));
      // The same visitor again: a reload with the bundle cached.
      await page.reload();
      await page.waitForFunction(() => window.__firstBoard !== undefined);
      warm.push(await page.evaluate(() => window.__firstBoard));
      await context.close();
    }
    console.log(`first render ${type}: new visitor median ${median(cold).toFixed(0)} ms (max ${Math.max(...cold).toFixed(0)}), ` +
      `reload median ${median(warm).toFixed(0)} ms (max ${Math.max(...warm).toFixed(0)}), ${RUNS} runs (budget 1000 ms)`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
