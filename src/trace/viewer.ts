// The trace viewer: one self-contained HTML page (styles, script, screenshots and the record in
// it; nothing fetched), written to a file (`pagelens trace show run.zip --out view.html`) or served
// on loopback at a random path (`pagelens trace show run.zip`). The record is data, and page
// content in it is untrusted: the page's script writes it with textContent only, and the page's
// content security policy allows no script but its own and no request at all.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { lineDiff, listedIds, readableObservation } from '../model/trace/observation.js';
import type { ReadTrace } from './readTrace.js';
import { VIEWER_SCRIPT, VIEWER_STYLE } from './viewerPage.js';

/** The record as the page's script reads it: each step with its image inline, its readable observation and its diff. */
export function viewerData(trace: ReadTrace): unknown {
  const { record, images, recovered } = trace;
  let previous: string | undefined;
  const steps = record.steps.map((s) => {
    const readable = s.observation ? readableObservation(s.observation.text, s.observation.format) : '';
    const diff = previous === undefined || !s.observation?.text ? null : lineDiff(previous, readable);
    if (s.observation?.text) previous = readable;
    const jpeg = s.screenshot ? images.get(s.screenshot.file) : undefined;
    return { ...s, readable, diff, listed: s.observation ? listedIds(s.observation.text) : [], ...(jpeg && { image: `data:image/jpeg;base64,${jpeg.toString('base64')}` }) };
  });
  return { meta: record.meta, end: record.end ?? null, recovered, steps, tokens: record.steps.reduce((n, s) => n + (s.observation?.tokens ?? 0), 0) };
}

/** JSON safe inside a <script> element: nothing in it can close the element or start a comment. */
function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function viewerHtml(trace: ReadTrace, name = 'trace'): string {
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pagelens trace · ${escapeHtml(name)}</title>
<style>${VIEWER_STYLE}</style></head>
<body>
<header id="top"></header>
<div id="app"><nav id="timeline" aria-label="steps"></nav><main id="step"></main></div>
<script id="trace-data" type="application/json">${scriptJson(viewerData(trace))}</script>
<script>${VIEWER_SCRIPT}</script>
</body></html>
`;
}

export interface ServedViewer {
  url: string;
  close(): Promise<void>;
}

/** Serves the page on 127.0.0.1 at a path nobody can guess; everything else is 404. */
export async function serveViewer(html: string, port = 0): Promise<ServedViewer> {
  const path = `/${randomBytes(16).toString('hex')}/`;
  const body = Buffer.from(html, 'utf8');
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { url: `http://127.0.0.1:${actual}${path}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}
