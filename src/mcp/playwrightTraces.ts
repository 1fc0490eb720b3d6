// `pagelens mcp --save-trace DIR --playwright-traces`: beside each session's archive
// (mcp-….zip), a Playwright trace of the same calls (mcp-….playwright.zip), one group a call named
// after its step in the archive. Playwright traces a browser context, and writes its zip only
// when tracing stops: here when the browser session closes (the client went away, the session
// expired, the server stopped). A browser session that several MCP sessions use (a shared
// context, a session key) has one Playwright trace, named after the first of them; the groups of
// the others say which archive their step numbers are in. A lost browser takes its trace with it
// (the next context starts a new one). Written scrubbed of every secret the archives learnt and
// every value the tools typed into a secret field (tools/registry/state.ts).
import { basename } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { typedSecretsOf } from '../tools/registry/state.js';
import type { HostPage } from '../model/contracts/hostPage.js';
import type { McpTrace } from '../trace/mcpTrace.js';
import { describePlaywrightTrace, PlaywrightTrace } from '../trace/playwrightTrace.js';
import type { BrowserSession } from './browser.js';

interface Traced {
  context: BrowserContext;
  /** Which archive the trace is named after: its groups need no archive's name. */
  owner: McpTrace;
  trace: Promise<PlaywrightTrace | undefined>;
  /** Every MCP session's archive that called on this context: their secrets are scrubbed. */
  archives: Set<McpTrace>;
}

const traced = new WeakMap<BrowserSession, Traced>();

/** Where the Playwright trace of an archive goes: beside it. */
export const playwrightPathOf = (archive: string) => archive.replace(/\.zip$/, '') + '.playwright.zip';

/**
 * Opens the group of the call about to run on `page` (the session's current tab), starting the
 * context's trace on its first call. Never throws: a trace that cannot start is said once on `log`.
 */
export async function beginTracedCall(session: BrowserSession, page: Page, archive: McpTrace, tool: string, log: (msg: string) => void): Promise<void> {
  const context = page.context();
  let t = traced.get(session);
  if (!t || t.context !== context) {
    if (t) log(`the browser of ${basename(t.owner.path)} was lost: its Playwright trace is lost with it; a new one starts`);
    const path = playwrightPathOf(archive.path);
    const trace = PlaywrightTrace.start(context, path, { title: basename(archive.path) }).catch((e: Error) => {
      log(`the Playwright trace could not start: ${e.message.split('\n')[0]}`);
      return undefined;
    });
    const entry: Traced = { context, owner: archive, trace, archives: new Set([archive]) };
    t = entry;
    traced.set(session, entry);
    session.onClosing(async (closing) => {
      if (closing !== entry.context) return;
      const pw = await entry.trace;
      if (!pw) return;
      const secrets = new Set([...typedSecretsOf({ host: session, page: undefined as unknown as HostPage })]);
      for (const a of entry.archives) for (const s of a.secretValues()) secrets.add(s);
      try {
        log(describePlaywrightTrace(await pw.stop(secrets)));
      } catch (e) {
        log(`the Playwright trace was not written: ${(e as Error).message.split('\n')[0]}`);
      }
    });
  }
  t.archives.add(archive);
  const pw = await t.trace;
  const label = t.owner === archive ? tool : `${tool} (in ${basename(archive.path)})`;
  await pw?.begin(archive.steps + 1, label, page).catch(() => {});
}

/** Closes the call's group, once its step is in the archive. */
export async function endTracedCall(session: BrowserSession, page: Page | undefined): Promise<void> {
  const pw = await traced.get(session)?.trace;
  await pw?.end(page).catch(() => {});
}

/** Whether the session's Playwright trace is still to be written (the shutdown waits longer for it). */
export function hasPlaywrightTrace(session: BrowserSession): boolean {
  return traced.has(session);
}
