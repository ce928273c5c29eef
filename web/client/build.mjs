// build.mjs — bundles the browser client (src/main.js with Preact, htm and uPlot; src/app.css
// with uPlot's CSS) into OUT_DIR as content-hashed files plus index.html that loads them, so
// the strict CSP of `ramparts serve` holds (no inline script or style) and cached files never
// go stale. The engine's WebAssembly and the offline files (worker, service worker, manifest,
// offline-files.json) come from offline-build.mjs. Each text file (and ramparts.wasm) also
// gets FILE.gz (gzip -9) and FILE.br (Brotli, quality 11) beside it, made once here so the
// server sends them without compressing per request (cmake/embed_web.cmake pairs them with
// their file). Prints each file's size and the compressed totals (the size budget).
// Usage: node build.mjs NODE_MODULES_DIR OUT_DIR WASM_FILE (CMake runs it after `npm ci`).
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { buildWorkerAndEngine, writeOfflineList } from './offline-build.mjs';

const [nodeModules, outDir, wasm] = process.argv.slice(2);
if (!nodeModules || !outDir || !wasm) {
  console.error('usage: node build.mjs NODE_MODULES_DIR OUT_DIR WASM_FILE');
  process.exit(2);
}
const require = createRequire(path.resolve(nodeModules) + path.sep);
const esbuild = require('esbuild');
const here = path.dirname(fileURLToPath(import.meta.url));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const result = await esbuild.build({
  entryPoints: { app: path.join(here, 'src', 'main.js') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  platform: 'browser',
  nodePaths: [path.resolve(nodeModules)],
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  legalComments: 'none',
  outdir: outDir,
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
if (!js || !css) {
  console.error('build.mjs: esbuild made no .js or no .css file');
  process.exit(1);
}
const offline = await buildWorkerAndEngine(esbuild, { here, outDir, nodeModules, wasm });
const page = readFileSync(path.join(here, 'index.html'), 'utf8')
  .replace('%APP_JS%', js)
  .replace('%APP_CSS%', css)
  .replace('%OFFLINE%', `${offline} version=%OFFLINE_VERSION%`);
writeFileSync(path.join(outDir, 'index.html'), page);
copyFileSync(path.join(here, 'favicon.svg'), path.join(outDir, 'favicon.svg'));
writeOfflineList(outDir, readdirSync(outDir));

// Precompressed copies of the text files and the engine; a copy no smaller than its file is
// not kept. (The service worker's list, written above, names the files themselves only.)
const TEXT = /\.(js|css|html|svg|json|webmanifest|wasm)$/;
let gzipTotal = 0;
let brotliTotal = 0;
for (const f of readdirSync(outDir)) {
  if (!TEXT.test(f)) continue;
  const bytes = readFileSync(path.join(outDir, f));
  const gz = gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  if (gz.length < bytes.length) writeFileSync(path.join(outDir, `${f}.gz`), gz);
  if (br.length < bytes.length) writeFileSync(path.join(outDir, `${f}.br`), br);
  gzipTotal += Math.min(gz.length, bytes.length);
  brotliTotal += Math.min(br.length, bytes.length);
  if (process.env.RP_BUILD_VERBOSE) console.log(`${f}: ${bytes.length} bytes, ${gz.length} gzip, ${br.length} brotli`);
}
if (process.env.RP_BUILD_VERBOSE) console.log(`total shipped: ${gzipTotal} bytes gzip, ${brotliTotal} brotli`);
