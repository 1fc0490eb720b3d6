// The page's text is readable from the default answer: after a navigation, a bounded section of
// headings and text blocks (frames included, "N more" when cut), and browser_page_text for the
// rest, page by page. Through `pagelens mcp` over stdio on real Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StaticServer } from '../../src/browser/static.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { McpClient, twoOriginsAndMcp } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let a: StaticServer;
let closeAll: () => Promise<void> = async () => {};

before(async () => { ({ mcp, a, close: closeAll } = await twoOriginsAndMcp()); });
after(() => closeAll());

/** The page's words of text lines, without the element ID each starts with ("12 ", "f1_3 "). */
const words = (lines: string[] | undefined): string[] => (lines ?? []).map((l) => l.replace(/^(f\d+_)?\d+ /, ''));

/** The text section of a navigation answer, waiting for frames that load after DOMContentLoaded. */
async function textAfterNavigating(url: string, want: RegExp): Promise<string[]> {
  const nav = await mcp.answer('browser_navigate', { url });
  let text = nav.text ?? [];
  for (let k = 0; k < 30 && !want.test(text.join('\n')); k++) {
    // Frames may still be loading when the answer is built: a second reading shows them.
    const r = await mcp.call('browser_page_text');
    text = r.text.split('\n');
    await new Promise((res) => setTimeout(res, 100));
  }
  return text;
}

describe('pagelens mcp: the page\'s text in the default answer', { concurrency: false }, () => {
  test('a navigation answer carries the headings and text blocks, in order', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${a.url}parity-text.html` });
    const text = words(nav.text);
    assert.ok((nav.text ?? []).slice(0, 6).every((l) => /^\d+ /.test(l)), `every line starts with its element's ID: ${JSON.stringify(nav.text)}`);
    assert.deepEqual(text.slice(0, 6), ['# Greetings', 'Hello, world!', '## Details', 'First point of the list', 'Second point of the list', 'Price: $12.50'], JSON.stringify(nav));
    assert.ok(nav.snapshot!.interactive_tree.some((n) => n.n === 'Continue'), 'the tree is still there');
  });

  test('a nested iframe\'s heading and paragraph appear, marked with their frame', async () => {
    const text = await textAfterNavigating(`${a.url}parity-text.html`, /A paragraph two frames deep/);
    const joined = text.join('\n');
    // A line in a frame: its ID names the frame.
    assert.match(joined, /^f\d+_\d+ ### Inner frame heading/m, joined);
    assert.match(joined, /^f\d+_\d+ A paragraph two frames deep\./m, joined);
  });

  test('an <h1> on a data: page', async () => {
    const nav = await mcp.answer('browser_navigate', { url: 'data:text/html,<title>Data</title><h1>Made of data</h1><p>Inline content.</p>' });
    assert.deepEqual(words(nav.text), ['# Made of data', 'Inline content.'], JSON.stringify(nav));
  });

  test('a long page: the section stays within its ceiling and says how many more; browser_page_text pages the rest', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${a.url}parity-long.html` });
    const text = words(nav.text);
    assert.equal(text[0], '# A long article');
    const last = text[text.length - 1];
    const more = /^and (\d+) more text blocks: browser_page_text/.exec(last);
    assert.ok(more, last);
    assert.equal(Number(more[1]) + text.length - 2, 300, `shown + more = 300 paragraphs: ${text.length - 2} shown, ${more[1]} more`);
    assert.ok(await countTokens((nav.text ?? []).join('\n')) <= 320, `section within its ceiling: ${await countTokens((nav.text ?? []).join('\n'))} tokens`);
    const p1 = await mcp.call('browser_page_text', { maxTokens: 1000 });
    const footer = /\(page 1 of (\d+): browser_page_text page=2 for more\)/.exec(p1.text);
    assert.ok(footer, p1.text.slice(-200));
    assert.ok(await countTokens(p1.text) <= 1000 + 30, 'a page within maxTokens (plus its footer)');
    const pages = Number(footer[1]);
    const lastPage = await mcp.call('browser_page_text', { maxTokens: 1000, page: pages });
    assert.match(lastPage.text, /Paragraph 300 of the long article/);
    assert.match(lastPage.text, new RegExp(`\\(page ${pages} of ${pages}\\)`));
  });
});
