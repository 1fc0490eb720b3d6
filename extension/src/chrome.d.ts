// The part of the Chrome extension API this extension uses. @types/chrome is not installed in
// this project, so the calls are declared here, as Chrome documents them, and nothing more:
// a call that is not declared cannot be used by mistake.
declare namespace chrome {
  export namespace runtime {
    export interface MessageSender { tab?: { id?: number }; frameId?: number; url?: string }
    export interface Port {
      name: string;
      postMessage(message: unknown): void;
      disconnect(): void;
      onMessage: { addListener(cb: (message: unknown, port: Port) => void): void };
      onDisconnect: { addListener(cb: (port: Port) => void): void };
    }
    export const id: string;
    export const lastError: { message?: string } | undefined;
    export function getURL(path: string): string;
    export function connect(info: { name: string }): Port;
    export const onMessage: {
      addListener(cb: (message: unknown, sender: MessageSender, sendResponse: (answer: unknown) => void) => boolean | void): void;
    };
    export const onConnect: { addListener(cb: (port: Port) => void): void };
  }
  export namespace tabs {
    export interface Tab { id?: number; url?: string; title?: string; active: boolean; windowId: number; status?: string }
    export function sendMessage<T = unknown>(tabId: number, message: unknown, options?: { frameId?: number; documentId?: string }): Promise<T>;
    export function get(tabId: number): Promise<Tab>;
    export function query(info: { active?: boolean; currentWindow?: boolean; lastFocusedWindow?: boolean }): Promise<Tab[]>;
    export function update(tabId: number, props: { url?: string; active?: boolean }): Promise<Tab>;
    export function reload(tabId: number): Promise<void>;
    export function goBack(tabId: number): Promise<void>;
    export function goForward(tabId: number): Promise<void>;
    /** The visible area of the window's active tab, as a data: URL (needs <all_urls> or activeTab; two calls a second at most). */
    export const onRemoved: { addListener(cb: (tabId: number) => void): void };
    export function captureVisibleTab(windowId: number, options: { format?: 'jpeg' | 'png'; quality?: number }): Promise<string>;
  }
  export namespace webNavigation {
    export interface Frame { frameId: number; parentFrameId: number; url: string; errorOccurred: boolean; documentId?: string }
    export function getAllFrames(details: { tabId: number }): Promise<Frame[] | null>;
  }
  // `debugger` is a reserved word: declared under another name and exported as chrome.debugger.
  export namespace _debugger {
    export interface Debuggee { tabId?: number }
    export function attach(target: Debuggee, version: string): Promise<void>;
    export function detach(target: Debuggee): Promise<void>;
    export function sendCommand<T = unknown>(target: Debuggee, method: string, params?: object): Promise<T>;
    export const onDetach: { addListener(cb: (source: Debuggee, reason: string) => void): void };
    /** CDP events of the attached targets (Page.*, Runtime.* once enabled). */
    export const onEvent: { addListener(cb: (source: Debuggee, method: string, params?: object) => void): void };
  }
  export { _debugger as debugger };
  export namespace dom {
    /** A closed shadow root too (content scripts only). */
    export function openOrClosedShadowRoot(host: Element): ShadowRoot | null;
  }
  export namespace scripting {
    export function executeScript(injection: { target: { tabId: number; allFrames?: boolean }; files: string[]; world?: 'ISOLATED' | 'MAIN' }): Promise<unknown[]>;
  }
  export namespace sidePanel {
    export function setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
  }
  export namespace storage {
    export namespace local {
      export function get(keys: string[]): Promise<Record<string, unknown>>;
      export function set(items: Record<string, unknown>): Promise<void>;
    }
    /** Kept while the browser runs, across service-worker restarts; not written to disk. */
    export namespace session {
      export function get(keys: string[]): Promise<Record<string, unknown>>;
      export function set(items: Record<string, unknown>): Promise<void>;
      export function remove(keys: string[]): Promise<void>;
    }
  }
}
