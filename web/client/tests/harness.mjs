// harness.mjs — what every browser test script shares: its arguments (--key value pairs, the
// required ones checked with a usage line, exit 2), its tally of checks (a failure printed
// as it happens; the run fails on any failure, on any skip, and when nothing passed), and the
// passwords and the registration through the page that the server's rules accept.

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
