// The page side of the Host port on the CDP host: input over the page's own CDP session (input.ts),
// capture (screenshot.ts), navigation (goto.ts), settling (stability.ts), and what Playwright's
// page reports (dialogs, console, new documents) turned into the port's events. One per page: a
// 'dialog' listener stops Playwright's auto-dismiss, so the dialog waits for the tools' answer.
import { refuseIfGivenUp } from './callScope.js';
import type { Dialog, Page } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';
import type { DialogAction, HostConsoleEntry, HostDialog, HostPage, HostPageEvents } from '../model/contracts/hostPage.js';
import type { LensCore } from './lensCore.js';
import { cdpActHost } from './hostEngine.js';
import { coveredViewport } from './screenshot.js';

/** The CDP object group of the tools' element handles (released by the pipeline's users). */
const GROUP = 'pagelens-tools';

const LEVEL_OF: Record<string, HostConsoleEntry['level']> = { error: 'error', assert: 'error', warning: 'warning', debug: 'debug', trace: 'debug' };

class CdpHostPage implements HostPage {
  private dialog?: Dialog;
  private readonly listeners = new Set<HostPageEvents>();

  readonly input: HostPage['input'];
  readonly dialogs: HostPage['dialogs'];

  /** Set once a lens is attached (events are watched from the page's opening, before that). */
  core?: LensCore;

  constructor(private readonly page: Page) {
    // Input, the address, navigation and settling are the act pipeline's host (hostEngine.ts): one
    // transport for both. Press, moves and release of a gesture go through Playwright's mouse: in
    // Chromium it also carries an HTML5 drag-and-drop (it intercepts the drag and replays it).
    const act = () => cdpActHost(this.needCore(), GROUP);
    this.input = {
      trusted: true,
      move: (x, y) => act().input.move(x, y),
      click: (x, y, clicks) => act().input.click(x, y, clicks),
      insertText: (text) => act().input.insertText(text),
      typeText: (text) => act().input.typeText(text),
      press: (chord) => act().input.press(chord),
    };
    this.pointer = {
      down: async (x, y) => { refuseIfGivenUp('the pointer press'); await page.mouse.move(x, y); await page.mouse.down(); },
      move: async (x, y) => { refuseIfGivenUp('the pointer move'); await page.mouse.move(x, y); },
      up: async (x, y) => { refuseIfGivenUp('the pointer release'); await page.mouse.move(x, y); await page.mouse.up(); },
    };
    this.settle = (opts) => act().settle(opts);
    this.navigate = async (how) => { await act().navigate(how); };
    this.dialogs = {
      pending: () => this.dialog && describeDialog(this.dialog),
      answer: async (a: DialogAction) => {
        const d = this.dialog;
        if (!d) throw new PagelensError('NOT_ACTIONABLE', 'No dialog is open.');
        refuseIfGivenUp('the dialog\'s answer');
        this.dialog = undefined;
        if (a.accept) await d.accept(a.promptText); else await d.dismiss();
      },
    };
    this.capture = async () => ({ png: await coveredViewport(this.needCore()), viewport: page.viewportSize() ?? await page.evaluate(() => ({ width: innerWidth, height: innerHeight })) });
    page.on('dialog', (d) => { this.dialog = d; this.emit((l) => l.dialog?.(describeDialog(d))); });
    page.on('console', (m) => {
      const loc = m.location();
      this.emit((l) => l.console?.({ level: LEVEL_OF[m.type()] ?? 'info', type: m.type(), text: m.text(), ...(loc.url && { location: `${loc.url}:${loc.lineNumber + 1}` }), at: Date.now() }));
    });
    page.on('pageerror', (e) => this.emit((l) => l.console?.({ level: 'error', type: 'pageerror', text: e.stack || e.message, at: Date.now() })));
    // A #hash change or history.pushState keeps the document; another URL, or a document request
    // at the same one (a reload, a form posted back to itself), does not.
    let url = stripHash(page.url());
    let requested = false;
    page.on('request', (r) => { if (r.isNavigationRequest() && r.frame() === page.mainFrame()) requested = true; });
    page.on('framenavigated', (f) => {
      if (f !== page.mainFrame()) return;
      const now = stripHash(f.url());
      if (now !== url || requested) this.emit((l) => l.document?.(f.url()));
      url = now;
      requested = false;
    });
  }

  readonly pointer: HostPage['pointer'];
  readonly capture: HostPage['capture'];
  readonly settle: HostPage['settle'];
  readonly navigate: HostPage['navigate'];

  async url(): Promise<string> {
    return this.page.url();
  }

  async setViewport(size: { width: number; height: number }): Promise<void> {
    await this.page.setViewportSize(size);
  }

  watch(listener: HostPageEvents): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  private needCore(): LensCore {
    if (!this.core) throw new PagelensError('INTERNAL', 'no lens is attached to this page yet');
    return this.core;
  }

  private emit(call: (l: HostPageEvents) => void): void {
    for (const l of this.listeners) call(l);
  }
}

function describeDialog(d: Dialog): HostDialog {
  const type = d.type() as HostDialog['type'];
  return { type, message: d.message(), ...(type === 'prompt' && { defaultValue: d.defaultValue() }) };
}

function stripHash(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

const pages = new WeakMap<Page, CdpHostPage>();

/**
 * The page's HostPage, made on first call and kept: its events are reported from then on (a holder
 * calls it when the page opens). Input, capture and settling go through the lens's core, given
 * once one is attached.
 */
export function hostPageOf(page: Page, core?: LensCore): HostPage {
  let p = pages.get(page);
  if (!p) {
    p = new CdpHostPage(page);
    pages.set(page, p);
  }
  if (core) p.core = core;
  return p;
}
