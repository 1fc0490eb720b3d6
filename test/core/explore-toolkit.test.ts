// The exploration toolkit: dom_overview (the seed's tool definition, parameters, response and
// text form), "N similar" grouping on a 50-row table, selector hints resolved through
// Playwright, the snapshot cache and its invalidation, dom_diff after typing and after a
// re-render, dom_search.
import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import { coreOf } from '../../src/browser/lens.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { DOM_OVERVIEW_TOOL, DomOverviewParams, type DomOverviewResponse, type GroupedInteractiveElement, type InteractiveElement } from '../../src/model/explore/explore.js';
import { displayShape, shownName } from '../../src/model/explore/overview.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

// ---- the tool definition ----

// The seed's definition (003), as written there.
const SEED = {
  name: 'dom_overview',
  description: 'Get a filtered overview of the current page showing structure, interactive elements, and key content. Returns element IDs that can be used with other DOM tools. This is your primary reconnaissance tool - use it first when exploring a new page or after navigation.',
  properties: {
    tabName: { type: 'string', description: 'Browser tab to analyze (defaults to active tab)' },
    filters: {
      type: 'object', description: 'Which content types to include',
      properties: {
        outline: { type: 'boolean', description: 'Include page structure (depth ≤ 2)' },
        interactives: { type: 'boolean', description: 'Include clickable/typeable elements' },
        headings: { type: 'boolean', description: 'Include headings and key text blocks' },
      },
    },
    visible: { type: 'boolean', description: 'Only include visible elements (default: true)' },
    viewport: { type: 'boolean', description: 'Only include elements in current viewport (default: true)' },
    max_rows: { type: 'number', description: 'Maximum elements per category (default: 30, max: 100)' },
  },
} as const;

type Json = Record<string, any>;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const UNSUPPORTED = ['default', 'examples', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentRequired', '$ref'];

/** OpenAI strict mode's rules for a function's parameters, as problems found. */
function strictProblems(s: Json, path: string, depth: number): string[] {
  const out: string[] = [];
  if (depth > 5) out.push(`${path}: nested deeper than 5 levels`);
  for (const k of UNSUPPORTED) if (k in s) out.push(`${path}: "${k}" is not supported in strict mode`);
  if (s.anyOf) {
    s.anyOf.forEach((b: Json, i: number) => out.push(...strictProblems(b, `${path}.anyOf[${i}]`, depth)));
    return out;
  }
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  for (const t of types) if (!TYPES.has(t)) out.push(`${path}: type ${JSON.stringify(t)}`);
  if (types.includes('object')) {
    if (s.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
    const keys = Object.keys(s.properties ?? {}).sort();
    if (JSON.stringify([...(s.required ?? [])].sort()) !== JSON.stringify(keys)) out.push(`${path}: required must list every property`);
    for (const k of keys) out.push(...strictProblems(s.properties[k], `${path}.${k}`, depth + 1));
  }
  return out;
}

/** The schema of a property without its null: what the seed wrote. */
function withoutNull(s: Json): Json {
  if (s.anyOf) return withoutNull(s.anyOf.find((b: Json) => b.type !== 'null'));
  const types = Array.isArray(s.type) ? s.type.filter((t: string) => t !== 'null') : [s.type];
  const out: Json = { type: types.length === 1 ? types[0] : types, description: s.description };
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, withoutNull(v as Json)]));
  return out;
}

test('the dom_overview tool definition: valid for strict mode, and the seed\'s name, descriptions and parameters', () => {
  const tool = DOM_OVERVIEW_TOOL as unknown as Json;
  assert.equal(tool.type, 'function');
  assert.equal(tool.function.strict, true);
  assert.match(tool.function.name, /^[A-Za-z0-9_-]{1,64}$/);
  assert.equal(tool.function.parameters.type, 'object', 'the root is an object, not a union');
  assert.deepEqual(strictProblems(tool.function.parameters, 'parameters', 1), []);
  assert.equal(tool.function.name, SEED.name);
  assert.equal(tool.function.description, SEED.description);
  assert.deepEqual(withoutNull(tool.function.parameters).properties, SEED.properties);
  // Whatever the definition lets a model send, the lens accepts; what it does not, the lens refuses.
  const nulls = { tabName: null, filters: null, visible: null, viewport: null, max_rows: null };
  assert.ok(DomOverviewParams.safeParse(nulls).success);
  assert.ok(DomOverviewParams.safeParse({ ...nulls, filters: { outline: true, interactives: null, headings: false }, max_rows: 100 }).success);
  assert.ok(DomOverviewParams.safeParse({}).success);
  assert.ok(!DomOverviewParams.safeParse({ ...nulls, extra: 1 }).success);
  assert.ok(!DomOverviewParams.safeParse({ filters: { outline: true, links: true } }).success);
});

