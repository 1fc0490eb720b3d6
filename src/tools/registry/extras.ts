// What only some hosts offer the tools, beyond the lens and the page side of the port: the CDP host
// gives them through Playwright (src/browser/tools/context.ts); the extension has none of them
// yet. A tool that needs one names it (ToolDef.needs) and is listed as unavailable where it is missing.
import type { NetworkLog } from '../logs/requests.js';
import type { ToolResult } from './result.js';

/** What an action caused beyond the tree and the console, as the host's network layer saw it. */
export interface ActionEffects {
  /** The main frame's document answered with this status (only when the action loaded one). */
  http?: { status: number; statusText?: string };
  failedRequests?: string[];
  popup?: { url: string; note: string };
  downloads?: object[];
}

/** A file chooser a click opened: the page waits for files (or a cancel). */
export interface OpenChooser {
  multiple: boolean;
  setFiles(paths: string[]): Promise<void>;
}

export interface ToolExtras {
  /** A click with another button, modifier keys held, or both. */
  clickWith?(id: string, how: { button: 'left' | 'right' | 'middle'; modifiers?: string[]; clicks: 1 | 2 }): Promise<void>;
  /** Files set on a file input by ID. */
  setInputFiles?(id: string, paths: string[]): Promise<void>;
  /** Reports each file chooser the page opens; returns how to stop. */
  watchChoosers?(opened: (c: OpenChooser) => void): () => void;
  /** A plain (or set-of-mark) image in any format, as browser_take_screenshot answers. */
  screenshot?(args: { type?: 'png' | 'jpeg' | 'webp'; fullPage?: boolean; id?: string; marks?: boolean; quality?: number }): Promise<ToolResult>;
  /** The page's request log (requests.ts), kept from the page's opening. */
  networkLog?(): NetworkLog;
  /** Starts watching what an action causes on the network (status, failures, popups, downloads). */
  watchAction?(): { finish(opts: { tabIndexOf?: (url: string) => Promise<number | undefined> }): Promise<ActionEffects> };
}
