// The viewer page's style and script (see viewer.ts). Plain browser JavaScript in a string: the page
// works offline from one file, and its script builds every element with textContent (the record
// holds page content, which is untrusted). No template literals in the script: it lives in one.

export const VIEWER_STYLE = String.raw`
:root { --bg:#f6f7f9; --panel:#fff; --ink:#1d2430; --muted:#677085; --line:#e3e6ec; --accent:#2f6fed; --ok:#1f9d55; --warn:#c77d02; --bad:#d2303a; --done:#6b4fd8; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); display: flex; flex-direction: column; }
header { display: flex; align-items: center; gap: 14px; padding: 10px 18px; background: #151a24; color: #e9edf5; flex-wrap: wrap; }
header .brand { font-weight: 700; letter-spacing: .3px; }
header .brand span { color: #8fb3ff; }
header .task { font-size: 15px; flex: 1 1 360px; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header .pill { font-size: 12px; padding: 2px 9px; border-radius: 99px; background: #2a3242; color: #cfd6e4; white-space: nowrap; }
header .pill.ok { background: #16462e; color: #8ff0b9; } header .pill.bad { background: #55191d; color: #ffb3b8; } header .pill.warn { background: #4d3606; color: #ffd27a; }
#app { flex: 1; display: grid; grid-template-columns: 300px 1fr; min-height: 0; }
#timeline { border-right: 1px solid var(--line); overflow-y: auto; background: var(--panel); }
#timeline .sum { padding: 10px 14px; color: var(--muted); font-size: 12px; border-bottom: 1px solid var(--line); }
.tl { display: block; width: 100%; text-align: left; border: 0; border-left: 4px solid var(--line); background: none; padding: 9px 12px 9px 10px; cursor: pointer; border-bottom: 1px solid var(--line); font: inherit; color: inherit; }
.tl:hover { background: #f1f4fa; } .tl.sel { background: #e8efff; }
.tl.verified { border-left-color: var(--ok); } .tl.not_verified { border-left-color: var(--warn); } .tl.refused, .tl.error { border-left-color: var(--bad); } .tl.done { border-left-color: var(--done); } .tl.ok, .tl.answered { border-left-color: #9aa6bd; }
.tl .n { font-weight: 700; color: var(--muted); margin-right: 6px; font-variant-numeric: tabular-nums; }
.tl .act { font-family: var(--mono); font-size: 12.5px; word-break: break-all; }
.tl .meta { display: flex; gap: 8px; align-items: center; margin-top: 4px; font-size: 12px; color: var(--muted); }
.tl .bar { flex: 1; height: 4px; border-radius: 2px; background: var(--line); overflow: hidden; } .tl .bar i { display: block; height: 100%; background: #8fb3ff; }
.tl.refused .verdict, .tl.error .verdict { color: var(--bad); font-weight: 600; }
.tl.verified .verdict { color: var(--ok); } .tl.not_verified .verdict { color: var(--warn); }
#step { overflow-y: auto; padding: 16px 20px 30px; min-width: 0; }
.head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; margin-bottom: 10px; }
.head h2 { margin: 0; font-size: 18px; } .head .url { color: var(--muted); font-size: 12.5px; word-break: break-all; }
.badge { font-size: 12px; font-weight: 700; padding: 2px 10px; border-radius: 99px; text-transform: uppercase; letter-spacing: .4px; }
.badge.verified { background: #dcf5e7; color: #136c3a; } .badge.not_verified { background: #fff1d6; color: #8a5600; } .badge.refused, .badge.error { background: #fde0e2; color: #a3131d; } .badge.done { background: #ebe5ff; color: #4a2fb8; } .badge.ok, .badge.answered { background: #e9edf4; color: #445069; }
.grid { display: grid; grid-template-columns: minmax(0, 1.45fr) minmax(0, 1fr); gap: 16px; align-items: start; }
@media (max-width: 1100px) { .grid { grid-template-columns: 1fr; } }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
.card h3 { margin: 0; font-size: 12px; text-transform: uppercase; letter-spacing: .5px; color: var(--muted); padding: 8px 12px; border-bottom: 1px solid var(--line); display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.card h3 .right { margin-left: auto; text-transform: none; letter-spacing: 0; font-weight: 400; }
.card .body { padding: 10px 12px; }
.shot { position: relative; line-height: 0; background: #222; }
.shot img { width: 100%; display: block; }
.shot .none { line-height: 1.4; color: #ccd; padding: 40px; text-align: center; }
.box { position: absolute; border: 1.5px solid rgba(47,111,237,.45); border-radius: 3px; background: rgba(47,111,237,.04); cursor: crosshair; }
.box .tag { display: none; position: absolute; left: -1px; bottom: 100%; font: 600 10px/14px var(--mono); background: rgba(47,111,237,.9); color: #fff; padding: 0 4px; border-radius: 3px 3px 3px 0; white-space: nowrap; pointer-events: none; }
.box:hover .tag { display: block; }
.shot.quiet .box { border-color: transparent; background: none; } .shot.quiet .box .tag { display: none; }
.box.approx { border-style: dashed; }
.box.acted { border: 2.5px solid #ff7a00; background: rgba(255,122,0,.10); } .box.acted .tag { background: #ff7a00; display: block; }
.box.lit { border: 2.5px solid #ffd400; background: rgba(255,212,0,.28); box-shadow: 0 0 0 3px rgba(0,0,0,.35); z-index: 5; } .box.lit .tag { display: block; background: #1d2430; }
.box.secret { border-color: #555; background: repeating-linear-gradient(45deg, rgba(0,0,0,.15) 0 4px, transparent 4px 8px); }
.tabs { display: flex; gap: 2px; } .tabs button { white-space: nowrap; border: 0; background: none; font: inherit; font-size: 12px; padding: 3px 9px; border-radius: 6px; cursor: pointer; color: var(--muted); text-transform: uppercase; letter-spacing: .5px; }
.tabs button.on { background: #e8efff; color: var(--accent); font-weight: 700; }
pre.obs { margin: 0; max-height: 560px; overflow: auto; font: 12px/1.5 var(--mono); padding: 8px 0; }
pre.obs .ln { display: block; padding: 0 12px; white-space: pre-wrap; word-break: break-all; border-left: 3px solid transparent; }
pre.obs .ln.has { cursor: default; } pre.obs .ln.has:hover, pre.obs .ln.lit { background: #fff5b8; border-left-color: #ffd400; }
pre.obs .ln.acted { border-left-color: #ff7a00; background: #fff1e3; }
pre.obs .ln.add { background: #e6f7ec; } pre.obs .ln.del { background: #fde8ea; text-decoration: line-through; text-decoration-color: rgba(163,19,29,.35); }
pre.obs .ln.gap { color: var(--muted); font-style: italic; }
.kv { display: grid; grid-template-columns: 110px 1fr; gap: 6px 12px; font-size: 13px; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; word-break: break-word; }
.mono { font-family: var(--mono); font-size: 12.5px; }
.refusal { border: 1px solid #f3b5ba; background: #fff0f1; color: #8f1019; border-radius: 8px; padding: 8px 10px; margin-top: 8px; }
.refusal b { color: var(--bad); }
.thought { font-style: italic; color: #38415a; }
ul.plain { margin: 0; padding-left: 18px; } .muted { color: var(--muted); }
.stack { display: grid; gap: 16px; }
.note { background: #fff6da; border: 1px solid #f1d58a; color: #6b4d00; padding: 8px 12px; border-radius: 8px; margin-bottom: 12px; }
`;

