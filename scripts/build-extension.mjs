// Build the Chrome MV3 extension into extension/dist/ (load it unpacked from there):
//   engine.js      the in-page engine, bundled from src/page/main.ts exactly as scripts/build.mjs
//                  bundles it for the CDP host (one engine, two hosts)
//   content.js     the adapter that answers the service worker by calling that engine
//   background.js  the service worker (snapshot, act, the agent loop; self.pagelens)
//   sidepanel.*    the side panel
// Then the extension's sources are type-checked with their own tsconfig (extension/tsconfig.json),
// since the project's tsconfig covers src/, test/ and bench/ only.
//
// Permissions, and why each is needed (also in the README):
//   host_permissions <all_urls>  The content script must run in every frame of the page the user
//                   points the agent at, cross-site iframes included (activeTab would grant the top
//                   frame of one tab, only after a click, and not the iframes of other sites); the
//                   service worker also POSTs to the backend URL the user configures (any host).
//                   It is also what lets chrome.tabs.captureVisibleTab photograph the page for the
//                   hybrid artifact (no further permission is needed for it).
//   scripting       To put the engine into tabs that were already open when the extension was
//                   installed or updated (declared content scripts only reach pages loaded after).
//   webNavigation   getAllFrames: every frame of the tab with its frameId and parent, so that the
//                   service worker can ask each frame for its snapshot and lay them out.
//   debugger        Trusted input only: Input.dispatchMouseEvent / insertText / dispatchKeyEvent,
//                   so that the page sees a person's clicks and typing (isTrusted). Attached on the
//                   first action, never to read the page; without it the extension uses DOM events
//                   and says so in the action's result.
//   sidePanel       The side panel UI (backend, task, live steps, stop).
//   storage         Remembers the backend URL and token the user typed in the side panel.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'extension/src');
const out = join(root, 'extension/dist');
const minify = process.env.PAGELENS_MINIFY !== '0';

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The same options as scripts/build.mjs: the content script runs the very engine the CDP host injects.
await build({ entryPoints: [join(root, 'src/page/main.ts')], outfile: join(out, 'engine.js'), bundle: true, format: 'iife', target: 'chrome110', minify, legalComments: 'none' });
// Classic scripts (iife): a module service worker may not import() at run time, and the
// tokenizer is loaded lazily through import(); bundled, that becomes a plain function call.
for (const [entry, file] of [['content.ts', 'content.js'], ['shadowHook.ts', 'shadowHook.js'], ['background.ts', 'background.js'], ['sidepanel.ts', 'sidepanel.js']]) {
  await build({ entryPoints: [join(src, entry)], outfile: join(out, file), bundle: true, format: 'iife', target: 'chrome116', minify, legalComments: 'none' });
}
copyFileSync(join(src, 'sidepanel.html'), join(out, 'sidepanel.html'));

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const manifest = {
  manifest_version: 3,
  name: 'pagelens',
  version: pkg.version,
  description: 'Lets an LLM agent see and act on the pages of this browser, through a pagelens backend.',
  // sidePanel (114), runtime.getFrameId (106), dom.openOrClosedShadowRoot (88), content scripts in the page's world (111).
  minimum_chrome_version: '116',
  permissions: ['scripting', 'webNavigation', 'debugger', 'sidePanel', 'storage'],
  host_permissions: ['<all_urls>'],
  background: { service_worker: 'background.js' },
  side_panel: { default_path: 'sidepanel.html' },
  action: { default_title: 'pagelens' },
  content_scripts: [{
    matches: ['<all_urls>'],
    js: ['engine.js', 'content.js'],
    all_frames: true,
    match_about_blank: true,
    // Sandboxed and srcdoc frames have an opaque origin: without this they get no content script.
    match_origin_as_fallback: true,
    run_at: 'document_start',
  }, {
    // In the page's own world, before the page's scripts: it counts the closed shadow roots the page makes.
    matches: ['<all_urls>'],
    js: ['shadowHook.js'],
    world: 'MAIN',
    all_frames: true,
    match_about_blank: true,
    match_origin_as_fallback: true,
    run_at: 'document_start',
  }],
};
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

if (process.env.PAGELENS_SKIP_TYPECHECK !== '1') {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'extension/tsconfig.json')], { stdio: 'inherit' });
}
console.error(`pagelens: extension built in ${out}`);
