// a11y.mjs — axe-core for the browser tests (browser.mjs, offline.mjs, players.mjs): runs it
// on a page as it stands, in the passes asked for (colour scheme and viewport), and returns
// what it found, so each test makes a check of every finding not accepted below (issue 32,
// docs/web.md "Accessible and responsive").
import { readFileSync } from 'node:fs';

// axe-core's rules for WCAG 2.0-2.2 A and AA, and its best practices (heading order, regions).
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
// Every rule in the light scheme at both sizes; colour contrast in the dark one at 1280x800
// (the colours do not change with the width).
export const AXE_PASSES = [['light', 1280, 800], ['light', 390, 844], ['dark', 1280, 800]];
// Moderate or minor findings accepted, rule id -> the reason, which docs/web.md repeats;
// anything critical or serious, or not listed here, fails. None is accepted today.
/** @type {{[rule: string]: string}} */
export const AXE_ACCEPTED = {};

/** axe-core's script, read from the build's node_modules. @param {(id: string) => string} resolve */
export function axeSource(resolve) {
  return readFileSync(resolve('axe-core/axe.min.js'), 'utf8');
}

/**
 * Run axe-core on the page in each pass; the page is left at its size, in the light scheme.
 * Returns each finding with where it was seen and whether it is accepted, and how many rules
 * applied in all (so a caller can tell that axe-core ran).
 * @param {any} page @param {string} source @param {any[]} [passes]
 */
export async function axeFindings(page, source, passes = AXE_PASSES) {
  const size = page.viewportSize();
  if (!await page.evaluate(() => 'axe' in window)) await page.evaluate(source);
  const out = [];
  let rules = 0;
  for (const [scheme, width, height] of passes) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    const found = await page.evaluate(async ([tags, dark]) => {
      const options = dark ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : { runOnly: { type: 'tag', values: tags } };
      const r = await window.axe.run(document, { ...options, resultTypes: ['violations'] });
      return {
        rules: r.passes.length + r.violations.length,
        violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').split('\n')[1] || ''}`) })),
      };
    }, [AXE_TAGS, scheme === 'dark']);
    rules += found.rules;
    for (const v of found.violations) {
      const accepted = (v.impact === 'moderate' || v.impact === 'minor') && !!AXE_ACCEPTED[v.id];
      out.push({ ...v, where: `${scheme}, ${width}x${height}`, accepted });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size || { width: 1280, height: 800 });
  return { findings: out, rules };
}

/**
 * axe-core on the page in the passes given, each finding a check of the test's tally (a
 * finding accepted above passes); returns the findings.
 * @param {any} page @param {string} source @param {(ok: boolean, what: string) => boolean} check
 * @param {string} label @param {any[]} [passes]
 */
export async function axeChecks(page, source, check, label, passes = AXE_PASSES) {
  const { findings, rules } = await axeFindings(page, source, passes);
  check(rules > 0, `${label}: axe-core ran (${rules} rules applied)`);
  for (const v of findings) check(v.accepted, `${label} (${v.where}): axe-core ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`);
  return findings;
}
