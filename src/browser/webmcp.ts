// WebMCP: tools a page declares for agents (document.modelContext.registerTool, as Chromium ships
// it behind the WebMCP feature), listed and called over CDP's WebMCP domain. Every target (the
// page and each out-of-process frame) reports its own tools once the domain is enabled on it;
// what they are called, their descriptions, schemas and outputs are the page's words, untrusted.
import { PagelensError } from '../model/contracts/errors.js';
import type { Cdp } from './cdp.js';
import type { LensCore } from './lensCore.js';

/** Chromium flags that turn WebMCP on (document.modelContext and the CDP domain). */
export const WEBMCP_ARGS = ['--enable-features=WebMCP'];

export interface WebMcpTool {
  name: string;
  description: string;
  inputSchema?: object;
  annotations?: { readOnly?: boolean; consequential?: boolean; untrustedContent?: boolean };
  frameId: string;
  /** The frame's ordinal in snapshots (0: the page itself); undefined when it is no longer laid out. */
  frame?: number;
  frameUrl?: string;
}

export interface WebMcpResult {
  status: 'Completed' | 'Canceled' | 'Error';
  output?: unknown;
  errorText?: string;
}

/** How long a page's tool may take to answer. */
const CALL_TIMEOUT_MS = 30_000;

/** The tools one target has registered, kept current by its events. */
class TargetTools {
  readonly tools = new Map<string, WebMcpTool>();
  private readonly answers = new Map<string, (r: WebMcpResult) => void>();
  /** Answers that came before their caller was listening (the event may follow the command's response at once). */
  private readonly early = new Map<string, WebMcpResult>();
  readonly ready: Promise<void>;

  constructor(readonly cdp: Cdp) {
    const key = (t: { frameId: string; name: string }) => `${t.frameId}\u0000${t.name}`;
    cdp.on('WebMCP.toolsAdded', (e: { tools: WebMcpTool[] }) => {
      for (const t of e.tools) this.tools.set(key(t), { name: t.name, description: t.description ?? '', frameId: t.frameId, ...(t.inputSchema && { inputSchema: t.inputSchema }), ...(t.annotations && { annotations: t.annotations }) });
    });
    cdp.on('WebMCP.toolsRemoved', (e: { tools: Array<{ name: string; frameId: string }> }) => {
      for (const t of e.tools) this.tools.delete(key(t));
    });
    // A frame that loads another document (or goes away) takes its tools with it, but Chromium says
    // no toolsRemoved then: without this, the tools of a page left behind would still be listed and
    // called by name on the next one. (Its new document's tools are added after it commits.)
    const forgetFrame = (frameId: string) => { for (const [k, t] of this.tools) if (t.frameId === frameId) this.tools.delete(k); };
    cdp.on('Page.frameNavigated', (e: { frame: { id: string } }) => forgetFrame(e.frame.id));
    cdp.on('Page.frameDetached', (e: { frameId: string }) => forgetFrame(e.frameId));
    cdp.on('WebMCP.toolResponded', (e: { invocationId: string } & WebMcpResult) => {
      const r: WebMcpResult = { status: e.status, ...(e.output !== undefined && { output: e.output }), ...(e.errorText && { errorText: e.errorText }) };
      const waiter = this.answers.get(e.invocationId);
      if (waiter) waiter(r); else this.early.set(e.invocationId, r);
    });
    // Enabling sends toolsAdded for the tools already registered.
    this.ready = cdp.send('WebMCP.enable').then(() => undefined);
  }

  async call(frameId: string, name: string, input: object): Promise<WebMcpResult> {
    const { invocationId: id } = await this.cdp.send<{ invocationId: string }>('WebMCP.invokeTool', { frameId, toolName: name, input });
    const done = this.early.get(id);
    if (done) { this.early.delete(id); return done; }
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<WebMcpResult>((resolve, reject) => {
        this.answers.set(id, resolve);
        timer = setTimeout(() => reject(new PagelensError('NOT_ACTIONABLE', `the page's tool "${name}" did not answer within ${CALL_TIMEOUT_MS / 1000} s`)), CALL_TIMEOUT_MS);
      });
    } finally {
      clearTimeout(timer);
      this.answers.delete(id);
    }
  }
}

const registries = new WeakMap<Cdp, TargetTools>();

function toolsOf(cdp: Cdp): TargetTools {
  let r = registries.get(cdp);
  if (!r) { r = new TargetTools(cdp); registries.set(cdp, r); }
  return r;
}

/** Every tool the page and its frames have registered, in frame order. */
export async function listWebMcpTools(core: LensCore): Promise<WebMcpTool[]> {
  return core.frames.withLayout(async ({ frames }) => {
    const targets = [...new Set(frames.map((f) => f.target))];
    const regs = targets.map((t) => toolsOf(t.cdp));
    await Promise.all(regs.map((r) => r.ready.catch((e: Error) => {
      throw new PagelensError('NOT_ACTIONABLE', `WebMCP is not available in this browser (${e.message.split('\n')[0]}); pagelens launches Chromium with ${WEBMCP_ARGS.join(' ')}.`);
    })));
    const byFrame = new Map(frames.map((f) => [f.frameId, f]));
    const out: WebMcpTool[] = [];
    for (const r of regs) {
      for (const t of r.tools.values()) {
        const f = byFrame.get(t.frameId);
        if (!f) continue; // a frame gone since it registered
        out.push({ ...t, frame: f.ordinal, frameUrl: f.url });
      }
    }
    return out.sort((a, b) => (a.frame ?? 0) - (b.frame ?? 0));
  });
}

/** Calls a page's tool in the frame that registered it. */
export async function callWebMcpTool(core: LensCore, tool: WebMcpTool, input: object): Promise<WebMcpResult> {
  return core.frames.withLayout(async ({ frames }) => {
    const f = frames.find((x) => x.frameId === tool.frameId);
    if (!f) throw new PagelensError('NOT_ACTIONABLE', `the frame that registered "${tool.name}" is gone; list the tools again.`);
    return toolsOf(f.target.cdp).call(tool.frameId, tool.name, input);
  });
}
