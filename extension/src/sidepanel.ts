// The side panel: backend URL and token (kept in chrome.storage.local), a task box, run and stop,
// and the live list of steps as the service worker reports them (mode, tokens sent, action,
// verification). It runs nothing itself: the service worker does, so closing the panel stops
// the run (the port closes) instead of leaving it unwatched.
import type { PanelCommand, PanelEvent } from './panel.js';
import type { TaskStep } from './agent.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const backend = $<HTMLInputElement>('backend');
const token = $<HTMLInputElement>('token');
const task = $<HTMLTextAreaElement>('task');
const runButton = $<HTMLButtonElement>('run');
const stopButton = $<HTMLButtonElement>('stop');
const status = $<HTMLDivElement>('status');
const list = $<HTMLOListElement>('steps');

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
    else { status.textContent = `${e.status}: ${e.message}${e.success ? ' (verified)' : ''}`; status.className = e.success ? 'ok' : 'bad'; setRunning(false); }
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