test('dom_overview shows a class only where it is the best identifier, and never a build tool\'s hash', () => {
  assert.equal(displayShape('button', { class: 'rui-3mpO_ primary' }), 'button.primary');
  assert.equal(displayShape('div', { class: '_1jABB' }), 'div');
  assert.equal(displayShape('a', { class: 'link-headerLink--e919c nav-link' }), 'a.nav-link');
  assert.equal(displayShape('a', { class: 'nav-link' }, undefined, true), 'a', 'named by its text: no class');
  assert.equal(displayShape('section', { class: 'filters' }), 'section.filters');
  // Named by its own text: the tag, and for an input the type (what it takes); not its id or name attribute.
  assert.equal(displayShape('input', { id: 'mail', name: 'email' }, 'email', true), 'input[type=email]');
  // An attribute value is bare when it is a CSS identifier (valid CSS as it is), else quoted.
  assert.equal(displayShape('input', { name: 'q' }), 'input[name=q]');
  assert.equal(displayShape('input', { name: 'user[email]' }), 'input[name="user[email]"]');
  assert.equal(displayShape('select', { id: 'status', name: 'status' }, undefined, true), 'select');
  assert.equal(displayShape('select', { id: 'status', name: 'status' }), 'select#status', 'without a name of its own the id identifies it');
  assert.equal(shownName(' \ue800  Cart\n '), 'Cart');
  assert.equal(shownName('\ue801'), '');
});

test('selector hints do not depend on how fast the machine is: the same page gives the same hints on a slow clock', async () => {
  const { page, lens } = await h.open('dashboard.html');
  const hints = async () => (await lens.overview({ max_rows: 50 })).sections.interactives!.map((x) => x.selector_hints.join(' | '));
  const before = await hints();
  // A machine so busy that every reading of the clock is 50 ms later than the last.
  const frame = (await coreOf(lens).frames.known()).find((f) => f.ordinal === 0)!;
  await frame.target.callFunction(frame.frameId, `function () {
    const Real = Date; let skew = 0;
    globalThis.Date = new Proxy(Real, { construct: (t, args) => (skew += 50, args.length ? new Real(...args) : new Real(Real.now() + skew)) });
  }`, []);
  // A change, so that the answer comes from a new snapshot (hints are kept per snapshot).
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('button'), { textContent: 'One more' })));
  const after = await hints();
  assert.equal(after.length, before.length + 1);
  assert.deepEqual(after.slice(0, -1), before);
});

