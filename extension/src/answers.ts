// The schema of every answer a frame's content script gives the service worker, built from the
// engine contract the CDP host checks its answers with (src/model/contracts/engine.ts). Its own module so that
// zod stays out of the content script, which imports the message types (messages.ts) into every frame.
import { z } from 'zod';
import { ELEMENT_CALLS, ENGINE_CALLS, OkReason, OwnerInfo } from '../../src/model/contracts/engine.js';
import type { ElementOp, RequestBody } from './messages.js';

/**
 * The schema of each answer, built from the engine contract the CDP host checks its answers with
 * (src/model/contracts/engine.ts): the page is untrusted (it can break or bend what the engine relies on),
 * so the service worker believes an answer only after it fits (tab.ts ask()).
 */
export const ANSWER_SCHEMAS: { [K in Exclude<RequestBody['kind'], 'element'>]: z.ZodType } = {
  snapshot: z.object({ snapshot: ENGINE_CALLS.snapshot, origin: z.string(), lastId: z.number().int().nonnegative().optional() }),
  owners: z.array(z.object({ frameId: z.number(), info: OwnerInfo })),
  announce: z.boolean(),
  ownerHits: ENGINE_CALLS.ownerHits,
  revealOwner: z.boolean(),
  activity: ENGINE_CALLS.domActivity,
  nativeOptions: ENGINE_CALLS.nativeOptions,
  serialize: ENGINE_CALLS.serializeDocument,
  mutationsSince: ENGINE_CALLS.mutationsSince,
  recentEvents: ENGINE_CALLS.recentMutationEvents,
  findOnPage: ENGINE_CALLS.findOnPage,
  coverAt: ELEMENT_CALLS.coverAt,
  scrollPage: ENGINE_CALLS.scrollPage,
};

/** The schema of each element operation's answer (the engine's `act.*` calls; typeJs is the content script's own). */
export const ELEMENT_OP_SCHEMAS: { [K in ElementOp['op']]: z.ZodType } = {
  prepare: ELEMENT_CALLS.prepare,
  state: ELEMENT_CALLS.elementState,
  clickJs: ELEMENT_CALLS.clickJs,
  focus: ELEMENT_CALLS.focus,
  focusForTyping: ELEMENT_CALLS.focusForTyping,
  textEntry: ELEMENT_CALLS.textEntry,
  setValue: ELEMENT_CALLS.setValue,
  typeJs: OkReason,
  selectOptions: ELEMENT_CALLS.selectOptions,
  submit: ELEMENT_CALLS.submit,
  scrollElement: ELEMENT_CALLS.scrollElement,
};

/** The schema the answer to `body` must fit. */
export function answerSchema(body: RequestBody): z.ZodType {
  return body.kind === 'element' ? ELEMENT_OP_SCHEMAS[body.action.op] : ANSWER_SCHEMAS[body.kind];
}

