// The structure around the controls, read by the same walk as the controls: landmarks (elements
// and roles), named sections, forms, fieldsets, data tables with their rows, headings, and every
// node tied to the nearest of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const chain = (m: PageModel, i: number | undefined): string[] => {
  const out: string[] = [];
  for (let k = i; k !== undefined && k >= 0; k = m.structure[k].parent) out.unshift(`${m.structure[k].kind}:${m.structure[k].role}${m.structure[k].name ? ` "${m.structure[k].name}"` : ''}`);
  return out;
};

test('a dashboard: landmarks, the search form and its fieldset, the table and its rows', async () => {
  const { lens } = await h.open('dashboard.html');
  const m = await lens.model({ fullPage: true, structure: true, attributes: true });
  const top = m.structure.filter((s) => s.parent === -1).map((s) => `${s.role}${s.name ? ` "${s.name}"` : ''}`);
  assert.deepEqual(top, ['banner', 'navigation "Main"', 'main "Projects"', 'contentinfo']);
  const node = (name: string) => m.nodes.find((n) => n.name === name)!;
  assert.deepEqual(chain(m, node('Status').ctx), ['landmark:main "Projects"', 'landmark:region "Filters"', 'landmark:search', 'fieldset:group "Filter options"']);
  assert.deepEqual(chain(m, node('Search projects...').ctx), ['landmark:main "Projects"', 'landmark:region "Filters"', 'landmark:search']);
  const table = m.structure.find((s) => s.kind === 'table')!;
  assert.equal(table.rows, 8);
  // Each table row is a row of the structure; its checkbox and its Edit button belong to it.
  const rows = m.structure.filter((s) => s.kind === 'row' && s.role === 'row');
  assert.equal(rows.length, 8);
  assert.deepEqual(rows.map((r) => r.name), ['Apollo', 'Borealis', 'Cygnus', 'Draco', 'Eridanus', 'Fornax', 'Gemini', 'Hydra']);
  const edits = m.nodes.filter((n) => n.name === 'Edit');
  assert.equal(edits.length, 8);
  assert.deepEqual(edits.map((e) => m.structure[e.ctx!].name), rows.map((r) => r.name));
  assert.equal(m.structure[rows[0].parent].kind, 'table');
  // The rows' items carry their budget.
  assert.deepEqual(m.nodes.filter((n) => n.role === 'item').slice(0, 2).map((n) => [n.name, n.value]), [['Apollo', '$1200'], ['Borealis', '$2400']]);
  assert.deepEqual(m.headings.map((x) => `h${x.level} ${x.text}`), ['h1 Projects', 'h2 Active projects']);
  assert.equal(m.headings[1].ctx >= 0 && m.structure[m.headings[1].ctx].kind, 'section');
  assert.deepEqual(node('Status').attrs, { id: 'status', name: 'status' });
  assert.equal(m.structure.find((s) => s.role === 'navigation' && s.name === 'Pagination')?.kind, 'landmark');
  // Structure is asked for: a plain snapshot neither reads it nor grows for it.
  const plain = await lens.model({ fullPage: true });
  assert.equal(plain.structure.length, 0);
  assert.equal(plain.nodes.filter((n) => n.ctx !== undefined).length, 0);
});

test('a page without landmarks still has its forms, headings and repeated rows', async () => {
  const { lens } = await h.open('no-landmarks.html');
  const m = await lens.model({ fullPage: true, structure: true });
  assert.deepEqual(m.structure.filter((s) => s.kind !== 'row').map((s) => s.kind), ['form']);
  assert.deepEqual(m.headings.map((x) => x.text), ['Sign in', 'Latest news']);
  assert.deepEqual(m.nodes.filter((n) => n.role === 'item').map((n) => n.name), ['The vote passed 7 to 2.', 'Open until 9 pm on weekdays.', 'Saturdays from May.']);
});
