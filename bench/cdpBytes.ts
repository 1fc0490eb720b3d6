// Bytes that cross CDP during one read, counted from outside the host: every answer a Playwright
// CDP session receives (pagelens's sessions and any other) while a meter is open is serialized
// and measured. The host's own count (`model.engine.bytes`) covers only the engines' answers;
// this one also covers frame layout, closed shadow roots and whatever else a read asks Chrome,
// and it works for calls (lens.snapshot) that do not hand the model back.
import type { CDPSession, Page } from 'playwright-core';

type Send = CDPSession['send'];

let installed: { proto: { send: Send }; original: Send } | undefined;
let open = 0;
let counted = 0;
/** Characters per CDP method while any meter is open (running totals; meters take differences). */
const byMethod = new Map<string, number>();

/**
 * Wraps CDPSession.send (on the shared prototype, so sessions opened later are covered too).
 * Idempotent; `page` is only needed to reach the prototype once.
 */
export async function installCdpMeter(page: Page): Promise<void> {
  if (installed) return;
  const probe = await page.context().newCDPSession(page);
  const proto = Object.getPrototypeOf(probe) as { send: Send };
  await probe.detach().catch(() => {});
  if (installed) return;
  const original = proto.send;
  installed = { proto, original };
  proto.send = async function (this: CDPSession, ...args: Parameters<Send>) {
    const answer = await original.apply(this, args);
    // Only while someone measures: serializing every answer is not free.
    if (open > 0) {
      const n = JSON.stringify(answer ?? null).length;
      counted += n;
      byMethod.set(args[0], (byMethod.get(args[0]) ?? 0) + n);
    }
    return answer;
  } as Send;
}

/** Undoes installCdpMeter (tests, and the end of a bench run). */
export function uninstallCdpMeter(): void {
  if (!installed) return;
  installed.proto.send = installed.original;
  installed = undefined;
}

/**
 * Runs `fn` and counts the characters of every CDP answer received meanwhile, in all and per
 * command (JSON text: the
 * size the protocol carries, in UTF-16 code units; ASCII pages make that the byte count).
 * Meters must not overlap with other CDP work the caller does not want counted.
 */
export async function meterCdp<T>(fn: () => Promise<T>): Promise<{ value: T; bytes: number; byMethod: Record<string, number> }> {
  if (!installed) throw new Error('meterCdp: call installCdpMeter(page) first');
  const start = counted;
  const startBy = new Map(byMethod);
  open++;
  try {
    const value = await fn();
    // Which commands carried the bytes, largest first: where a read's traffic goes.
    const per = [...byMethod].map(([m, n]) => [m, n - (startBy.get(m) ?? 0)] as const).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    return { value, bytes: counted - start, byMethod: Object.fromEntries(per) };
  } finally {
    open--;
  }
}
