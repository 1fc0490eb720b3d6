// The page's text as a reader sees it: headings and text blocks (paragraphs, list entries,
// labelled values, table cells), in document order, frame after frame. Read by the engine's
// content pass in its isolated world, so page scripts cannot shape what is read back. Written once
// above the port (engine calls in every frame the host lays out).
import type { ContentItem } from '../model/contracts/content.js';
import type { HostEngine } from '../model/contracts/host.js';
import { globalId } from '../model/pagemodel/page.js';

export interface TextBlock {
  /**
   * The element's ID ("12", "f1_12"), handed out like a snapshot's: every tool that takes an ID
   * (a screenshot of the line, a hover, a scroll to it) takes it, with the same stale and document rules.
   */
  id: string;
  /** Frame ordinal (0 = the page itself). */
  frame: number;
  /** 1-6 for a heading. */
  level?: number;
  text: string;
}

export interface PageText {
  blocks: TextBlock[];
  /** Frames whose text could not be read, and frames with more items than were read. */
  warnings: string[];
}

/** Items read per frame at most: past that the page says so (PageText.warnings). */
const ITEMS_PER_FRAME = 2000;

function blockOf(frame: number, item: ContentItem): TextBlock | null {
  const id = globalId(frame, item.id);
  if (item.kind === 'heading') return item.name ? { id, frame, level: Number(item.value) || 2, text: item.name } : null;
  if (item.kind === 'text') return { id, frame, text: item.name };
  // A labelled value or a table cell reads as "Label: value".
  return item.value ? { id, frame, text: `${item.name}: ${item.value}` } : null;
}

/** A block handed out: its ID, the document that issued it, and the words its element must still show to be acted on (none for a labelled value, whose words come from two elements). */
export type ShownBlock = (block: TextBlock, doc: string, shows: string) => void;

/** `shown`: called for every block read, so that the caller hands its ID out (src/core/lens.ts). */
export async function readPageText(engine: HostEngine, shown?: ShownBlock): Promise<PageText> {
  return engine.layout(async (frames, layoutWarnings) => {
    const warnings = [...layoutWarnings];
    const reads = await Promise.all(frames.map(async (f) => {
      if (f.error) { warnings.push(`frame ${f.ordinal}: ${f.error}`); return []; }
      try {
        const read = await engine.engine(f, 'content', [{ max: ITEMS_PER_FRAME, headings: true }]);
        if (read.truncated) warnings.push(`frame ${f.ordinal}: more than ${ITEMS_PER_FRAME} text items; the rest is left out`);
        return read.items.flatMap((i) => {
          const b = blockOf(f.ordinal, i);
          if (!b) return [];
          shown?.(b, read.doc, i.kind === 'text' || i.kind === 'heading' ? i.name : '');
          return [b];
        });
      } catch (e) {
        warnings.push(`frame ${f.ordinal}: its text could not be read (${engine.describe(e)})`);
        return [];
      }
    }));
    return { blocks: reads.flat(), warnings };
  });
}
