// harness.mjs — what every browser test script shares: its arguments (--key value pairs, the
// required ones checked with a usage line, exit 2), its tally of checks (a failure printed
// as it happens; the run fails on any failure, on any skip, and when nothing passed), the
// server of its own and Debian's Chromium it runs against, and the passwords and the
// registration through the page that the server's rules accept.
import { spawn } from 'node:child_process';
import path from 'node:path';

/** @param {string[]} argv @param {string[]} needs @param {string} usage */
export function parseArgs(argv, needs, usage) {
  /** @type {Record<string, string>} */
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const need of needs) {
    if (!out[need]) {
      console.error(`usage: ${usage}`);
      process.exit(2);
    }
  }
  return out;
}

/** The checks of one run: check(ok, what), skip(what), and finish() that prints the tally
 * and exits. */
export function tally() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  return {
    /** @param {boolean} ok @param {string} what */
    check(ok, what) {
      if (ok) passed++;
      else {
        failed++;
        console.error(`FAIL: ${what}`);
      }
      return ok;
    },
    /** @param {string} what */
    skip(what) {
      skipped++;
      console.error(`SKIPPED: ${what}`);
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
      process.exit(failed || skipped || !passed ? 1 : 0); // a skip is no pass (issue 48)
    },
  };
}

/** Passwords the server's rule accepts (libpwquality, issue 49): every test that registers or
 * logs in uses these, so none goes on with a password the rule refuses. */
export const PASSWORD = 'lantern-quiet-harbor-97';
export const NEW_PASSWORD = 'copper-meadow-violin-42';

/** Register the guest of a page as the account `name` through the header's form, with
 * PASSWORD; resolves once the account menu shows.
 * @param {any} page @param {string} name @param {number} timeout */
export async function registerInPage(page, name, timeout) {
  await page.getByRole('button', { name: 'Register' }).click();
  await page.locator('.account-form input[autocomplete=username]').fill(name);
  await page.locator('.account-form input[type=password]').fill(PASSWORD);
  await page.locator('.account-form').getByRole('button', { name: 'Register' }).click();
  await page.waitForSelector('[data-testid=account-menu]', { timeout });
}

/** A `ramparts serve` of the test's own on a free loopback port with the database `db` (one
 * AI thread, no rate limit to trip over, and `extra` arguments); resolves with the process,
 * its address and its log once it listens, and rejects if it exits first.
 * @param {string} ramparts @param {string} db @param {string[]} [extra] */
export function startServer(ramparts, db, extra = []) {
  const proc = spawn(ramparts, ['serve', '--listen', '127.0.0.1:0', '--db', db, '--ai-threads', '1', '--rate', '100000', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {string[]} */
  const log = [];
  proc.stderr.on('data', (d) => log.push(String(d)));
  return new Promise((resolve, reject) => {
    let seen = '';
    proc.stdout.on('data', (d) => {
      seen += String(d);
      const m = /listening on (http:\/\/[^\s]+?)\/?\s/.exec(seen);
      if (m) resolve({ proc, url: m[1], log });
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}: ${log.join('')}`)));
  });
}

/** How the tests launch Debian's Chromium (docs/web.md: no Playwright download, nothing
 * fetched in the background, a fresh profile per context). */
export const CHROMIUM = {
  executablePath: process.env.RAMPARTS_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

/** The page at both sizes into `dir` as NAME-1280x800.png and NAME-390x844.png (the whole page
 * at 390 px; at 1280 px too when `whole`), the pointer out of the way.
 * @param {any} page @param {string} dir @param {string} name @param {boolean} [whole] */
export async function screenshots(page, dir, name, whole = false) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(1279, 799);
  await page.screenshot({ path: path.join(dir, `${name}-1280x800.png`), fullPage: whole, animations: 'disabled' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(dir, `${name}-390x844.png`), fullPage: true, animations: 'disabled' });
  await page.setViewportSize({ width: 1280, height: 800 });
}
