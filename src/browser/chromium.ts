// Finding and starting Chromium. Playwright's own browser download does not work everywhere,
// so pagelens looks for a browser the machine already has.
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';
import { parseOriginRule, refusalFor, type OriginRules } from '../model/safety/origins.js';
import { isLoopbackAddress, refusalForAddresses } from './originProxy.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Playwright's launch flags that pagelens drops. Playwright turns off Chrome's IPC flooding
 * protection; with it off, a page that calls history.pushState without end swamps the browser
 * process, and every tab of the session stops answering (a new tab never opens, a title read
 * times out). With it on, Chrome throttles that page alone, as it does for its own users.
 */
export const DROPPED_DEFAULT_ARGS = ['--disable-ipc-flooding-protection'];

/**
 * For a browser whose contexts have origin rules (or are offline, or show a local file). WebRTC
 * sends STUN over UDP from the network process straight to the address the page names, past
 * context.route and past the origin proxy (TURN over TCP already goes as a CONNECT through the
 * context's proxy, which refuses what the rules refuse). With this policy UDP leaves only through
 * a proxy, and an HTTP proxy carries none: no STUN, no UDP TURN. Checked on Chromium 156 headless
 * with loopback listeners; `--force-webrtc-ip-handling-policy`, the older spelling, is ignored.
 * Every context of such a browser needs the proxy: without one, TURN over TCP goes direct. A
 * browser pagelens attaches to (--cdp, --ws-endpoint) cannot be given it.
 */
export const WEBRTC_PROXIED_ONLY_ARGS = ['--webrtc-ip-handling-policy=disable_non_proxied_udp'];

const SYSTEM_PATHS = [
  '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** PAGELENS_CHROMIUM, then Playwright's own download, then the usual system installs. */
export function findChromium(): string {
  const fromEnv = process.env.PAGELENS_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new PagelensError('NO_BROWSER', `PAGELENS_CHROMIUM points to ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  const candidates: string[] = [];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // Playwright has no browser of its own here; fine.
  }
  candidates.push(...SYSTEM_PATHS);
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) {
    throw new PagelensError('NO_BROWSER', 'No Chromium found. Install it (Debian: apt-get install -y chromium) or set PAGELENS_CHROMIUM to its path.');
  }
  return found;
}

export interface LaunchChromiumOptions {
  executablePath?: string;
  headless?: boolean;
  extraArgs?: string[];
}

export async function launchChromium(opts: LaunchChromiumOptions = {}): Promise<Browser> {
  const launch: LaunchOptions = {
    executablePath: opts.executablePath ?? findChromium(),
    headless: opts.headless ?? true,
    args: [...CHROMIUM_ARGS, ...(opts.extraArgs ?? [])],
    ignoreDefaultArgs: DROPPED_DEFAULT_ARGS,
  };
  try {
    return await chromium.launch(launch);
  } catch (e) {
    throw new PagelensError('NO_BROWSER', `Chromium at ${launch.executablePath} failed to start: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Attaches to a browser that is already running (a remote fleet, a debugging Chrome) over CDP. */
export async function connectChromium(endpoint: string): Promise<Browser> {
  try {
    return await chromium.connectOverCDP(endpoint);
  } catch (e) {
    throw new PagelensError('NO_BROWSER', `Could not connect to ${endpoint}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Restricts a context to loopback: every other request is aborted, so saved pages load fast and offline. */
export async function blockExternalRequests(context: BrowserContext): Promise<void> {
  await routeOriginRules(context, { offline: true, allowed: [], blocked: [] });
}

/**
 * The origin rules on the requests a context starts (first hops): aborted as blocked by the
 * client, which a navigation reports plainly. Redirect hops and WebSockets are not seen here:
 * a context pagelens creates also gets the origin proxy (originProxy.ts), which sees them all.
 */
export async function routeOriginRules(context: BrowserContext, rules: OriginRules): Promise<void> {
  await context.route('**/*', (route) => (firstHopRefusal(route.request().url(), rules) ? route.abort('blockedbyclient') : route.fallback()));
}

/** The host of an http(s) or ws(s) URL when it is an IP address (brackets gone), else null. */
function addressOf(url: string): string | null {
  let u: URL;
  try { u = new URL(url); } catch { return null; }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return /^(https?|wss?):$/.test(u.protocol) && isIP(host) ? host : null;
}

/**
 * A first hop's refusal: by the URL as written, and, for an address of this machine written as
 * something the rules do not call loopback (0.0.0.0, [::]), as loopback too. Names are resolved
 * only by the origin proxy (originProxy.ts), where the connection is made.
 */
function firstHopRefusal(url: string, rules: OriginRules): string | null {
  const address = addressOf(url);
  return refusalFor(url, rules) ?? (address !== null ? refusalForAddresses(url, [address], rules) : null);
}

/** A rule's key with an address of this machine (http://0.0.0.0:P, http://[::]:P) as loopback: every loopback name is one host. */
function loopbackRuleKey(key: string): string {
  const m = /^(https?:\/\/)(.+):(\d+)$/.exec(key);
  return m && isLoopbackAddress(m[2].replace(/^\[|\]$/g, '')) ? `${m[1]}loopback:${m[3]}` : key;
}

/** The rules the flags give; BAD_INPUT for an origin that is not one. */
export function parseOriginRules(opts: { allowedOrigins?: string[]; blockedOrigins?: string[]; offline?: boolean }): OriginRules {
  const keys = (list: string[] = []) => list.map((o) => {
    const r = parseOriginRule(o);
    if ('problem' in r) throw new PagelensError('BAD_INPUT', r.problem);
    return loopbackRuleKey(r.key);
  });
  return { allowed: keys(opts.allowedOrigins), blocked: keys(opts.blockedOrigins), offline: !!opts.offline };
}
