// check.mjs — opens an analysis report in headless Chromium (Debian's, driven by
// playwright-core) with the network off, and fails unless the page logs no console error,
// throws nothing, and draws every plot (each has SVG marks). Optionally saves a screenshot.
// Usage: node check.mjs NODE_MODULES_DIR REPORT.html [SCREENSHOT.png [HEIGHT | #SECTION]]
// (the screenshot shows the top HEIGHT pixels of the page, default all of it, or one section:
// #verdict for the verdict alone, as docs/analysis/*-verdict.png)
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [nodeModules, report, screenshot, height] = process.argv.slice(2);
if (!nodeModules || !report) {
  console.error('usage: node check.mjs NODE_MODULES_DIR REPORT.html [SCREENSHOT.png]');
  process.exit(2);
}
const { chromium } = createRequire(path.resolve(nodeModules) + path.sep)('playwright-core');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems = [];
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.route('**/*', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort());
  const page = await context.newPage();
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request (the report must need none): ${req.url()}`));
  await page.goto(pathToFileURL(path.resolve(report)).href);
  await page.waitForFunction(() => window.reportStatus && window.reportStatus.done, null, { timeout: 60000 });
  const status = await page.evaluate(() => {
    const plots = [...document.querySelectorAll('.plot')];
    return {
      reported: window.reportStatus,
      plots: plots.map((p) => ({
        id: p.dataset.plot,
        marks: p.querySelectorAll('svg .role-mark path, svg .role-mark rect, svg .role-mark line').length,
      })),
      sections: [...document.querySelectorAll('section')].map((s) => s.id),
    };
  });
  if (status.plots.length === 0) problems.push('no plots in the report');
  if (status.reported.plots !== status.plots.length) problems.push('plot count mismatch');
  for (const p of status.plots) if (p.marks === 0) problems.push(`plot ${p.id} drew no marks`);
  for (const e of status.reported.errors) problems.push(`plot failed: ${e}`);
  if (screenshot && height && height.startsWith('#')) {
    await page.locator(height).screenshot({ path: screenshot });
  } else if (screenshot) {
    const full = await page.evaluate(() => document.documentElement.scrollHeight);
    const clip = { x: 0, y: 0, width: 1200, height: Math.min(full, Number(height) || full) };
    await page.screenshot({ path: screenshot, fullPage: true, clip });
  }
  console.log(`${path.basename(report)}: ${status.plots.length} plots ` +
    `(${status.plots.map((p) => `${p.id}:${p.marks}`).join(' ')}); sections ${status.sections.join(' ')}`);
} finally {
  await browser.close();
}
for (const p of problems) console.error(`FAIL: ${p}`);
process.exit(problems.length ? 1 : 0);
