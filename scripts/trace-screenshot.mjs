// Takes docs/trace-viewer.png: the offline demo run recorded with --trace, opened in the viewer in
// headless Chromium, on the step that places the order, with one ID hovered.
// Usage: npm run build --silent && node scripts/trace-screenshot.mjs [out.png]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../dist/src/browser/chromium.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'docs/trace-viewer.png');
const tmp = mkdtempSync(join(tmpdir(), 'pagelens-trace-shot-'));
try {
  const zip = join(tmp, 'demo.zip');
  const html = join(tmp, 'view.html');
  execFileSync(process.execPath, [join(root, 'bin/pagelens.js'), 'demo', '--trace', zip], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(process.execPath, [join(root, 'bin/pagelens.js'), 'trace', 'show', zip, '--out', html], { stdio: 'inherit' });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 }, deviceScaleFactor: 1 });
  await page.goto('file://' + html);
  const steps = page.locator('#timeline .tl');
  // The step that clicks (the order is placed): the acted-on box and its line are marked.
  const n = await steps.count();
  let pick = 0;
  for (let i = 0; i < n; i++) if (/click\(/.test(await steps.nth(i).textContent() ?? '')) pick = i;
  await steps.nth(pick).click();
  const lines = page.locator('pre.obs .ln.has');
  await lines.nth(Math.min(6, (await lines.count()) - 1)).hover();
  await page.screenshot({ path: out });
  await browser.close();
  process.stderr.write(`wrote ${out}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