export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var steps = data.steps;
  var current = 0;
  var showBoxes = true;
  var tab = 'obs';

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) { for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]); return parent; }
  function outcomeWord(o) { return { verified: 'verified', not_verified: 'not verified', refused: 'refused', error: 'error', done: 'done', ok: 'ok', answered: 'answered' }[o] || o; }
  function fmt(n) { return Number(n).toLocaleString('en-US'); }

  function header() {
    var h = document.getElementById('top');
    var m = data.meta, end = data.end;
    add(h, el('div', 'brand', 'pagelens ')).firstChild.appendChild(el('span', '', 'trace'));
    add(h, el('div', 'task', m.task ? m.task : (m.face === 'mcp' ? 'MCP session' : m.face === 'serve' ? 'negotiation session' : m.face === 'extension' ? 'extension run' : 'library session')));
    add(h, el('span', 'pill', m.face));
    add(h, el('span', 'pill', steps.length + ' steps'));
    add(h, el('span', 'pill', fmt(data.tokens) + ' tokens (o200k)'));
    if (end) add(h, el('span', 'pill ' + (end.success === false ? 'bad' : end.success ? 'ok' : ''), end.status + (end.success === true ? ' · verified' : end.success === false ? ' · not verified' : '')));
    else add(h, el('span', 'pill warn', 'did not close'));
    add(h, el('span', 'pill', new Date(m.startedAt).toLocaleString()));
  }

  function timeline() {
    var nav = document.getElementById('timeline');
    nav.textContent = '';
    var max = 1;
    steps.forEach(function (s) { if (s.observation && s.observation.tokens > max) max = s.observation.tokens; });
    add(nav, el('div', 'sum', steps.length + ' steps · ' + fmt(data.tokens) + ' tokens in total · ← → to move'));
    steps.forEach(function (s, i) {
      var b = el('button', 'tl ' + s.verdict.outcome + (i === current ? ' sel' : ''));
      b.setAttribute('data-step', String(s.step));
      b.setAttribute('data-outcome', s.verdict.outcome);
      var line = add(el('div'), el('span', 'n', s.step), el('span', 'act', s.action ? s.action.text : (s.tool || '(no action)')));
      var tokens = s.observation ? s.observation.tokens : 0;
      var bar = el('span', 'bar'); var fill = el('i'); fill.style.width = Math.max(2, Math.round(tokens / max * 100)) + '%'; bar.appendChild(fill);
      var meta = add(el('div', 'meta'), el('span', 'tok', fmt(tokens) + ' tok'), bar, el('span', 'verdict', outcomeWord(s.verdict.outcome)));
      add(b, line, meta);
      b.addEventListener('click', function () { select(i); });
      nav.appendChild(b);
    });
    if (data.end && data.end.ceiling) add(nav, el('div', 'sum', 'size ceiling reached at step ' + data.end.ceiling.reachedAtStep + (data.end.ceiling.droppedSteps ? '; ' + data.end.ceiling.droppedSteps + ' later steps not kept' : '')));
  }

  // One highlight at a time: an ID lit on the screenshot and in the observation together.
  function light(id, on) {
    var root = document.getElementById('step');
    root.querySelectorAll('[data-id]').forEach(function (e) { if (e.getAttribute('data-id') === id) e.classList.toggle('lit', on); });
    if (on) {
      var line = root.querySelector('pre.obs .ln[data-id="' + CSS.escape(id) + '"]');
      var pre = line && line.parentElement;
      if (line && pre && (line.offsetTop < pre.scrollTop || line.offsetTop > pre.scrollTop + pre.clientHeight - 20)) pre.scrollTop = line.offsetTop - pre.clientHeight / 2;
    }
  }
  function hoverable(e, id) {
    e.setAttribute('data-id', id);
    e.addEventListener('mouseenter', function () { light(id, true); });
    e.addEventListener('mouseleave', function () { light(id, false); });
  }

  function idOfLine(text, known) {
    var m = /"i":"([^"\\]{1,40})"/.exec(text) || /^\s*(?:[+~-] )?(f\d+_\d+|\d+) [a-z]{2,}/.exec(text);
    return m && known[m[1]] ? m[1] : null;
  }

  function screenshot(s) {
    var card = el('div', 'card');
    var h = el('h3', '', 'screenshot');
    var toggle = el('label', 'right');
    var cb = el('input'); cb.type = 'checkbox'; cb.checked = showBoxes; cb.addEventListener('change', function () { showBoxes = cb.checked; wrap.classList.toggle('quiet', !showBoxes); });
    add(toggle, cb, document.createTextNode(' boxes of the ' + s.boxes.length + ' IDs shown'));
    add(h, toggle);
    var wrap = el('div', 'shot' + (showBoxes ? '' : ' quiet'));
    if (s.image) {
      var img = el('img'); img.src = s.image; img.alt = 'the page at step ' + s.step; wrap.appendChild(img);
      var vw = s.screenshot.viewport.width || 1, vh = s.screenshot.viewport.height || 1;
      s.boxes.forEach(function (b) {
        var d = el('div', 'box' + (b.approx ? ' approx' : '') + (b.secret ? ' secret' : '') + (s.action && s.action.id === b.id ? ' acted' : ''));
        d.style.left = (b.box[0] / vw * 100) + '%'; d.style.top = (b.box[1] / vh * 100) + '%';
        d.style.width = (b.box[2] / vw * 100) + '%'; d.style.height = (b.box[3] / vh * 100) + '%';
        d.title = b.id + (b.role ? ' ' + b.role : '') + (b.name ? ' ' + b.name : '') + (b.secret ? ' (secret: painted over)' : '');
        add(d, el('span', 'tag', b.id + (b.role ? ' ' + b.role : '') + (b.name ? ' ' + b.name.slice(0, 40) : '') + (s.action && s.action.id === b.id ? ' · acted on' : '')));
        hoverable(d, b.id);
        wrap.appendChild(d);
      });
    } else {
      add(wrap, el('div', 'none', s.omitted === 'ceiling' ? 'no screenshot: the trace reached its size ceiling' : 'no screenshot for this step'));
    }
    return add(card, h, wrap);
  }

  function observation(s, prev) {
    var card = el('div', 'card');
    var h = el('h3');
    var tabs = el('div', 'tabs');
    [['obs', 'observation'], ['diff', 'diff vs previous']].forEach(function (t) {
      var b = el('button', tab === t[0] ? 'on' : '', t[1]);
      b.addEventListener('click', function () { tab = t[0]; render(); });
      tabs.appendChild(b);
    });
    add(h, tabs);
    if (s.observation) add(h, el('span', 'right', fmt(s.observation.tokens) + ' tok · ' + s.observation.mode + (s.observation.format === 'json' ? ' · shown indented, sent compact' : '')));
    var pre = el('pre', 'obs');
    var known = {};
    s.boxes.forEach(function (b) { known[b.id] = true; });
    var acted = s.action && s.action.id;
    function line(text, cls) {
      var ln = el('span', 'ln' + (cls ? ' ' + cls : ''), text === '' ? ' ' : text);
      var id = idOfLine(text, known);
      if (id) { ln.classList.add('has'); hoverable(ln, id); if (id === acted) ln.classList.add('acted'); }
      pre.appendChild(ln);
    }
    if (!s.observation) line('(no observation recorded)', 'gap');
    else if (tab === 'obs') s.readable.split('\n').forEach(function (t) { line(t); });
    else if (!s.diff) line(prev ? '(nothing to compare)' : '(the first step: nothing before it)', 'gap');
    else {
      var changed = s.diff.map(function (d) { return d.op !== ' '; });
      var keep = s.diff.map(function (d, i) { for (var k = Math.max(0, i - 2); k <= Math.min(s.diff.length - 1, i + 2); k++) if (changed[k]) return true; return false; });
      if (!changed.some(Boolean)) line('(the same observation as the step before)', 'gap');
      var skipped = 0;
      s.diff.forEach(function (d, i) {
        if (!keep[i]) { skipped++; return; }
        if (skipped) { line('… ' + skipped + ' unchanged lines', 'gap'); skipped = 0; }
        line((d.op === ' ' ? '  ' : d.op + ' ') + d.text, d.op === '+' ? 'add' : d.op === '-' ? 'del' : '');
      });
      if (skipped && changed.some(Boolean)) line('… ' + skipped + ' unchanged lines', 'gap');
    }
    return add(card, h, pre);
  }

  function details(s) {
    var card = el('div', 'card');
    add(card, el('h3', '', 'step'));
    var body = el('div', 'body');
    var kv = el('dl', 'kv');
    function row(k, v, cls) { if (v === undefined || v === null || v === '') return; add(kv, el('dt', '', k)); var dd = el('dd', cls || ''); if (typeof v === 'string') dd.textContent = v; else dd.appendChild(v); kv.appendChild(dd); }
    if (s.thought) row('thought', s.thought, 'thought');
    if (s.action) row('action', s.action.text, 'mono');
    var v = s.verdict;
    row('verdict', outcomeWord(v.outcome) + (v.detail ? ' — ' + v.detail : ''));
    if (v.verification && v.verification.feedback) row('feedback', v.verification.feedback);
    if (v.delta) row('delta', v.delta, 'mono');
    if (s.observation && s.observation.pruned) { var p = s.observation.pruned; row('read', p.shown + ' of ' + p.total + ' elements shown; ' + p.pruned + ' pruned, ' + p.occluded + ' occluded'); }
    if (s.observation && s.observation.rounds && s.observation.rounds.length > 1) row('rounds', s.observation.rounds.map(function (r) { return r.mode + ' ' + fmt(r.tokens) + ' tok'; }).join(' → '));
    if (s.observation && s.observation.imageBytes) row('image', Math.round(s.observation.imageBytes / 1024) + ' KB JPEG sent (not in the token count)');
    var t = s.timings, parts = [];
    ['readMs', 'askMs', 'actMs', 'captureMs', 'totalMs'].forEach(function (k) { if (t[k] !== undefined) parts.push(k.replace('Ms', '') + ' ' + fmt(t[k]) + ' ms'); });
    row('timings', parts.join(' · '));
    row('frames', String(s.frames));
    row('at', new Date(s.at).toLocaleTimeString());
    if (s.warnings.length) { var ul = el('ul', 'plain'); s.warnings.forEach(function (w) { ul.appendChild(el('li', '', w)); }); row('warnings', ul); }
    if (s.masked.length) row('masked', s.masked.join('; '));
    if (s.observation && s.observation.omitted && s.observation.omitted.length) row('left out', s.observation.omitted.join('; '), 'muted');
    body.appendChild(kv);
    if (v.refusal) {
      var r = el('div', 'refusal');
      add(r, el('b', '', 'Refused ' + v.refusal.code + ': '), document.createTextNode(v.refusal.reason));
      body.appendChild(r);
    }
    return add(card, body);
  }

  function render() {
    var s = steps[current];
    var root = document.getElementById('step');
    root.textContent = '';
    if (!s) { root.appendChild(el('p', 'muted', 'This trace has no steps.')); return; }
    if (data.recovered) root.appendChild(el('div', 'note', 'This archive was cut short (the process ended during a write): the steps shown are those recovered from it.'));
    if (!data.end && current === steps.length - 1) root.appendChild(el('div', 'note', 'The run did not close (a crash or a kill): this is the last step written.'));
    var head = el('div', 'head');
    add(head, el('h2', '', 'Step ' + s.step + (s.tool ? ' · ' + s.tool : '')), el('span', 'badge ' + s.verdict.outcome, outcomeWord(s.verdict.outcome)), el('span', 'url', s.url + (s.title ? ' — ' + s.title : '')));
    root.appendChild(head);
    var grid = el('div', 'grid');
    add(grid, add(el('div', 'stack'), screenshot(s), details(s)), observation(s, steps[current - 1]));
    root.appendChild(grid);
    document.querySelectorAll('#timeline .tl').forEach(function (b, i) { b.classList.toggle('sel', i === current); });
  }

  function select(i) { current = Math.max(0, Math.min(steps.length - 1, i)); render(); var b = document.querySelectorAll('#timeline .tl')[current]; if (b) b.scrollIntoView({ block: 'nearest' }); }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight' || e.key === 'j') { select(current + 1); e.preventDefault(); }
    if (e.key === 'ArrowUp' || e.key === 'ArrowLeft' || e.key === 'k') { select(current - 1); e.preventDefault(); }
  });
  header();
  timeline();
  render();
  window.pagelensTrace = { select: select, steps: steps.length };
})();
`;
