// The engine names the most common targets by a shortcut (src/page/semantics/names.ts fastName): a link or
// button holding one text, a box to tick inside its only label. Each shortcut must say exactly
// what the full computation says, wherever it answers: the engine's debug call `namePaths` gives
// both for every element it tagged, and every shortcut answer is compared here, on fixtures made
// to trip it and on real pages.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { engineCall } from '../../src/browser/engine.js';
import { coreOf, type Lens } from '../../src/browser/lens.js';
import { serveFolder } from '../../src/browser/static.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

interface Path { id: string; role: string; fast: string | null; full: string }

/** Tags the whole page, then asks the main frame's engine for both names of every tagged element. */
async function namePaths(lens: Lens): Promise<Path[]> {
  await lens.model({ fullPage: true });
  const main = (await coreOf(lens).frames.known()).find((f) => f.ordinal === 0)!;
  return engineCall(main, 'namePaths');
}

function disagreements(paths: Path[]): string[] {
  return paths.filter((p) => p.fast !== null && p.fast !== p.full).map((p) => `${p.role} ${p.id}: fast ${JSON.stringify(p.fast)}, full ${JSON.stringify(p.full)}`);
}

test('the shortcut names boxes to tick inside their labels as the full computation does, and steps aside where it cannot', async () => {
  const { lens } = await h.open('names-wrapped-labels.html');
  const paths = await namePaths(lens);
  assert.deepEqual(disagreements(paths), []);
  const boxes = paths.filter((p) => p.role === 'checkbox' || p.role === 'radio');
  const fast = boxes.filter((p) => p.fast !== null);
  // The plain cases take it (text after or before the box, spaces, text-transform), the tricky ones do not.
  assert.ok(fast.length >= 6, JSON.stringify(boxes));
  assert.ok(fast.some((p) => p.full === 'SHOUTED WORDS'), JSON.stringify(fast));
  assert.ok(boxes.length - fast.length >= 10, JSON.stringify(boxes));
});

test('every shortcut answer equals the full computation on the project\'s form and list fixtures', async () => {
  let answered = 0;
  for (const file of ['engine-labels.html', 'bench-form.html', 'rag-shop.html', 'dashboard.html', 'todo-app.html', 'engine-states.html', 'engine-shadow.html', 'agent-checklist.html']) {
    const { lens, context } = await h.open(file);
    const paths = await namePaths(lens);
    assert.deepEqual(disagreements(paths), [], file);
    answered += paths.filter((p) => p.fast !== null).length;
    await context.close();
  }
  assert.ok(answered > 20, `the shortcut answered ${answered} times`);
});

const CORPUS = process.env.PAGELENS_CORPUS ?? join(FIXTURES, '../../../shared/corpus');

test('every shortcut answer equals the full computation on real pages', async (t) => {
  if (!existsSync(CORPUS)) { t.skip(`no corpus at ${CORPUS}`); return; }
  const server = await serveFolder(CORPUS);
  let answered = 0;
  try {
    for (const set of ['forms', 'shop', 'news']) {
      const files = readdirSync(join(CORPUS, set)).filter((f) => f.endsWith('.html')).sort().slice(0, 2);
      for (const file of files) {
        const { lens, context } = await h.openUrl(`${server.url}${set}/${file}`);
        try {
          const paths = await namePaths(lens);
          assert.deepEqual(disagreements(paths), [], `${set}/${file}`);
          answered += paths.filter((p) => p.fast !== null).length;
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await server.close();
  }
  assert.ok(answered > 100, `the shortcut answered ${answered} times`);
});
