// The page's text as a reader sees it on the CDP host: src/core/pageText.ts over this host's engine
// side of the port.
import { readPageText as readOn, type PageText } from '../core/pageText.js';
import type { LensCore } from './core.js';
import { cdpEngine } from './hostEngine.js';

export type { PageText, TextBlock } from '../core/pageText.js';

export const readPageText = (core: LensCore): Promise<PageText> => readOn(cdpEngine(core, 'pagelens-pagetext'));
