// build.mjs — bundles the analysis report's script (report.js, its CSS and Vega-Lite with
// vega-embed) into one minified file that the ramparts binary inlines into every report.
// Usage: node build.mjs NODE_MODULES_DIR OUT.js (CMake runs it after `npm ci`).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [nodeModules, out] = process.argv.slice(2);
if (!nodeModules || !out) {
  console.error('usage: node build.mjs NODE_MODULES_DIR OUT.js');
  process.exit(2);
}
const require = createRequire(path.resolve(nodeModules) + path.sep);
const esbuild = require('esbuild');
const here = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
  entryPoints: [path.join(here, 'report.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  platform: 'browser',
  loader: { '.css': 'text' },
  nodePaths: [path.resolve(nodeModules)],
  legalComments: 'eof',
  outfile: out,
  logLevel: 'warning',
});
// The bundle goes inside a <script> element: nothing in it may close that element.
if (readFileSync(out, 'utf8').toLowerCase().includes('</script')) {
  console.error(`${out}: the bundle contains "</script" and cannot be inlined`);
  process.exit(1);
}
