// Name and role conformance on the web-platform-tests cases in the corpus (accname/wpt.json):
// each case's markup is served as its own page; the element under test is found in the page
// and compared with what pagelens listed for it (through its data-llm-id) and with Chrome.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession } from 'playwright-core';
import { serveFolder } from '../src/browser/static.js';
import { norm } from './chromeAx.js';
import { gotoSettled } from '../src/browser/goto.js';
import { openTask, type OpenedPage } from './measurePage.js';
import type { Progress } from './progress.js';
import type { ConformanceCase } from './schema.js';

interface WptCase { filename: string; title: string; html: string; selector?: string; name?: string; description?: string; role?: string }

export interface ConformancePlan { suite: string; file: string; page: string; html: string; selector: string; name?: string; role?: string }

/** One planned page per case that expects a name or a role (description-only cases are skipped). */
export function planConformance(file: string, limit?: number): ConformancePlan[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, WptCase[]>;
  const plans: ConformancePlan[] = [];
  for (const [suite, cases] of Object.entries(data)) {
    cases.forEach((c, k) => {
      const selector = c.selector ?? '#test';
      const fromMarkup = /data-expected(label|role)=/.test(c.html) && selector === '.ex';
      if (c.name === undefined && c.role === undefined && !fromMarkup) return;
      plans.push({ suite, file: c.filename, page: `${suite}-${k}.html`, html: c.html, selector, name: c.name, role: c.role });
    });
  }
  return limit ? plans.slice(0, limit) : plans;
}

function pageHtml(p: ConformancePlan): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.file}</title></head><body>\n${p.html}\n</body></html>`;
}

interface Target { backendNodeId: number; attrs: Map<string, string> }

async function targets(cdp: CDPSession, selector: string): Promise<Target[]> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: `Array.from(document.querySelectorAll(${JSON.stringify(selector)}))`, objectGroup: 'bench' }) as { result: { objectId?: string } };
  if (!result.objectId) return [];
  const { result: props } = await cdp.send('Runtime.getProperties', { objectId: result.objectId, ownProperties: true }) as { result: Array<{ name: string; value?: { objectId?: string } }> };
  const out: Target[] = [];
  for (const p of props) {
    if (!/^\d+$/.test(p.name) || !p.value?.objectId) continue;
    const { node } = await cdp.send('DOM.describeNode', { objectId: p.value.objectId }) as { node: { backendNodeId: number; attributes?: string[] } };
    const attrs = new Map<string, string>();
    const a = node.attributes ?? [];
    for (let i = 0; i + 1 < a.length; i += 2) attrs.set(a[i], a[i + 1]);
    out.push({ backendNodeId: node.backendNodeId, attrs });
  }
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'bench' }).catch(() => {});
  return out;
}

async function chromeView(cdp: CDPSession, backendNodeId: number): Promise<{ name: string; role: string } | null> {
  try {
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false }) as { nodes: Array<{ name?: { value?: unknown }; role?: { value?: unknown } }> };
    const n = nodes[0];
    return n ? { name: String(n.name?.value ?? ''), role: String(n.role?.value ?? '') } : null;
  } catch {
    return null;
  }
}

export async function runConformance(browser: Browser, plans: ConformancePlan[], progress: Progress): Promise<ConformanceCase[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-accname-'));
  for (const p of plans) writeFileSync(join(dir, p.page), pageHtml(p));
  const server = await serveFolder(dir);
  const out: ConformanceCase[] = [];
  try {
    // One page for every case, navigated from case to case; a fresh one after any failure.
    let opened: OpenedPage | undefined;
    for (const p of plans) {
      const url = server.url + p.page;
      try {
        if (opened) await gotoSettled(opened.page, url, 20_000);
        else opened = await openTask(browser, { set: 'accname', name: p.page, url, offline: true });
        out.push(...await runCase(opened, p));
      } catch (e) {
        progress.note(`conformance: ${p.suite}/${p.file} failed: ${(e as Error).message.split('\n')[0]}`);
        await opened?.close();
        opened = undefined;
      }
      progress.tick(`${p.suite}/${p.file}`);
    }
    await opened?.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function runCase(opened: OpenedPage, p: ConformancePlan): Promise<ConformanceCase[]> {
  const { page, lens } = opened;
  const snap = await lens.snapshot({ mode: 'semantic', fullPage: true });
  const listed = new Map(snap.nodes.filter((n) => !n.frameId).map((n) => [n.id, n]));
  const cdp = await page.context().newCDPSession(page);
  const found = await targets(cdp, p.selector);
  const cases: ConformanceCase[] = [];
  for (const [k, t] of found.entries()) {
    const ours = listed.get(t.attrs.get('data-llm-id') ?? '');
    const chrome = await chromeView(cdp, t.backendNodeId);
    const test = t.attrs.get('data-testname') ?? (found.length > 1 ? `${p.selector}[${k}]` : p.selector);
    const base = { suite: p.suite, file: p.file, test, listed: !!ours };
    const name = p.name ?? t.attrs.get('data-expectedlabel');
    if (name !== undefined && (p.name !== undefined ? k === 0 : true)) {
      const pass = ours ? norm(ours.name) === norm(name) : null;
      const chromeName = chrome?.name ?? null;
      cases.push({ ...base, kind: 'name', expected: name, ours: ours?.name ?? null, chrome: chromeName, pass, chromePass: chromeName !== null && norm(chromeName) === norm(name) });
    }
    const role = p.role ?? t.attrs.get('data-expectedrole');
    if (role !== undefined) {
      const pass = ours ? ours.role === role : null;
      const chromeRole = chrome?.role ?? null;
      cases.push({ ...base, kind: 'role', expected: role, ours: ours?.role ?? null, chrome: chromeRole, pass, chromePass: chromeRole === role });
    }
  }
  await cdp.detach().catch(() => {});
  return cases;
}
