// The page's text as an agent reads it: a bounded section in navigation answers (so "what does
// the page say" needs no second call), and browser_page_text to read the rest, page by page.
// Each line starts with its element's ID (a line in frame 1: "f1_12"), which every tool that takes
// an ID accepts; headings are marked with #s.
import { z } from 'zod';
import type { ToolLens } from '../registry/toolLens.js';
import { fitLines, pageOfText } from '../answers/budget.js';
import { defineTool, type ToolDef } from '../registry/types.js';

/** The text section of a navigation answer: enough for the gist, lean beside the tree. */
export const ANSWER_TEXT_TOKENS = 300;
const DEFAULT_PAGE_TOKENS = 2000;

type TextBlock = Awaited<ReturnType<NonNullable<ToolLens['pageText']>>>['blocks'][number];

/** `12 ## Heading`, `f1_13 A paragraph`: the line's ID first (its frame is in it), as an element line's. */
function renderBlock(b: TextBlock): string {
  return b.level ? `${b.id} ${'#'.repeat(b.level)} ${b.text}` : `${b.id} ${b.text}`;
}

/** The first blocks within `maxTokens` (the page's own lines), and pagelens's lines about them: how many more and how to read them, warnings. */
export async function textBlocks(lens: ToolLens, maxTokens = ANSWER_TEXT_TOKENS): Promise<{ page: string[]; notes: string[] }> {
  const { blocks, warnings } = await lens.pageText!();
  const { kept, left } = await fitLines(blocks, renderBlock, maxTokens);
  const notes = warnings.map((w) => `warning: ${w}`);
  // Worded so that it never reads as a text line ("12 …" is a line of element 12).
  if (left) notes.unshift(`and ${left} more text blocks: browser_page_text reads them all`);
  return { page: kept.map(renderBlock), notes };
}

export const PAGE_TEXT_TOOL: ToolDef = defineTool({
  name: 'browser_page_text',
  description: 'The page\'s text, page by page, each block after its ID.',
  input: z.strictObject({
    page: z.number().int().min(1).optional(),
    maxTokens: z.number().int().min(100).max(50_000).optional(),
  }),
  needs: ['pageText'],
  run: async ({ lens }, a) => {
    const { blocks, warnings } = await lens.pageText!();
    const all = blocks.map(renderBlock).join('\n');
    const p = await pageOfText(all, a.maxTokens ?? DEFAULT_PAGE_TOKENS, a.page ?? 1);
    const lines = [p.text || '(the page shows no text)'];
    if (p.pages > 1) lines.push(`(page ${p.page} of ${p.pages}${p.page < p.pages ? `: browser_page_text page=${p.page + 1} for more` : ''})`);
    for (const w of warnings) lines.push(`warning: ${w}`);
    return { text: lines.join('\n'), data: { page: p.page, pages: p.pages, warnings } };
  },
});
