// Targets an agent could not name (issue 42): a plain element that reacts to the pointer, a line of
// text, a native button inside a widget's role=tab header, and a label given a double click after
// the page's first read. Each gets an ID that every tool taking an ID accepts, in the library's
// reads (lens) as in the MCP face's. Real Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';
import { McpClient } from '../support/mcp-parity-helpers.js';

interface Node { i: string; r: string; n: string; s?: string; in?: string }

let harness: Harness;
let mcp: McpClient;
let site: StaticServer;

before(async () => {
  harness = await startHarness();
  site = await serveFolder(FIXTURES, { replacements: {} });
  mcp = await McpClient.start(['--offline', '--tools', 'all']);
});
after(async () => {
  await mcp?.close();
  await site?.close();
  await harness?.close();
});

const find = (nodes: Node[], name: string, role?: string): Node | undefined => nodes.find((n) => n.n === name && (!role || n.r === role));
const outText = (page: import('playwright-core').Page, sel: string) => page.locator(sel).textContent();

describe('the library (lens)', () => {
  test('a plain div with a mouseenter effect and one restyled by :hover are listed as hover targets; a hover by ID fires the effect', async () => {
    const { lens, page } = await harness.open('targets-plain.html', { loaded: true });
    const nodes = (await lens.snapshot()).interactive_tree as Node[];
    const card = find(nodes, 'Hover target');
    assert.ok(card && card.s?.split(',').includes('hover'), `the div is listed as a hover target: ${JSON.stringify(nodes)}`);
    assert.ok(find(nodes, 'Colour swatch')?.s?.split(',').includes('hover'), `the :hover-styled div is listed: ${JSON.stringify(nodes)}`);
    const r = await lens.act({ type: 'hover', id: card.i });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(await outText(page, '#hover-out'), 'Hovered: yes');
  });

  test('a native button inside a role=tab header keeps its own ID, says its container, and a click by that ID reaches the button', async () => {
    const { lens, page } = await harness.open('targets-nested.html', { loaded: true });
    const nodes = (await lens.snapshot()).interactive_tree as Node[];
    const tab = find(nodes, 'Section one', 'tab');
    const button = find(nodes, 'Section one', 'btn');
    assert.ok(tab && button, `the tab and its button are both listed: ${JSON.stringify(nodes)}`);
    assert.equal(button.in, tab.i, 'the button says which tab holds it');
    assert.match(await lens.text(), new RegExp(`^${button.i} btn "?Section one"? \\(in ${tab.i}\\)$`, 'm'));
    assert.equal((await lens.act({ type: 'click', id: button.i })).ok, true);
    assert.equal(await outText(page, '#out'), 'Button: Section one');
    assert.equal((await lens.act({ type: 'click', id: tab.i })).ok, true);
    assert.equal(await outText(page, '#out'), 'Tab: h1');
  });

  test('lens.snapshot() gives a label its own ID when the page renders it, with its double click, after the first read; a dblclick reaches the label', async () => {
    const { lens, page } = await harness.open('targets-late-label.html', { loaded: true });
    const first = (await lens.snapshot()).interactive_tree as Node[];
    const field = first.find((n) => n.r === 'inp');
    assert.ok(field, JSON.stringify(first));
    // As Angular's TodoMVC: the to-do (its label listening for dblclick) appears after it is entered.
    assert.equal((await lens.act({ type: 'type', id: field.i, value: 'Buy milk' })).ok, true);
    assert.equal((await lens.act({ type: 'press', id: field.i, keys: 'Enter' })).ok, true);
    const nodes = (await lens.snapshot()).interactive_tree as Node[];
    const label = nodes.find((n) => n.n === 'Buy milk' && n.r !== 'chk');
    assert.ok(label, `the label is listed with an ID of its own, not only as its checkbox's name: ${JSON.stringify(nodes)}`);
    assert.equal((await lens.act({ type: 'dblclick', id: label.i })).ok, true);
    assert.equal(await outText(page, '#out'), 'Editing: Buy milk', 'the label\'s listener ran, not the checkbox\'s');
  });
});

describe('the MCP face', { concurrency: false }, () => {
  test('hover a plain div by ID; screenshot a line of text by the ID its text line carries; that ID is refused in the next document', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${site.url}targets-plain.html` });
    const card = find(nav.snapshot!.interactive_tree as Node[], 'Hover target');
    assert.ok(card && card.s?.includes('hover'), JSON.stringify(nav.snapshot));
    const h = await mcp.call('browser_hover', { id: card.i });
    assert.equal(h.isError, false, h.text);
    assert.match((await mcp.call('browser_page_text')).text, /^\S+ Hovered: yes$/m);

    const line = (nav.text ?? []).find((t) => t.includes('The quick brown fox'));
    const id = /^(\S+) The quick brown fox/.exec(line ?? '')?.[1];
    assert.ok(id && /^(f\d+_)?\d+$/.test(id), `the text line starts with its element's ID: ${JSON.stringify(nav.text)}`);
    const shot = await mcp.call('browser_take_screenshot', { id });
    assert.equal(shot.isError, false, shot.text);
    const png = Buffer.from(shot.images[0].data, 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.ok(png.readUInt32BE(20) < 60, `an image of the line, not of the page (height ${png.readUInt32BE(20)})`);

    await mcp.answer('browser_navigate', { url: `${site.url}targets-plain.html` });
    const again = await mcp.call('browser_take_screenshot', { id });
    assert.equal(again.isError, true, again.text);
    assert.match(again.text, /NAVIGATED/);
  });
});
