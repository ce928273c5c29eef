// offline-build.mjs — build.mjs's part for offline play: the engine's Web Worker
// (src/offline/worker.js) bundled as a content-hashed module, ramparts.wasm copied under a
// content hash, the service worker (src/offline/sw.js, at /sw.js so it controls the whole
// site), the web app manifest, and offline-files.json: every file the service worker caches.
// Returns the content of index.html's meta ramparts-offline (where the worker, the engine and
// the build's version are), which the page reads.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** @param {Buffer|string} bytes */
const shortHash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

/**
 * @param {any} esbuild @param {{here: string, outDir: string, nodeModules: string, wasm: string}} where
 * @returns {Promise<string>}
 */
export async function buildWorkerAndEngine(esbuild, { here, outDir, nodeModules, wasm }) {
  const wasmBytes = readFileSync(wasm);
  // Eight upper-case characters, as esbuild names its files: the server marks such names
  // immutable (cmake/embed_web.cmake).
  const wasmName = `ramparts-${shortHash(wasmBytes).slice(0, 8).toUpperCase()}.wasm`;
  copyFileSync(wasm, path.join(outDir, wasmName));
  const common = {
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    platform: 'browser',
    nodePaths: [path.resolve(nodeModules)],
    legalComments: 'none',
    logLevel: 'warning',
  };
  const worker = await esbuild.build({
    ...common,
    entryPoints: { 'offline-worker': path.join(here, 'src', 'offline', 'worker.js') },
    entryNames: '[name]-[hash]',
    outdir: outDir,
    metafile: true,
  });
  const workerName = path.basename(Object.keys(worker.metafile.outputs)[0]);
  await esbuild.build({
    ...common,
    format: 'iife',
    entryPoints: [path.join(here, 'src', 'offline', 'sw.js')],
    outfile: path.join(outDir, 'sw.js'),
  });
  copyFileSync(path.join(here, 'manifest.webmanifest'), path.join(outDir, 'manifest.webmanifest'));
  return `worker=/${workerName} wasm=/${wasmName}`;
}

/**
 * After the page is written: the list the service worker caches, and the build's version
 * (a hash of every file), added to the page's meta.
 * @param {string} outDir @param {string[]} files the page's own files (not sw.js)
 */
export function writeOfflineList(outDir, files) {
  const cached = files.filter((f) => f !== 'sw.js' && f !== 'offline-files.json');
  const hash = createHash('sha256');
  for (const f of cached.sort()) hash.update(f).update(readFileSync(path.join(outDir, f)));
  const version = hash.digest('hex').slice(0, 12);
  const list = { version, files: ['/', ...cached.filter((f) => f !== 'index.html').map((f) => `/${f}`)] };
  writeFileSync(path.join(outDir, 'offline-files.json'), `${JSON.stringify(list)}\n`);
  const page = path.join(outDir, 'index.html');
  writeFileSync(page, readFileSync(page, 'utf8').replace('%OFFLINE_VERSION%', version));
  return version;
}
