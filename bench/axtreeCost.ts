// The accessibility-tree path against one raw Accessibility.getFullAXTree call, on a folder of
// saved pages (default: the corpus's shop set): time, tokens, and the share of interactive AX
// nodes that carry a data-llm-id.  Run: node dist/bench/axtreeCost.js [folder]
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockExternalRequests, launchChromium } from '../src/browser/chromium.js';
import { Lens } from '../src/browser/lens.js';
import { gotoSettled } from '../src/browser/goto.js';
import { serveFolder } from '../src/browser/static.js';
import { countTokens } from '../src/model/renderers/tokens.js';

const folder = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus/shop');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const browser = await launchChromium();
const server = await serveFolder(folder);
const axMs: number[] = [], rawMs: number[] = [], axTokens: number[] = [], rawTokens: number[] = [], share: number[] = [];
let tagged = 0, interactive = 0, errors = 0;
for (const file of readdirSync(folder).filter((f) => f.endsWith('.html'))) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await blockExternalRequests(context);
  const page = await context.newPage();
  page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
  try {
    const lens = await Lens.attach(page);
    await gotoSettled(page, server.url + encodeURIComponent(file));
    await lens.snapshot({ fullPage: true });
    await lens.axtree(); // warm
    let t = performance.now();
    const ax = await lens.axtree();
    axMs.push(performance.now() - t);
    axTokens.push(ax.meta.estimatedTokens);
    tagged += ax.meta.taggedInteractive;
    interactive += ax.meta.interactiveNodes;
    share.push(ax.meta.taggedInteractive / Math.max(1, ax.meta.interactiveNodes));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Accessibility.getFullAXTree');
    t = performance.now();
    const raw = await cdp.send('Accessibility.getFullAXTree');
    rawMs.push(performance.now() - t);
    rawTokens.push(await countTokens(JSON.stringify(raw.nodes)));
  } catch (e) {
    errors++;
    process.stderr.write(`${file}: ${(e as Error).message.split('\n')[0]}\n`);
  }
  await context.close();
}
await browser.close();
await server.close();
console.log(`${axMs.length} pages, ${errors} errors`);
console.log(`axtree mode:            median ${median(axMs).toFixed(1)} ms, ${median(axTokens)} tokens (outline)`);
console.log(`raw getFullAXTree call: median ${median(rawMs).toFixed(1)} ms, ${median(rawTokens)} tokens (raw JSON)`);
console.log(`interactive AX nodes with a data-llm-id: pooled ${(100 * tagged / interactive).toFixed(1)}% (${tagged}/${interactive}), per-page median ${(100 * median(share)).toFixed(1)}%`);
