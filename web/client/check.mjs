// check.mjs — the client's static checks for `make test`: TypeScript over the JavaScript
// (tsc --checkJs, with a tsconfig written into the build directory so the npm packages there
// resolve), ESLint over the client and its tests, and that the rules text the page shows
// (src/rules/text.js) is the one rules-gen.mjs makes from docs/rules. Exit 0 when both pass.
// Usage: node check.mjs NODE_MODULES_DIR WORK_DIR
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [nodeModulesArg, workArg] = process.argv.slice(2);
if (!nodeModulesArg || !workArg) {
  console.error('usage: node check.mjs NODE_MODULES_DIR WORK_DIR');
  process.exit(2);
}
const nodeModules = path.resolve(nodeModulesArg);
const work = path.resolve(workArg);
const here = path.dirname(fileURLToPath(import.meta.url));
mkdirSync(work, { recursive: true });

// ---- types ----
const tsconfig = {
  compilerOptions: {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom', 'dom.iterable'],
    strict: false,
    noImplicitThis: true,
    alwaysStrict: true,
    noFallthroughCasesInSwitch: true,
    noUnusedLocals: true,
    skipLibCheck: true,
    baseUrl: here,
    typeRoots: [path.join(nodeModules, '@types')],
    types: [],
    paths: { '*': [path.join(nodeModules, '*')] },
  },
  include: [path.join(here, 'src', '**', '*.js'), path.join(here, 'src', 'types.d.ts')],
};
const configPath = path.join(work, 'tsconfig.client.json');
writeFileSync(configPath, JSON.stringify(tsconfig, null, 2));
const tsc = spawnSync(process.execPath, [path.join(nodeModules, 'typescript', 'bin', 'tsc'), '-p', configPath], {
  stdio: 'inherit',
});
let failed = tsc.status !== 0;
console.log(`tsc --checkJs: ${tsc.status === 0 ? 'ok' : 'errors'}`);

// ---- lint ----
const require = createRequire(nodeModules + path.sep);
const { ESLint } = require('eslint');
const js = require('@eslint/js');
const globals = require('globals');
const eslint = new ESLint({
  cwd: here,
  errorOnUnmatchedPattern: false,
  overrideConfigFile: true,
  overrideConfig: [
    js.configs.recommended,
    {
      files: ['src/**/*.js'],
      languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
      rules: { 'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_' }], eqeqeq: 'error', 'no-var': 'error', 'prefer-const': 'error' },
    },
    {
      // The tests also hand functions to the page (page.evaluate), which run in the browser.
      files: ['*.mjs', 'tests/**/*.mjs'],
      languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
      rules: { eqeqeq: 'error', 'no-var': 'error', 'prefer-const': 'error' },
    },
  ],
});
const results = await eslint.lintFiles(['src/**/*.js', '*.mjs', 'tests/**/*.mjs']);
const formatter = await eslint.loadFormatter('stylish');
const text = await formatter.format(results);
if (text) console.log(text);
const errors = results.reduce((n, r) => n + r.errorCount, 0);
console.log(`eslint: ${results.length} files, ${errors} errors`);
if (errors) failed = true;

// ---- the rules text the page shows, generated from docs/rules ----
const rulesGen = spawnSync(process.execPath, [path.join(here, 'rules-gen.mjs'), '--check'], { stdio: 'inherit' });
if (rulesGen.status !== 0) failed = true;
console.log(failed ? '0 passed, 1 failed' : '1 passed, 0 failed');
process.exit(failed ? 1 : 0);
