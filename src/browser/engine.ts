// Typed calls into the in-page engine. Every answer is checked against the contract's schema
// (src/model/contracts/engine.ts) before anyone believes it: a page that broke or bent the engine yields
// ENGINE_ERROR with the reason, not a wrong snapshot or a wrong verdict.
import { ELEMENT_CALLS, ENGINE_CALLS, type ElementAnswer, type ElementCall, type EngineAnswer, type EngineCall } from '../model/contracts/engine.js';
import { checkReadText, type CheckedRead } from '../core/heldReads.js';
import { PagelensError } from '../model/contracts/errors.js';
import { checkedAnswer } from '../model/contracts/validate.js';
import type { CallArgument, Target } from './target.js';

/** A frame's engine: the target that renders the frame, and the frame. */
export interface FrameRef { target: Target; frameId: string }

/** A live element: a remote object in its frame's isolated world. */
export interface ElementRef { frame: FrameRef; objectId: string }

/** `__pagelens.<method>(...args)` with plain JSON arguments. */
export async function engineCall<K extends EngineCall>(frame: FrameRef, method: K, args: unknown[] = []): Promise<EngineAnswer<K>> {
  const raw = await frame.target.callEngine(frame.frameId, method, args);
  return checkedAnswer(ENGINE_CALLS[method], raw, method) as EngineAnswer<K>;
}

/** engineCall() for a read of the whole page (long on a huge one); also how many bytes crossed CDP. */
export async function engineRead<K extends EngineCall>(frame: FrameRef, method: K, args: unknown[] = []): Promise<{ answer: EngineAnswer<K>; bytes: number }> {
  const { value, bytes } = await frame.target.readEngine(frame.frameId, method, args);
  return { answer: checkedAnswer(ENGINE_CALLS[method], value, method) as EngineAnswer<K>, bytes };
}

/** The frame's read, whose engine writes its own JSON text: parsed and checked as the extension's is (checkReadText). */
export async function engineReadText(frame: FrameRef, args: unknown[]): Promise<CheckedRead> {
  return checkReadText(await frame.target.readText(frame.frameId, args));
}

/** `__pagelens.<method>(...args)` where arguments may be remote objects (iframe elements). */
export async function engineCallWith<K extends EngineCall>(frame: FrameRef, method: K, args: CallArgument[], group: string, spread = false): Promise<EngineAnswer<K>> {
  const fn = spread
    ? `function (...a) { return globalThis.__pagelens.${method}(a); }`
    : `function (...a) { return globalThis.__pagelens.${method}(...a); }`;
  const raw = await frame.target.callFunction(frame.frameId, fn, args, true, group);
  return checkedAnswer(ENGINE_CALLS[method], raw, method) as EngineAnswer<K>;
}

/** `__pagelens.act.<method>(element, ...args)`. */
export async function elementCall<K extends ElementCall>(el: ElementRef, method: K, args: unknown[] = [], group = 'pagelens'): Promise<ElementAnswer<K>> {
  const raw = await el.frame.target.callFunction(el.frame.frameId,
    `function (el, ...a) { return globalThis.__pagelens.act.${method}(el, ...a); }`,
    [{ objectId: el.objectId }, ...args.map((value) => ({ value }))], true, group);
  return checkedAnswer(ELEMENT_CALLS[method], raw, `act.${method}`) as ElementAnswer<K>;
}

/** `__pagelens.act.<method>(remoteObject, ...args)` on an element known only by handle (an iframe owner). */
export async function ownerCall<K extends ElementCall>(frame: FrameRef, ownerObjectId: string, method: K, args: unknown[], group: string): Promise<ElementAnswer<K>> {
  return elementCall({ frame, objectId: ownerObjectId }, method, args, group);
}

/**
 * A handle-returning engine function (`lookupIn`, `resolvePath`): the remote object, or the
 * primitive the engine answered instead (null: nothing there; a string: see the function).
 */
export async function engineHandle(frame: FrameRef, method: 'lookupIn' | 'resolvePath', args: unknown[], group: string): Promise<{ objectId: string } | { value: unknown }> {
  const r = await frame.target.callFunction<{ objectId?: string; subtype?: string; type?: string; value?: unknown }>(frame.frameId,
    `function (...a) { return globalThis.__pagelens.${method}(...a); }`, args.map((value) => ({ value })), false, group);
  if (r.objectId && r.subtype !== 'null') {
    if (r.type !== 'object' || r.subtype !== 'node') throw new PagelensError('ENGINE_ERROR', `The in-page engine answered ${method} with a ${r.subtype ?? r.type} instead of an element; the page may have tampered with it.`);
    return { objectId: r.objectId };
  }
  return { value: r.subtype === 'null' ? null : r.value ?? null };
}
