// The bench's loopback site for whole tasks, and its judge: every HTML page it serves gets one
// script of the bench's at the top of its head, which reports what the page itself shows — the
// values of named fields, the to-do rows and whether each is ticked, the controls clicked — by
// beacon to the same server. A task is then judged from the page, whichever tool drove it.
//   /corpus/… serves the shared corpus, /todomvc/… the TodoMVC checkout; /__judge takes reports.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

export interface JudgeState {
  /** Input and textarea values by their name attribute ("true"/"false" for checkboxes and radios). */
  fields: Record<string, string>;
  /** To-do rows: an li holding a checkbox, its label's text and whether it is ticked. */
  rows: Array<{ title: string; done: boolean }>;
  /** The text (content, value, aria-label, title) of every control clicked, in order. */
  clicks: string[];
}

export interface JudgedSite {
  origin: string;
  /** Forgets every report: the next task starts from nothing. */
  reset(): void;
  /** Waits up to `ms` for the reports to satisfy `done`; the answer once it does, or at the end. */
  waitFor(done: (s: JudgeState) => boolean, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

// Runs in the page's main world, before the page's scripts. It walks open shadow roots, reports
// only on change (a poll every 500 ms plus input, change and click), and by beacon, which outlives
// a navigation the click may start.
const JUDGE_JS = `(() => {
  const send = (kind, data) => navigator.sendBeacon('/__judge', JSON.stringify({ kind, data }));
  const deep = (root) => { const out = []; const walk = (r) => { for (const el of r.querySelectorAll('*')) { out.push(el); if (el.shadowRoot) walk(el.shadowRoot); } }; walk(root); return out; };
  const state = () => {
    const els = deep(document);
    const fields = {};
    for (const el of els) if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && el.name) fields[el.name] = el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : el.value;
    const rows = els.filter((el) => el.tagName === 'LI' && el.querySelector('input[type=checkbox]')).map((li) => ({ title: (li.querySelector('label') || li).textContent.trim(), done: li.querySelector('input[type=checkbox]').checked }));
    return { fields, rows };
  };
  let last = '';
  const report = () => { const s = JSON.stringify(state()); if (s !== last) { last = s; send('state', JSON.parse(s)); } };
  document.addEventListener('click', (e) => {
    const t = e.composedPath().find((n) => n instanceof Element && n.matches('button, a, input, [role=button], [role=link]')) || e.target;
    const attr = (n) => (t.getAttribute && t.getAttribute(n)) || '';
    send('click', [t.textContent || '', t.value || '', attr('aria-label'), attr('title')].join(' ').replace(/\\s+/g, ' ').trim().slice(0, 200));
    setTimeout(report, 0);
  }, true);
  document.addEventListener('input', report, true);
  document.addEventListener('change', report, true);
  setInterval(report, 500);
})();`;

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** A file under `root` for a URL path, or undefined (outside the root, missing). */
function fileUnder(root: string, path: string): string | undefined {
  let p = normalize(join(root, decodeURIComponent(path)));
  const base = realpathSync(root);
  if (existsSync(p) && statSync(p).isDirectory()) p = join(p, 'index.html');
  if (!existsSync(p)) return undefined;
  const real = realpathSync(p);
  return real === base || real.startsWith(base + sep) ? real : undefined;
}

export async function startJudgedSite(roots: { corpus: string; todomvc?: string }): Promise<JudgedSite> {
  let state: JudgeState = { fields: {}, rows: [], clicks: [] };
  const mounts: Array<[string, string]> = [['/corpus/', roots.corpus], ...(roots.todomvc ? [['/todomvc/', roots.todomvc] as [string, string]] : [])];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/__judge' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        try {
          const r = JSON.parse(body) as { kind: string; data: unknown };
          if (r.kind === 'state') state = { ...state, ...(r.data as Omit<JudgeState, 'clicks'>) };
          if (r.kind === 'click') state = { ...state, clicks: [...state.clicks, String(r.data)] };
        } catch { /* a report cut short is dropped: the next one carries the whole state */ }
        res.writeHead(204).end();
      });
      return;
    }
    if (path === '/__judge.js') { res.writeHead(200, { 'content-type': 'text/javascript' }).end(JUDGE_JS); return; }
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    const file = mount && fileUnder(mount[1], path.slice(mount[0].length));
    if (!file) { res.writeHead(404).end(); return; }
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    let body: Buffer | string = readFileSync(file);
    if (type.startsWith('text/html')) {
      // First in <head> (or first at all): the judge listens before any of the page's own scripts run.
      const html = body.toString('utf8');
      const tag = '<script src="/__judge.js"></script>';
      body = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (h) => h + tag) : tag + html;
    }
    res.writeHead(200, { 'content-type': type }).end(body);
  };
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    reset: () => { state = { fields: {}, rows: [], clicks: [] }; },
    waitFor: async (done, ms) => {
      const end = Date.now() + ms;
      while (!done(state) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      return done(state);
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
