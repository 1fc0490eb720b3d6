// DOM RAG (issue 13): chunking, relevance and the budgeted `filtered` payload. PLACEHOLDER
// schema: the issue-13 work replaces it with the real one and adds the pure functions.
import { z } from 'zod';

export const FilteredResult = z.looseObject({ mode: z.literal('filtered') });
export type FilteredResult = z.infer<typeof FilteredResult>;
