// The page's content beside its controls: labelled values ("Price: $10", dt/dd, key/value
// tables), table cells, prices, and paragraphs, each with an ID from the same numbering as the
// controls. Read by one extra in-page pass (src/page/structure/readContent.ts) only when a task asks for it
// (a query snapshot, an extraction); plain snapshots never pay for it.
import { z } from 'zod';
import { Box } from './schema.js';

export const ContentKind = z.enum([
  /** A block of text (a paragraph, a list entry, a caption): `name` is the text. */
  'text',
  /** A value with its label: `name` the label ("Price", "Brand"), `value` the value. */
  'value',
  /** A cell of a data table: `name` its column (and row) header, `value` its text. */
  'cell',
  /** A heading (only when ContentOptions.headings): `name` its text, `value` its level ("1"-"6"). */
  'heading',
]);
export type ContentKind = z.infer<typeof ContentKind>;

export const ContentItem = z.object({
  /** Local element ID (the tagger's numbering). */
  id: z.string(),
  kind: ContentKind,
  name: z.string(),
  value: z.string().optional(),
  tag: z.string(),
  box: Box,
  /** IDs of the nearest ancestors that carry one, nearest first: ties the item to the structure. */
  up: z.array(z.string()),
});
export type ContentItem = z.infer<typeof ContentItem>;

export const ContentRead = z.object({
  /** The document that issued the IDs (see FrameSnapshot.doc). */
  doc: z.string(),
  items: z.array(ContentItem),
  /** More content than `max` items: the rest is left out (said, not hidden). */
  truncated: z.boolean(),
  timeMs: z.number(),
});
export type ContentRead = z.infer<typeof ContentRead>;

/** What the Node side asks of the content pass. */
export interface ContentOptions {
  /** At most this many items per frame. */
  max: number;
  /** Emit headings too, in document order with the text (the page's text as a reader sees it). */
  headings?: boolean;
}
