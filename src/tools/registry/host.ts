// What a tool needs from whoever holds the browser, beyond the one page a lens sees: the tabs
// (pages of the context) and the browser itself. The MCP server's browser holder provides it;
// runTool on a bare lens has none, and the tools that need it say so instead of guessing.
import { PagelensError } from '../../model/contracts/errors.js';

export interface TabInfo {
  index: number;
  url: string;
  title: string;
  current: boolean;
  /** A navigation of the tab that was asked for and has not yet committed: where it is going. */
  loading?: string;
}

/**
 * `L`: what a tab comes as, the holder's own lens (runTool on the CDP host asks for its Lens). The
 * tools only hand it back to ToolContext.contextOf: they know no host.
 */
export interface TabHost<L = unknown> {
  listTabs(): Promise<TabInfo[]>;
  /** Opens a new page and makes it the current one; its lens is what later calls act on. */
  newTab(): Promise<L>;
  /** Makes the tab at this index the current one. */
  selectTab(index: number): Promise<L>;
  /** Closes the tab at this index (default: the current one). */
  closeTab(index?: number): Promise<void>;
  /** Closes the browser (or detaches from an attached one); the next call opens it again. */
  closeBrowser(): Promise<void>;
  /** Throws BAD_INPUT with the reason when an agent may not open this URL (the MCP server: file:// is opt-in). */
  checkNavigation?(url: string): void;
  /** The real paths of files that may be uploaded, or throws BAD_INPUT with the reason (the MCP server: allowed folders only). */
  checkUploads?(paths: string[]): Promise<string[]>;
  /**
   * browser_storage_state: saves or loads the context's cookies, localStorage and IndexedDB at a
   * path the holder allows (the MCP server: the files and folders its command line names), and
   * answers one line of counts and origins, never a value (done: false when the state check kept the last good file).
   */
  storageState?(action: 'save' | 'load', path?: string): Promise<{ done: boolean; message: string }>;
  /** The folder the user chose for downloads; without one, downloads are reported, not saved. */
  readonly downloadsDir?: string;
}

export function requireHost(host: TabHost | undefined, tool: string): TabHost {
  if (!host) throw new PagelensError('BAD_INPUT', `${tool} needs the browser holder (the MCP server passes one to runTool); a bare lens has only its own page.`);
  return host;
}
