// observe / act / extract over the budgeted tree (issue 13). PLACEHOLDER: replaced by the
// issue-13 work; the facade (lens.ts) already calls these.
import { PagelensError } from '../model/errors.js';
import type { LensCore } from './core.js';

const notYet = (what: string) => new PagelensError('INTERNAL', `${what} is not built yet`);

export async function observe(_core: LensCore, _instruction: string, _opts?: unknown): Promise<unknown> { throw notYet('observe'); }
export async function actOn(_core: LensCore, _instruction: string, _opts?: unknown): Promise<unknown> { throw notYet('actOn'); }
export async function extract(_core: LensCore, _instruction: string, _schema?: unknown, _opts?: unknown): Promise<unknown> { throw notYet('extract'); }