test('dom_overview on the dashboard: the seed\'s sections, fields and text form; hints that find their elements', async () => {
  const { page, lens } = await h.open('dashboard.html');
  // The 39 controls in view are more than the default 30 rows: max_rows=39, as the default answer's note says, shows them all.
  const ov = await lens.overview({ max_rows: 39 });
  assert.equal(ov.success, true);
  assert.match(ov.snapshotId, /^[0-9a-f]{8}$/);
  const lines = ov.text.split('\n');
  assert.match(lines[0], /^DOM OVERVIEW http:\/\/127\.0\.0\.1:\d+\/dashboard\.html$/);
  for (const heading of ['[OUTLINE]', '[INTERACTIVES 39]', '[HEADINGS]']) assert.ok(lines.includes(heading), heading);
  // The body is the JSON outline's root; the text starts with the regions.
  assert.match(ov.text, /\n\[OUTLINE\]\n\[\d+\] header \(3 children\)\n\[\d+\] nav\.sidebar \(6 children\)\n\[\d+\] main#content\n {2}\[\d+\] section\.filters \(1 child\)\n {2}\[\d+\] section\.data \(3 children\)\n\[\d+\] footer \(3 children\)\n/);
  // The best identifier only (seed 003: id > name > unique text > class): an element with a name of
  // its own is named by it (its id, name attribute, class and href are in the JSON and the hints).
  // Page text is bare where it is plain words (README, "Page text is marked as page text").
  assert.match(ov.text, /\n\[\d+\] select Status value=All \(4 options\)\n/);
  assert.match(ov.text, /\n\[\d+\] input\[type=search\] placeholder=Search projects\.\.\.\n/);
  assert.match(ov.text, /\n\[\d+\] input\[type=date\] Start date\n/);
  assert.match(ov.text, /\n\[\d+\] button Notifications\n/);
  assert.match(ov.text, /\n\[\d+\] a Acme PM\n/);
  assert.match(ov.text, /\n\[\d+\] a Legal\n\[\d+\] a Privacy\n/);
  assert.ok(ov.sections.interactives!.some((x) => 'ref' in x && (x as InteractiveElement).text === 'Legal' && (x as InteractiveElement).attributes.href === '/legal'));
  // Which numbers the page's elements get depends on when the tagger first ran (structure can be
  // numbered first on a loaded machine); a group's IDs are a run of its members, whatever they are.
  const edits = /\n\[(\d+),(\d+),…,(\d+)\] 8 similar: button\.row-action Edit\n/.exec(ov.text);
  assert.ok(edits, 'the eight Edit buttons are one group');
  const [first, second, last] = edits.slice(1).map(Number);
  assert.equal(last, first + 7 * (second - first), 'a stride of IDs, one per row');
  const nav = /\n\[(\d+)-(\d+)\] 6 similar: a Dashboard, Projects … Help\n/.exec(ov.text);
  assert.ok(nav, 'the six sidebar links are one group');
  assert.equal(Number(nav[2]) - Number(nav[1]), 5);
  assert.match(ov.text, /\n\[\d+\] h1 Projects\n\[\d+\] h2 Active projects\n/);
  assert.match(ov.text, /\n\[SUMMARY\] Snapshot [0-9a-f]{8} \| Shown 47 of 47 \| Viewport 1280x800 \| Scroll 0\/800$/);
  assert.deepEqual(ov.summary.viewport_info, { width: 1280, height: 800, scroll_position: 0, contentHeight: 800 });
  assert.deepEqual(ov.summary.truncatedSections, []);
  const outline = ov.sections.outline!;
  assert.deepEqual(outline.map((o) => `${o.depth} ${o.tag}${o.id_attr ? `#${o.id_attr}` : ''}`), ['0 body', '1 header', '1 nav', '1 main#content', '2 section', '2 section', '1 footer']);
  const status = ov.sections.interactives!.find((x): x is InteractiveElement => 'ref' in x && x.label === 'Status')!;
  assert.equal(status.id, `[${status.ref}]`);
  assert.equal(status.type, 'select');
  assert.deepEqual(status.attributes, { name: 'status' });
  assert.equal(status.selector_hints[0], '#status');
  // Every hint of every element shown finds exactly that element; a group's hint finds exactly the group.
  for (const row of ov.sections.interactives!) {
    if ('count' in row) {
      const g = row as GroupedInteractiveElement;
      for (const hint of g.selector_hints) {
        const ids = await page.locator(hint).evaluateAll((els) => els.map((e) => e.getAttribute('data-llm-id')));
        assert.deepEqual(ids, g.refs, hint);
      }
      continue;
    }
    assert.ok(row.selector_hints.length >= 2, `${row.id}: ${row.selector_hints.join(' | ')}`);
    for (const hint of row.selector_hints) {
      const ids = await page.locator(hint).evaluateAll((els) => els.map((e) => e.getAttribute('data-llm-id')));
      assert.deepEqual(ids, [row.ref], `${row.id}: ${hint}`);
    }
  }
  assert.ok(ov.sections.interactives!.some((x) => 'count' in x && (x as GroupedInteractiveElement).selector_hints[0] === 'button.row-action'));
  // The IDs act: the overview's refs are handed out like a snapshot's.
  const edit = ov.sections.interactives!.find((x): x is GroupedInteractiveElement => 'count' in x && x.group === 'button.row-action')!;
  assert.equal((await lens.act(`click(${edit.refs[2]})`)).ok, true);
});

test('dom_overview on the dashboard with the seed\'s defaults: every part the seed lists; max_rows counts a group\'s members', async () => {
  const { page, lens } = await h.open('dashboard.html');
  const ov = await lens.overview();
  // The whole text, IDs, port and snapshot ID masked (which numbers elements get depends on when
  // the tagger first ran). Seed 003: max_rows is "maximum elements per category" and a row is an
  // element, so the eight checkboxes count eight: 25 of the 39 controls fit in 30, the group of
  // eight Edit buttons does not, and the section stops there (a group is shown whole or not at
  // all); the summary says what max_rows shows them all. (main showed all 39 in 16 lines.)
  const masked = ov.text.replace(/\[\d[\d,…-]*\]/g, '[#]').replace(/:\d+\//, ':PORT/').replace(/Snapshot [0-9a-f]{8}/, 'Snapshot ID');
  assert.equal(masked, [
    'DOM OVERVIEW http://127.0.0.1:PORT/dashboard.html',
    '',
    '[OUTLINE]',
    '[#] header (3 children)',
    '[#] nav.sidebar (6 children)',
    '[#] main#content',
    '  [#] section.filters (1 child)',
    '  [#] section.data (3 children)',
    '[#] footer (3 children)',
    '',
    '[INTERACTIVES 25 of 39]',
    '[#] a Acme PM',
    '[#] button Notifications',
    '[#] button Ada Lovelace',
    '[#] 6 similar: a Dashboard, Projects … Help',
    '[#] input[type=search] placeholder=Search projects...',
    '[#] button Search',
    '[#] select Status value=All (4 options)',
    '[#] input[type=date] Start date',
    '[#] input[type=date] End date',
    '[#] button Apply Filters',
    '[#] button Reset',
    '[#] input[type=checkbox] Select all',
    '[#] 8 similar: input[type=checkbox] Select Apollo, Select Borealis … Select Hydra',
    '',
    '[HEADINGS]',
    '[#] h1 Projects',
    '[#] h2 Active projects',
    '',
    '[SUMMARY] Snapshot ID | Shown 33 of 47 | Truncated: interactives; max_rows=39 shows all | Viewport 1280x800 | Scroll 0/800',
  ].join('\n'));
  assert.equal(ov.sections.outline!.length, 7);
  assert.equal(ov.sections.interactives!.reduce((k, r) => k + ('count' in r ? r.count : 1), 0), 25);
  assert.deepEqual(ov.summary.truncatedSections, ['interactives']);
  assert.equal(ov.summary.shown, 34);
  // What the text leaves out of a line is in the JSON, and the hints still find exactly their element.
  const byText = (t: string) => ov.sections.interactives!.find((x): x is InteractiveElement => 'ref' in x && (x.text ?? x.label) === t)!;
  assert.deepEqual(byText('Start date').attributes, { name: 'start', type: 'date' });
  assert.equal(byText('Acme PM').attributes.href, '/');
  assert.equal(byText('Notifications').text, 'Notifications');
  for (const t of ['Status', 'Start date', 'Acme PM']) {
    const e = byText(t);
    assert.ok(e.selector_hints.length >= 2, t);
    for (const hint of e.selector_hints) assert.deepEqual(await page.locator(hint).evaluateAll((els) => els.map((x) => x.getAttribute('data-llm-id'))), [e.ref], `${t}: ${hint}`);
  }
});

test('dom_overview behind a consent wall: one note names the rows left free; a group partly covered says how much', async () => {
  const { page, lens } = await h.open('overview-covered.html');
  const wall = (await lens.overview({ filters: { interactives: true } })).text;
  const ids = (re: RegExp) => re.exec(wall)?.[1];
  const accept = ids(/\n\[(\d+)\] button Accept all\n/);
  const reject = ids(/\n\[(\d+)\] button Reject all(?:\n|$)/);
  assert.ok(accept && reject, wall);
  // Eleven of thirteen controls lie under the wall: the note says so once, with the two that do not.
  assert.match(wall, new RegExp(`\\[INTERACTIVES 13\\]\\nCovered by something on top: every row but \\[${accept}\\] \\[${reject}\\]\\n`), wall);
  assert.ok(!wall.includes('[covered]'), wall);
  // The wall goes; a bar covers the first three of the six navigation links (and nothing else).
  await page.evaluate(() => { document.getElementById('wall')!.remove(); document.getElementById('bar')!.style.display = 'block'; });
  const bar = (await lens.overview({ filters: { interactives: true } })).text;
  assert.match(bar, /\n\[\d+-\d+\] 6 similar: a News, Sport … Music \[3 of 6 covered\]\n/, bar);
  assert.ok(!/Covered by|\[covered\]/.test(bar), bar);
  assert.match(bar, /\| Shown 11 of 11 \|/, bar);
});

test('dom_overview text: icon glyphs out of names, one identifier per element, hrefs only where they identify, a group\'s shared shape', async () => {
  const { page, lens } = await h.open('explore-compact.html');
  const ov = await lens.overview();
  const line = (re: RegExp) => assert.match(ov.text, re, ov.text);
  line(/\n\[\d+\] button Cart\n/);
  // A button named only by an icon glyph has no name a reader can use: its class identifies it.
  line(/\n\[\d+\] button\.icon-search\n/);
  // A link without a name is identified by where it goes; a script link's href says nothing.
  line(/\n\[\d+\] a href=\/img\/logo-home\n/);
  line(/\n\[\d+\] button Menu\n\[\d+\] a\n/);
  line(/\n\[\d+\] a Help\n/);
  // Three labelled inputs are one group; its shape is what they share, not the first one's name attribute.
  line(/\n\[\d+-\d+\] 3 similar: input Quantity\n/);
  line(/\n\[\d+\] input\[type=email\] Email\n/);
  assert.ok(!/qty-1|#mail|#cart-button|#help-link|support\/help|javascript/.test(ov.text), ov.text);
  const rows = ov.sections.interactives!;
  const one = (pred: (e: InteractiveElement) => boolean) => rows.find((x): x is InteractiveElement => 'ref' in x && pred(x))!;
  assert.equal(one((e) => e.text?.includes('Cart') === true).text, '\ue800 Cart', 'the JSON keeps the name as read');
  assert.equal(one((e) => e.text === 'Help').attributes.href, '/support/help');
  assert.equal(one((e) => e.attributes.href?.startsWith('javascript:') === true).attributes.href, 'javascript:void(0)');
  assert.deepEqual(one((e) => e.label === 'Email').attributes, { name: 'email', type: 'email' });
  const qty = rows.find((x): x is GroupedInteractiveElement => 'count' in x)!;
  assert.equal(qty.count, 3);
  // Every hint of every row still finds exactly its element (a group's, exactly the group).
  for (const row of rows) {
    const want = 'count' in row ? (row as GroupedInteractiveElement).refs : [(row as InteractiveElement).ref];
    // (A group gets a hint only when one selector finds exactly its members: none does for inputs in separate labels.)
    if (!('count' in row)) assert.ok(row.selector_hints.length >= 1, row.id);
    for (const hint of row.selector_hints) assert.deepEqual(await page.locator(hint).evaluateAll((els) => els.map((x) => x.getAttribute('data-llm-id'))), want, `${row.id}: ${hint}`);
  }
  assert.ok(one((e) => e.label === 'Email').selector_hints.includes('#mail'));
  assert.ok(one((e) => e.text === 'Help').selector_hints.includes('#help-link'));
});

test('dom_overview truncation notes say how many rows each cut section had and showed', async () => {
  const { lens } = await h.open('dashboard.html');
  const ov = await lens.overview({ max_rows: 3 });
  assert.match(ov.text, /\n\[OUTLINE 3 of 6\]\n/);
  assert.match(ov.text, /\n\[INTERACTIVES 3 of 39\]\n/);
  assert.match(ov.text, /\n\[HEADINGS\]\n/, 'two headings fit in three rows');
  assert.match(ov.text, /\| Truncated: outline, interactives; max_rows=39 shows all \|/);
  const one = await lens.overview({ max_rows: 1, filters: { headings: true } });
  assert.match(one.text, /\n\[HEADINGS 1 of 2\]\n\[\d+\] h1 Projects\n\n/);
  assert.deepEqual(one.summary.truncatedSections, ['headings']);
});

test('dom_overview max_rows counts a group\'s members as rows; a group is shown whole unless that leaves most rows unused', async () => {
  const { lens } = await h.open('dashboard.html');
  const counted = (ov: DomOverviewResponse) => ov.sections.interactives!.reduce((k, r) => k + ('count' in r ? r.count : 1), 0);
  // Three single links and buttons, then the six sidebar links: with max_rows 8 the group does not
  // fit and three of eight rows are used, so it is cut to the five that fit (main showed 8 lines, 13 elements).
  const eight = await lens.overview({ max_rows: 8, filters: { interactives: true } });
  assert.equal(counted(eight), 8);
  assert.match(eight.text, /\n\[INTERACTIVES 8 of 39\]\n(?:\[\d+\] [^\n]+\n){3}\[\d+-\d+\] 5 similar: a Dashboard, Projects … Settings\n?/);
  // With 30 the eight Edit buttons do not fit after 25 rows: the section stops, the group is not split.
  const thirty = await lens.overview({ filters: { interactives: true } });
  assert.equal(counted(thirty), 25);
  assert.ok(!/Edit/.test(thirty.text), thirty.text);
  assert.match(thirty.text, /\| Truncated: interactives; max_rows=39 shows all \|/);
  // The max_rows the note names shows them all.
  const all = await lens.overview({ max_rows: 39, filters: { interactives: true } });
  assert.equal(counted(all), 39);
  assert.deepEqual(all.summary.truncatedSections, []);
  // A larger max_rows never shows fewer.
  let last = 0;
  for (let n = 1; n <= 39; n++) {
    const shown = counted(await lens.overview({ max_rows: n, filters: { interactives: true } }));
    assert.ok(shown >= last && shown <= n, `max_rows ${n}: ${shown} after ${last}`);
    last = shown;
  }
});

test('dom_overview parameters: filters, max_rows, viewport, visible; bad ones are BAD_INPUT', async () => {
  const { lens } = await h.open('explore-changes.html', { viewport: { width: 900, height: 200 } });
  const only = await lens.overview({ filters: { interactives: true } });
  assert.deepEqual(Object.keys(only.sections), ['interactives']);
  const nulls = await lens.overview({ tabName: null, filters: { outline: null, interactives: null, headings: null }, visible: null, viewport: null, max_rows: null });
  assert.deepEqual(Object.keys(nulls.sections), ['outline', 'interactives', 'headings']);
  const two = await lens.overview({ max_rows: 2, viewport: false });
  assert.equal(two.sections.interactives!.length, 2);
  assert.ok(two.summary.truncatedSections.includes('interactives'));
  assert.match(two.text, /Truncated: [a-z, ]*interactives[a-z, ]*; max_rows=\d+ shows all/);
  // Below the fold (200 px high): the long paragraph is only there with viewport: false.
  const inView = await lens.overview({ filters: { headings: true } });
  const whole = await lens.overview({ filters: { headings: true }, viewport: false });
  assert.ok(!inView.text.includes('thirty days'));
  assert.match(whole.text, /\[\d+\] p Tasks are kept for thirty days after they are done, then archived automatically\. \(80 chars\)/);
  // Hidden controls only when asked for.
  assert.ok(!whole.text.includes('Archive'));
  const hidden = await lens.overview({ filters: { interactives: true }, visible: false, viewport: false });
  assert.match(hidden.text, /\[\d+\] a Archive \[hidden\]/);
  for (const bad of [{ max_rows: 101 }, { max_rows: 2.5 }, { max_rows: 0 }, { filters: { links: true } }, { visible: 'yes' }, { refresh: true }, { filters: { outline: false, interactives: false, headings: false } }, { tabName: 'other' }]) {
    await assert.rejects(lens.overview(bad as never), (e) => isPagelensError(e, 'BAD_INPUT'), JSON.stringify(bad));
  }
});

test('grouping on a 50-row table: groups of 50 with every ID in row order, far fewer tokens than one line each', async () => {
  const { page, lens } = await h.open('explore-table50.html');
  const ov = await lens.overview({ viewport: false, max_rows: 100, filters: { interactives: true } });
  const groups = ov.sections.interactives!.filter((x): x is GroupedInteractiveElement => 'count' in x);
  // max_rows counts elements (seed 003): of the 151, the select-all box and the 50 row checkboxes
  // fit in 100; the 50 Edit buttons would not, and are not split (main showed all three groups).
  assert.deepEqual(groups.map((g) => [g.group, g.count]), [['input[type=checkbox]', 50]]);
  assert.match(ov.text, /\n\[\d+,\d+,…,\d+\] 50 similar: input\[type=checkbox\] Select Row 1 … Select Row 50\n?/);
  assert.match(ov.text, /\[INTERACTIVES 51 of 151\]/);
  assert.match(ov.text, /\| Truncated: interactives; max_rows=100 shows the first 100 \|/);
  // Each ID is its row's control, in row order.
  const model = await lens.model({ fullPage: true, structure: true });
  const rowOf = (gid: string) => { const n = model.nodes.find((x) => x.gid === gid)!; return model.structure[n.ctx!].name; };
  for (const g of groups) assert.deepEqual(g.refs.map(rowOf), Array.from({ length: 50 }, (_, i) => `Row ${i + 1}`), g.group);
  const hint = groups[0].selector_hints[0];
  assert.deepEqual(await page.locator(hint).evaluateAll((els) => els.map((e) => e.getAttribute('data-llm-id'))), groups[0].refs);
  const flat = await lens.overview({ viewport: false, max_rows: 100, filters: { interactives: true } }, { group: false });
  assert.equal(flat.snapshotId, ov.snapshotId);
  assert.equal(flat.sections.interactives!.length, 100);
  const [grouped, ungrouped] = [await countTokens(ov.text), await countTokens(flat.text)];
  assert.ok(grouped * 5 < ungrouped, `${grouped} tokens grouped, ${ungrouped} one per line (of the first 100)`);
  // L2: the table does not fit 40 lines; it is summarised, and expands with a larger budget.
  const main = await lens.expandRegion('R0');
  assert.deepEqual(main.collapsed.map((c) => c.id), ['R0.DataTable']);
  const table = await lens.expandRegion('R0.DataTable', { limit: 60 });
  assert.equal(table.text.split('\n').filter((l) => / \| BUTTON "Edit" @ref:\d+ \| BUTTON "Delete" @ref:\d+$/.test(l)).length, 50);
});

test('the snapshot cache: reused for 30 s; not after 300 DOM changes, a change a person sees, a navigation, 30 s, or refresh', async () => {
  const { page, lens } = await h.open('explore-changes.html');
  const first = (await lens.regions()).snapshotId;
  assert.equal((await lens.pageOverview()).snapshotId, first);
  await page.evaluate(() => (window as unknown as { tick(n: number): Promise<void> }).tick(300));
  assert.equal((await lens.regions()).snapshotId, first, '300 changes: still the same page');
  await page.evaluate(() => (window as unknown as { tick(n: number): Promise<void> }).tick(1));
  const second = (await lens.regions()).snapshotId;
  assert.notEqual(second, first, 'a 301st change');
  await page.evaluate(() => (window as unknown as { clockTick(): void }).clockTick());
  assert.equal((await lens.regions()).snapshotId, second, 'text ticking in place');
  await page.click('#grow');
  const third = (await lens.regions()).snapshotId;
  assert.notEqual(third, second, 'an element appeared');
  const fourth = (await lens.regions({ refresh: true })).snapshotId;
  assert.notEqual(fourth, third);
  const now = Date.now();
  mock.method(Date, 'now', () => now + 31_000);
  try {
    assert.notEqual((await lens.regions()).snapshotId, fourth, 'older than 30 s');
  } finally {
    mock.restoreAll();
  }
  const fifth = (await lens.regions()).snapshotId;
  await page.reload();
  assert.notEqual((await lens.regions()).snapshotId, fifth, 'navigated');
});

test('dom_diff after typing, a toggle, a re-render and a new item', async () => {
  const { lens } = await h.open('explore-changes.html');
  const look = () => lens.overview({ viewport: false, filters: { interactives: true } }, { group: false });
  const a = await look();
  const title = a.sections.interactives!.find((x): x is InteractiveElement => 'ref' in x && x.label === 'Title')!;
  assert.equal((await lens.act(`setValue(${title.ref}, "Pay rent")`)).ok, true);
  // Typing changes no DOM node: the overview still sees the field is not what the snapshot read.
  const b = await look();
  assert.notEqual(b.snapshotId, a.snapshotId);
  const typed = await lens.diff(a.snapshotId, b.snapshotId);
  assert.deepEqual(typed.changed, [{ ref: title.ref, kind: 'TEXTBOX', name: 'Title', changes: [{ field: 'value', from: '', to: 'Pay rent' }] }]);
  assert.deepEqual([typed.added, typed.removed, typed.rerendered], [[], [], []]);
  assert.match(typed.text, new RegExp(`\\n~ \\[${title.ref}\\] TEXTBOX "Title" value: "" → "Pay rent"$`));
  const button = (name: string) => b.sections.interactives!.find((x): x is InteractiveElement => 'ref' in x && x.text === name)!.ref;
  await lens.act(`click(${button('Re-render list')})`);
  const c = await look();
  const rerendered = await lens.diff(b.snapshotId, c.snapshotId);
  assert.equal(rerendered.navigated, false);
  assert.deepEqual(rerendered.added, []);
  assert.deepEqual(rerendered.removed, []);
  assert.deepEqual(rerendered.rerendered.filter((r) => r.kind === 'BUTTON').map((r) => r.name), ['Done', 'Done', 'Done']);
  assert.ok(rerendered.rerendered.every((r) => r.from !== r.to));
  assert.match(rerendered.text, /↻ \[\d+→\d+\] BUTTON "Done" re-rendered \(use \d+\)/);
  await lens.act(`click(${button('Pin')})`);
  const d = await look();
  const toggled = await lens.diff(c.snapshotId, d.snapshotId);
  assert.deepEqual(toggled.changed.map((x) => [x.name, x.changes.map((ch) => `${ch.field}:${ch.to}`)]), [['Pin', ['states:pressed']]]);
  assert.match(toggled.text, /~ \[\d+\] BUTTON "Pin" states: \+pressed/);
  await lens.act(`click(${button('Add item')})`);
  const e = await look();
  const grown = await lens.diff(d.snapshotId, e.snapshotId);
  assert.deepEqual(grown.added.map((x) => `${x.kind} ${x.name}`).sort(), ['BUTTON Done', 'ITEM Call the bank']);
  await assert.rejects(lens.diff(a.snapshotId, 'deadbeef'), (err) => isPagelensError(err, 'BAD_INPUT'));
});

test('dom_search: elements by text, role and attribute, text blocks, with IDs and regions', async () => {
  const { lens } = await h.open('dashboard.html');
  const apollo = await lens.search('Apollo');
  assert.deepEqual(apollo.elements.map((e) => `${e.kind} ${e.name} ${e.region}`), ['ITEM Apollo R2.ActiveProjects.DataTable', 'CHECKBOX Select Apollo R2.ActiveProjects.DataTable']);
  const edits = await lens.search('role:button edit');
  assert.equal(edits.elements.length, 8);
  assert.ok(edits.elements.every((e) => e.kind === 'BUTTON' && e.name === 'Edit'));
  const status = await lens.search('[name=status]');
  assert.deepEqual(status.elements.map((e) => [e.kind, e.name, e.region]), [['COMBOBOX', 'Status', 'R2.Filters.FilterOptions']]);
  assert.match(status.text, /^SEARCH "\[name=status\]": 1 element\n {2}COMBOBOX "Status" @ref:\d+ = "All" in R2\.Filters\.FilterOptions \(\[name\]\)$/);
  const text = await lens.search('© 2026');
  assert.deepEqual(text.textBlocks.map((t) => [t.tag, t.text, t.region]), [['span', '© 2026 Acme', 'R3']]);
  await assert.rejects(lens.search('  '), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('the command line: pagelens overview and pagelens regions; flags that do not apply are refused before a browser starts', async () => {
  const page = `${FIXTURES}/dashboard.html`;
  const ov = await runCli(['overview', page, '--filters', 'interactives', '--max-rows', '5']);
  assert.equal(ov.code, 0, ov.stderr);
  assert.match(ov.stdout, /^DOM OVERVIEW http:\/\/127\.0\.0\.1:\d+\/dashboard\.html\n\n\[INTERACTIVES \d+ of 39\]\n/);
  assert.match(ov.stdout, /Truncated: interactives; max_rows=39 shows all/);
  assert.match(ov.stderr, /^pagelens: dom_overview \d+ shown of \d+, \d+ tokens \(o200k, text form\), \d+ ms\n$/);
  const regions = await runCli(['regions', page, '--expand', 'R2.Filters', '--context', '#status']);
  assert.equal(regions.code, 0, regions.stderr);
  assert.match(regions.stdout, /^PAGE: .*\n[\s\S]*\nREGIONS:\n\n {2}\[R0\] HEADER \/body\/header\n[\s\S]*\nREGION: R2\.Filters REGION [\s\S]*\nELEMENT: COMBOBOX "Status" @ref:\d+ = "All"\n/);
  assert.match(regions.stderr, /^pagelens: 4 regions; L0 \d+, L1 \d+, L2 \d+, L3 \d+ tokens/);
  const noBrowser = { PAGELENS_CHROMIUM: '/nonexistent/chromium' };
  for (const args of [['overview', page, '--filters', 'links'], ['overview', page, '--max-rows', '500'], ['overview', page, '--pretty'], ['regions', page, '--limit', '5']]) {
    const r = await runCli(args, { env: noBrowser });
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /^pagelens: BAD_INPUT: /, args.join(' '));
  }
});
