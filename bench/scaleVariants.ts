// The generated pages of the scale test: the same rows of interactive elements laid out flat,
// 30 levels deep, inside open and closed shadow roots, and inside cross-origin iframes, so that
// each shape's own costs (ancestor chains, shadow traversal, out-of-process frames) show apart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export type Variant = 'flat' | 'deep' | 'shadow' | 'iframes';
export const VARIANTS: Variant[] = ['flat', 'deep', 'shadow', 'iframes'];
export interface ScalePlan { variant: Variant; elements: number }

/** Interactive elements per row (button, link, text field, checkbox, select). */
export const PER_ROW = 5;
/** How deep every row sits in the deep variant (the "nested 30 levels"). */
export const DEEP_LEVELS = 30;
/** Rows per shadow host; hosts alternate open and closed roots. */
export const ROWS_PER_HOST = 10;
export const IFRAMES = 8;

/** Five interactive elements per row, each with a distinct name. */
function rows(from: number, count: number): string {
  let out = '';
  for (let r = from; r < from + count; r++) {
    out += `<div class="row"><button>Save ${r}</button><a href="#r${r}">Item ${r}</a><input name="q${r}" placeholder="Note ${r}">`
      + `<label><input type="checkbox"> Pick ${r}</label><select aria-label="Size ${r}"><option>S</option><option>M</option></select></div>\n`;
  }
  return out;
}

const STYLE = '<style>body{font:13px sans-serif;margin:8px} .row{height:26px;display:flex;gap:8px;align-items:center}</style>';

function doc(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${STYLE}</head><body>\n${body}</body></html>`;
}

export const rowCount = (plan: ScalePlan): number => Math.ceil(plan.elements / PER_ROW);

/**
 * Writes the page (and its frames) for one plan into `dir`; returns the file to open. The page is
 * meant to be opened from 127.0.0.1; `crossOrigin` (e.g. http://localhost:PORT/, the same folder)
 * is where the iframes come from, so every frame is out-of-process.
 */
export function writeVariantPage(dir: string, plan: ScalePlan, crossOrigin: string): string {
  const nRows = rowCount(plan);
  const base = `${plan.variant}-${plan.elements}`;
  let body: string;
  if (plan.variant === 'flat') {
    body = rows(0, nRows);
  } else if (plan.variant === 'deep') {
    // Every ten rows sit DEEP_LEVELS down: long ancestor chains for every walk and style lookup.
    body = '';
    for (let r = 0; r < nRows; r += 10) body += '<div>'.repeat(DEEP_LEVELS) + rows(r, Math.min(10, nRows - r)) + '</div>'.repeat(DEEP_LEVELS) + '\n';
  } else if (plan.variant === 'shadow') {
    // Built by a script: closed roots cannot be written as markup. Hosts alternate open and closed.
    const hosts = Math.ceil(nRows / ROWS_PER_HOST);
    body = `<script>
const tpl = (from) => { let s = ''; for (let r = from; r < from + ${ROWS_PER_HOST} && r < ${nRows}; r++) s += \`<div class="row" style="height:26px;display:flex;gap:8px"><button>Save \${r}</button><a href="#r\${r}">Item \${r}</a><input name="q\${r}" placeholder="Note \${r}"><label><input type="checkbox"> Pick \${r}</label><select aria-label="Size \${r}"><option>S</option><option>M</option></select></div>\`; return s; };
for (let h = 0; h < ${hosts}; h++) { const host = document.createElement('div'); host.className = 'host'; document.body.appendChild(host); host.attachShadow({ mode: h % 2 ? 'closed' : 'open' }).innerHTML = tpl(h * ${ROWS_PER_HOST}); }
</script>`;
  } else {
    const perFrame = Math.ceil(nRows / IFRAMES);
    body = '';
    for (let f = 0; f < IFRAMES; f++) {
      const count = Math.max(0, Math.min(perFrame, nRows - f * perFrame));
      const name = `${base}-frame${f}.html`;
      writeFileSync(join(dir, name), doc(name, rows(f * perFrame, count)));
      body += `<iframe src="${crossOrigin}${name}" title="Part ${f}" style="width:1200px;height:${Math.min(count * 26 + 20, 4000)}px;border:0;display:block"></iframe>\n`;
    }
  }
  writeFileSync(join(dir, `${base}.html`), doc(base, body));
  return `${base}.html`;
}

/**
 * Waits until the page holds everything the plan put there: the shadow hosts (made by a script)
 * and every iframe's rows (frames load after the page settles).
 */
export async function waitForVariant(page: Page, plan: ScalePlan, timeoutMs = 120_000): Promise<void> {
  const nRows = rowCount(plan);
  if (plan.variant === 'shadow') {
    await page.waitForFunction((n) => document.querySelectorAll('body > .host').length >= n, Math.ceil(nRows / ROWS_PER_HOST), { timeout: timeoutMs });
  } else if (plan.variant === 'iframes') {
    const deadline = Date.now() + timeoutMs;
    const frames = () => page.frames().filter((f) => f !== page.mainFrame());
    while (frames().length < IFRAMES) {
      if (Date.now() > deadline) throw new Error(`iframes variant: ${frames().length} of ${IFRAMES} frames attached`);
      await page.waitForEvent('frameattached', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => {});
    }
    for (const f of frames()) {
      await f.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) });
    }
  }
}
