// The README's lens.act() examples, printed from real runs on the project's own fixtures:
//   npm run build && node scripts/act-examples.mjs
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { attach, findChromium, CHROMIUM_ARGS, blockExternalRequests } from '../dist/src/index.js';
import { serveFolder } from '../dist/src/browser/static.js';

const server = await serveFolder(fileURLToPath(new URL('../test/fixtures', import.meta.url)));
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await blockExternalRequests(context);
const show = (label, r) => console.log(`// ${label}\n${JSON.stringify(r, null, 1).replace(/\n\s*/g, ' ')}\n`);
const id = (snap, name) => snap.interactive_tree.find((n) => n.n === name).i;

let page = await context.newPage();
let lens = await attach(page);
await page.goto(server.url + 'actions-cookie.html');
let snap = await lens.snapshot();
show('refused: something covers the button', await lens.act(`click(${id(snap, 'Buy now')})`));
const accept = id(snap, 'Accept all');
show('success', await lens.act(`click(${accept})`));
show('success, verified', await lens.act(`click(${id(snap, 'Buy now')})`, { expect: 'element_appears:Bought!' }));

page = await context.newPage(); lens = await attach(page);
await page.goto(server.url + 'actions-rerender.html');
snap = await lens.snapshot();
await page.evaluate(() => window.rerender());
show('recovered: the button was re-rendered between snapshot and click', await lens.act(`click(${id(snap, 'Save')})`));

page = await context.newPage(); lens = await attach(page);
await page.goto(server.url + 'actions-form.html');
snap = await lens.snapshot();
await lens.act(`setValue(${id(snap, 'Email')}, "not-an-email")`);
show('verification failed: the click happened, the page showed an error', await lens.act(`click(${id(snap, 'Sign up')})`, { expect: { type: 'navigation', timeout: 1500 } }));
await lens.act(`setValue(${id(snap, 'Email')}, "ada@example.com")`);
await lens.act(`click(${id(snap, 'Sign up')})`, { expect: 'navigation' });
show('refused: an ID from the page before the navigation', await lens.act(`setValue(${id(snap, 'Email')}, "x")`));
await browser.close();
await server.close();
