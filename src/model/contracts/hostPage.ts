// The page side of the Host port (issue 19): what the tool registry needs beyond the engine —
// trusted input, capture, navigation, settling, dialogs and the console — so that no tool reaches
// around the lens to a host's own page object. Both hosts implement it (src/browser over CDP,
// extension/src over chrome.*); see host.ts for the engine side.
import type { Chord } from './keys.js';

export type DialogAction = { accept: true; promptText?: string } | { accept: false };
export interface HostDialog { type: 'alert' | 'confirm' | 'prompt' | 'beforeunload'; message: string; defaultValue?: string }
export interface HostConsoleEntry { level: 'error' | 'warning' | 'info' | 'debug'; text: string; url?: string; at: number }

export interface HostPage {
  /** Trusted input (isTrusted events), in top-level viewport coordinates; `trusted` false when the host could only synthesize. */
  input: {
    readonly trusted: boolean;
    move(x: number, y: number): Promise<void>;
    click(x: number, y: number, clicks?: 1 | 2): Promise<void>;
    insertText(text: string): Promise<void>;
    typeText(text: string): Promise<void>;
    press(chord: Chord): Promise<void>;
  };
  /** The viewport as rendered, lossless (PNG), and its size in CSS px. */
  capture(): Promise<{ png: Uint8Array; viewport: { width: number; height: number } }>;
  /** The main frame's address now. */
  url(): Promise<string>;
  /** Navigation by the host (goto, back, forward, reload), settled to DOMContentLoaded. */
  navigate(how: { goto: string } | { history: 'back' | 'forward' } | { reload: true }): Promise<void>;
  /** Waits until the page is quiet (DOM and network), at most `timeoutMs`; says whether it got there. */
  settle(opts: { timeoutMs: number; quietMs?: number }): Promise<{ settled: boolean; waitedMs: number; reason?: string }>;
  /** The dialog blocking the page, if any, and answering it. */
  dialogs: { pending(): HostDialog | undefined; answer(action: DialogAction): Promise<void> };
  /** Console messages since the host attached (bounded). */
  console(opts?: { since?: number }): HostConsoleEntry[];
}
