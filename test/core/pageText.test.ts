// src/core/pageText.ts on its own (issue 44): the page's text as a reader sees it, over a fake engine
// port: headings and text blocks in document order, frame after frame, under global IDs, each block
// handed out with the document that issued it and the words its element must still show; a frame
// that could not be read, or had more than was read, is said.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPageText } from '../../src/core/pageText.js';
import type { ContentItem } from '../../src/model/contracts/content.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';

const item = (id: string, kind: ContentItem['kind'], name: string, value?: string): ContentItem => ({ id, kind, name, ...(value !== undefined && { value }), tag: 'p', box: [0, 0, 10, 10], up: [] });

function engine(frames: HostFrame[], items: Record<number, ContentItem[] | Error>, truncated: number[] = []): HostEngine & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    layout: (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use(frames, ['frame 4 could not be placed']),
    engine: async (f: HostFrame, call: string, args: unknown[]) => {
      assert.equal(call, 'content');
      asked.push(args[0]);
      const got = items[f.ordinal];
      if (got instanceof Error) throw got;
      return { doc: `doc-${f.ordinal}`, items: got, truncated: truncated.includes(f.ordinal), timeMs: 0 };
    },
    describe: (e: unknown) => (e as Error).message,
  } as unknown as HostEngine & { asked: unknown[] };
}

const frame = (ordinal: number, error?: string): HostFrame => ({ ordinal, url: `http://a/${ordinal}`, offset: [0, 0], handle: ordinal, ...(ordinal && { parent: 0 }), ...(error && { error }) });

test('headings and blocks in order, frame after frame, each handed out with its document and the words it shows', async () => {
  const e = engine([frame(0), frame(1)], {
    0: [item('1', 'heading', 'Orders', '1'), item('2', 'text', 'Three orders are waiting.'), item('3', 'value', 'Total', '42 €'), item('4', 'value', 'Empty'), item('5', 'heading', '')],
    1: [item('1', 'cell', 'Status', 'shipped')],
  });
  const shown: Array<[string, string, string]> = [];
  const text = await readPageText(e, (b, doc, shows) => shown.push([b.id, doc, shows]));
  assert.deepEqual(text.blocks, [
    { id: '1', frame: 0, level: 1, text: 'Orders' },
    { id: '2', frame: 0, text: 'Three orders are waiting.' },
    { id: '3', frame: 0, text: 'Total: 42 €' },
    { id: 'f1_1', frame: 1, text: 'Status: shipped' },
  ], 'a labelled value without its value, and an empty heading, are no lines');
  assert.deepEqual(shown, [['1', 'doc-0', 'Orders'], ['2', 'doc-0', 'Three orders are waiting.'], ['3', 'doc-0', ''], ['f1_1', 'doc-1', '']], 'a "Label: value" line is handed out with no words to check (they come from two elements)');
  assert.deepEqual(e.asked, [{ max: 2000, headings: true }, { max: 2000, headings: true }]);
  assert.deepEqual(text.warnings, ['frame 4 could not be placed']);
});

test('a frame that cannot be read, fails its read, or has more than was read is said; the others are still read', async () => {
  const e = engine([frame(0), frame(1), frame(2, 'cross-origin')], { 0: [item('1', 'text', 'Hello')], 1: new Error('frame crashed') }, [0]);
  const text = await readPageText(e);
  assert.deepEqual(text.blocks.map((b) => b.id), ['1']);
  assert.deepEqual(text.warnings, [
    'frame 4 could not be placed',
    'frame 2: cross-origin',
    'frame 0: more than 2000 text items; the rest is left out',
    'frame 1: its text could not be read (frame crashed)',
  ]);
});
