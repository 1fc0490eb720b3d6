// Takes the run's secrets out of a Playwright trace zip: every entry (events, network log, DOM
// snapshots, resources) searched byte by byte for each secret in every form it may be encoded in
// (model/trace/secretForms.ts), each found replaced by "***". Pixels cannot be searched: the
// screencast frames (and any image in the zip) are dropped when a secret was on the page other
// than as the value of a password field (which the browser draws as dots), or when the DOM
// snapshots do not show where it was. The zip is written again, then checked: no form of a secret is in it.
import { renameSync, unlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { secretFormsPattern } from '../model/trace/secretForms.js';
import { readZip, ZipAppender } from './zip.js';

export interface ScrubReport {
  entries: number;
  /** Secret values found and replaced, across every entry. */
  replaced: number;
  /** Images dropped because a secret could have been drawn on them, and why. */
  imagesDropped: number;
  why?: string;
}

const IMAGE = /\.(jpe?g|png|webp)$/i;
const TRACE_EVENTS = /\.trace$/;

type SnapshotNode = string | [string, Record<string, string>?, ...SnapshotNode[]] | [[number, number]];

/**
 * Where the DOM snapshots of a trace show each secret: true once seen anywhere a person would see
 * it (a text node, a value of a field that is not a password field), or never seen at all.
 */
function secretsDrawn(events: string[], secrets: string[]): string | undefined {
  const seenAsPassword = new Set<string>();
  let drawn: string | undefined;
  const visit = (node: SnapshotNode) => {
    if (drawn) return;
    if (typeof node === 'string') {
      if (secrets.some((s) => node.includes(s))) drawn = 'a secret is in the text of the page';
      return;
    }
    if (!Array.isArray(node) || typeof node[0] !== 'string') return;
    const [tag, attrs, ...children] = node as [string, Record<string, string> | undefined, ...SnapshotNode[]];
    const password = tag === 'INPUT' && (attrs?.type ?? '').toLowerCase() === 'password';
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (typeof v !== 'string' || (k !== 'value' && k !== '__playwright_value_')) continue;
      for (const s of secrets) {
        if (!v.includes(s)) continue;
        if (password) seenAsPassword.add(s);
        else drawn = `a secret is the value of a field that is not a password field (${tag.toLowerCase()})`;
      }
    }
    for (const c of children) visit(c);
  };
  for (const line of events) {
    if (!line.includes('"frame-snapshot"')) continue;
    try {
      const e = JSON.parse(line) as { type?: string; snapshot?: { html?: SnapshotNode } };
      if (e.type === 'frame-snapshot' && e.snapshot?.html) visit(e.snapshot.html);
    } catch {
      // A line that is not JSON is left to the byte search.
    }
    if (drawn) return drawn;
  }
  const unseen = secrets.filter((s) => !seenAsPassword.has(s));
  return unseen.length ? 'the DOM snapshots do not show a secret in a password field, so it may have been drawn' : undefined;
}

/** Scrubs the Playwright trace at `from` of `secrets` into `to` (a new file; `from` is left as it is). */
export async function scrubPlaywrightTrace(from: string, to: string, secrets: readonly string[]): Promise<ScrubReport> {
  const { entries } = readZip(await readFile(from));
  const pattern = secretFormsPattern(secrets);
  const events = [...entries].filter(([name]) => TRACE_EVENTS.test(name)).flatMap(([, data]) => data.toString('utf8').split('\n'));
  const why = secrets.length ? secretsDrawn(events, [...secrets]) : undefined;
  const report: ScrubReport = { entries: 0, replaced: 0, imagesDropped: 0, ...(why && { why }) };
  const tmp = `${to}.${process.pid}.tmp`;
  const zip = new ZipAppender(tmp, { directoryAtEnd: true });
  try {
    for (const [name, data] of entries) {
      if (why && IMAGE.test(name)) { report.imagesDropped++; continue; }
      let text = data.toString('latin1');
      if (why && TRACE_EVENTS.test(name)) text = text.split('\n').filter((l) => !l.includes('"screencast-frame"')).join('\n');
      if (pattern) text = text.replace(pattern, () => { report.replaced++; return '***'; });
      zip.add(name, Buffer.from(text, 'latin1'), { compress: !IMAGE.test(name) });
      report.entries++;
    }
    zip.close();
    await assertScrubbed(tmp, pattern);
    renameSync(tmp, to);
  } catch (e) {
    zip.close();
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
  return report;
}

/** The written zip read back: no entry holds a form of a secret (else nothing is kept). */
async function assertScrubbed(path: string, pattern: RegExp | undefined): Promise<void> {
  if (!pattern) return;
  for (const [name, data] of readZip(await readFile(path)).entries) {
    pattern.lastIndex = 0;
    if (pattern.test(data.toString('latin1'))) throw new Error(`a secret is still in ${name} of the Playwright trace after scrubbing: the trace is not kept`);
  }
}
