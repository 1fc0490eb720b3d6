// The schema of every answer a frame's content script gives the service worker, built from the
// engine contract the CDP host checks its answers with (src/model/contracts/engine.ts). Its own module so that
// zod stays out of the content script, which imports the message types (messages.ts) into every frame.
import { z } from 'zod';
import { ELEMENT_CALLS, ENGINE_CALLS, OkReason, OwnerInfo } from '../../src/model/contracts/engine.js';
import type { RequestBody } from './messages.js';

/**
 * The schema of each answer, built from the engine contract the CDP host checks its answers with
 * (src/model/contracts/engine.ts): the page is untrusted (it can break or bend what the engine relies on),
 * so the service worker believes an answer only after it fits (tab.ts ask()).
 */
export const ANSWER_SCHEMAS: { [K in Exclude<RequestBody['kind'], 'element' | 'engine'>]: z.ZodType } = {
  // The text itself is checked as the engine contract's read once parsed (src/core/heldReads.ts checkReadText).
  read: z.object({ text: z.string(), origin: z.string(), lastId: z.number().int().nonnegative().optional() }),
  owners: z.array(z.object({ frameId: z.number(), info: OwnerInfo })),
  announce: z.boolean(),
  ownerHits: ENGINE_CALLS.ownerHits,
  revealOwner: z.boolean(),
  ownerXpath: ELEMENT_CALLS.xpathOf,
  activity: ENGINE_CALLS.domActivity,
  serialize: ENGINE_CALLS.serializeDocument,
  mutationsSince: ENGINE_CALLS.mutationsSince,
  recentEvents: ENGINE_CALLS.recentMutationEvents,
  findOnPage: ENGINE_CALLS.findOnPage,
  coverAt: ELEMENT_CALLS.coverAt,
  scrollPage: ENGINE_CALLS.scrollPage,
};

/** The schema the answer to `body` must fit. */
export function answerSchema(body: RequestBody): z.ZodType {
  if (body.kind === 'engine') return ENGINE_CALLS[body.call];
  if (body.kind === 'element') return body.action.op === 'typeJs' ? OkReason : ELEMENT_CALLS[body.action.op];
  return ANSWER_SCHEMAS[body.kind];
}

