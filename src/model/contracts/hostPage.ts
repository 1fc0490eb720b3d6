// The page side of the Host port (issue 19): what the tool registry needs beyond the engine —
// trusted input, capture, the address and navigation, settling, the viewport's size, dialogs, the
// console and new documents — so that no tool reaches around the lens to a host's own page object.
// Both hosts implement it (src/browser/cdpHostPage.ts over CDP/Playwright, extension/src/hostPage.ts
// over chrome.*); see host.ts for the engine side. What a host only reports (a dialog opened, a
// console line, a new document) comes as events; what the tools keep of it (the bounded console
// buffer, the modal states) is written once, above the port (src/tools).
import type { Chord } from './keys.js';

export type DialogAction = { accept: true; promptText?: string } | { accept: false };
export interface HostDialog { type: 'alert' | 'confirm' | 'prompt' | 'beforeunload'; message: string; defaultValue?: string }

/** One console message or uncaught error, as the host saw it. */
export interface HostConsoleEntry {
  level: 'error' | 'warning' | 'info' | 'debug';
  /** The console method (log, warn, error…), or "pageerror" for an uncaught exception. */
  type: string;
  text: string;
  /** url:line of the call, when the browser says. */
  location?: string;
  /** When the host received it (ms since the epoch). */
  at: number;
}

/** What a host reports as it happens; every member optional. */
export interface HostPageEvents {
  /** A JavaScript dialog opened and blocks the page until answered (dialogs.answer). */
  dialog?(d: HostDialog): void;
  console?(e: HostConsoleEntry): void;
  /**
   * The main frame committed another document (another URL, or a reload / a form posted back to the
   * same one), before its first script ran; never for a #hash change or history.pushState.
   */
  document?(url: string): void;
}

export interface HostPage {
  /** Trusted input (isTrusted events), in top-level viewport CSS px; `trusted` false when the host could only synthesize. */
  input: {
    readonly trusted: boolean;
    move(x: number, y: number): Promise<void>;
    click(x: number, y: number, clicks?: 1 | 2): Promise<void>;
    insertText(text: string): Promise<void>;
    typeText(text: string): Promise<void>;
    press(chord: Chord): Promise<void>;
  };
  /**
   * A gesture with the left button held (a drag): pressed at a point, moved (the page sees the
   * button held, and an HTML5 drag-and-drop where the element is draggable), released. Trusted input.
   */
  pointer: {
    down(x: number, y: number): Promise<void>;
    move(x: number, y: number): Promise<void>;
    up(x: number, y: number): Promise<void>;
  };
  /** The viewport as rendered, lossless (PNG), and its size in CSS px. */
  capture(): Promise<{ png: Uint8Array; viewport: { width: number; height: number } }>;
  /** The main frame's address now. */
  url(): Promise<string>;
  /** Navigation by the host (goto, back, forward, reload), settled to DOMContentLoaded. */
  navigate(how: { goto: string } | { history: 'back' | 'forward' } | { reload: true }): Promise<void>;
  /** Waits until the page is quiet (DOM and network), at most `timeoutMs`; says whether it got there. */
  settle(opts: { timeoutMs: number; quietMs?: number }): Promise<{ settled: boolean; waitedMs: number; reason?: string }>;
  /** Sets the viewport's size (CSS px), as a window resize would. */
  setViewport(size: { width: number; height: number }): Promise<void>;
  /** The dialog blocking the page, if any, and answering it. */
  dialogs: { pending(): HostDialog | undefined; answer(action: DialogAction): Promise<void> };
  /** Starts reporting events to `listener` (dialogs, console, documents); returns how to stop. */
  watch(listener: HostPageEvents): () => void;
}
