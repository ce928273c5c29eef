// harness.mjs — what every browser test script shares: its arguments (--key value pairs, the
// required ones checked with a usage line, exit 2) and its tally of checks (a failure printed
// as it happens; the run fails on any failure, on any skip, and when nothing passed).

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
