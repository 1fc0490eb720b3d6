// The side panel: backend URL and token (kept in chrome.storage.local), a task box, run and stop,
// and the live list of steps as the service worker reports them (mode, tokens sent, action,
// verification). It runs nothing itself: the service worker does, so closing the panel stops
// the run (the port closes) instead of leaving it unwatched. "Export last run" downloads the
// last run's record (kept by the service worker in the extension's IndexedDB, lastRun.ts) as a
// pagelens trace archive, through a link with `download` (no downloads permission needed).
import type { PanelCommand, PanelEvent } from './panel.js';
import type { TaskStep } from './agent.js';
import { loadLastRun } from './lastRun.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const backend = $<HTMLInputElement>('backend');
const token = $<HTMLInputElement>('token');
const task = $<HTMLTextAreaElement>('task');
const runButton = $<HTMLButtonElement>('run');
const stopButton = $<HTMLButtonElement>('stop');
const status = $<HTMLDivElement>('status');
const list = $<HTMLOListElement>('steps');
const exportButton = $<HTMLButtonElement>('export');
const traceLine = $<HTMLDivElement>('trace');

const kb = (n: number) => `${Math.max(1, Math.round(n / 1024))} KB`;

/** What the Export button would download, said beside it; the button is usable when there is one. */
function showLastRun(run: { name: string; steps: number; bytes: number } | undefined, error?: string): void {
  exportButton.disabled = !run;
  traceLine.textContent = run ? `Last run: ${run.steps} step${run.steps === 1 ? '' : 's'}, ${kb(run.bytes)}` : error ?? '';
  traceLine.title = run?.name ?? '';
}

const refreshLastRun = (error?: string) => void loadLastRun().then((r) => showLastRun(r && { name: r.name, steps: r.steps, bytes: r.bytes.length }, error), () => showLastRun(undefined, error));
refreshLastRun();

/** Downloads the last run's archive; what it downloaded, or undefined when there is no run yet. */
async function exportLastRun(): Promise<{ name: string; bytes: number } | undefined> {
  const run = await loadLastRun();
  if (!run) { showLastRun(undefined, 'No run to export yet.'); return undefined; }
  const url = URL.createObjectURL(new Blob([run.bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = run.name;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once it started; the URL is let go a while later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name: run.name, bytes: run.bytes.length };
}

exportButton.addEventListener('click', () => {
  void exportLastRun().catch((e: Error) => showLastRun(undefined, `The last run could not be exported: ${e.message}`));
});

void chrome.storage.local.get(['backend', 'token']).then((saved) => {
  if (typeof saved.backend === 'string') backend.value = saved.backend;
  if (typeof saved.token === 'string') token.value = saved.token;
});

function verdict(s: TaskStep): { text: string; ok: boolean } {
  const r = s.result;
  if (!r) return { text: '', ok: true };
  if (!r.ok) return { text: `refused: ${r.error?.code ?? ''} ${r.error?.message ?? ''}`, ok: false };
  const v = r.verification;
  if (!v) return { text: `${r.method}, not verified`, ok: true };
  return { text: `${r.method}, ${v.success ? 'verified' : 'not verified'}: ${v.actualOutcome}`, ok: v.success };
}

function addStep(s: TaskStep): void {
  const li = document.createElement('li');
  const meta = document.createElement('div');
  meta.className = 'meta';
  meta.textContent = `step ${s.step} · ${s.mode} · ${s.tokensSent} tok`;
  const action = document.createElement('div');
  action.className = 'action';
  action.textContent = s.action;
  li.append(meta, action);
  const v = verdict(s);
  if (v.text) {
    const out = document.createElement('div');
    out.className = v.ok ? 'ok' : 'bad';
    out.textContent = `→ ${v.text}`;
    li.append(out);
  }
  list.append(li);
}

let port: chrome.runtime.Port | undefined;
// sidepanel.html?tab=<id> drives one given tab (the panel opened as a page, for tests and demos);
// otherwise the service worker takes the active tab.
const tabParam = Number(new URLSearchParams(location.search).get('tab') ?? NaN);

function setRunning(on: boolean): void {
  runButton.disabled = on;
  stopButton.disabled = !on;
}

runButton.addEventListener('click', () => {
  const text = task.value.trim();
  const url = backend.value.trim();
  if (!text || !url) { status.textContent = 'A backend URL and a task are needed.'; return; }
  void chrome.storage.local.set({ backend: url, token: token.value });
  list.replaceChildren();
  port?.disconnect();
  port = chrome.runtime.connect({ name: 'pagelens-panel' });
  port.onMessage.addListener((raw) => {
    const e = raw as PanelEvent;
    if (e.type === 'started') status.textContent = `Running on tab ${e.tabId}…`;
    else if (e.type === 'step') addStep(e.step);
    else {
      status.textContent = `${e.status}: ${e.message}${e.success ? ' (verified)' : ''}`;
      status.className = e.success ? 'ok' : 'bad';
      if (e.trace) showLastRun(e.trace);
      else refreshLastRun(e.traceError);
      setRunning(false);
    }
  });
  port.onDisconnect.addListener(() => setRunning(false));
  const cmd: PanelCommand = { type: 'run', task: text, backend: url, ...(token.value && { token: token.value }), ...(Number.isInteger(tabParam) && { tabId: tabParam }) };
  port.postMessage(cmd);
  status.className = '';
  status.textContent = 'Starting…';
  setRunning(true);
});

stopButton.addEventListener('click', () => {
  const cmd: PanelCommand = { type: 'stop' };
  port?.postMessage(cmd);
  status.textContent = 'Stopping after the current step…';
});
