// The hierarchical index and the exploration toolkit (issue 12): page overview, regions, expand,
// element context, dom_overview, diff, search. PLACEHOLDER: replaced by the issue-12 work; the
// facade (lens.ts) already calls these.
import { PagelensError } from '../model/errors.js';
import type { LensCore } from './core.js';

const notYet = (what: string) => new PagelensError('INTERNAL', `${what} is not built yet`);

export async function pageOverview(_core: LensCore): Promise<unknown> { throw notYet('pageOverview'); }
export async function regions(_core: LensCore): Promise<unknown> { throw notYet('regions'); }
export async function expandRegion(_core: LensCore, _region: string): Promise<unknown> { throw notYet('expandRegion'); }
export async function elementContext(_core: LensCore, _target: string): Promise<unknown> { throw notYet('elementContext'); }
export async function domOverview(_core: LensCore, _params: unknown): Promise<unknown> { throw notYet('overview'); }
export async function domDiff(_core: LensCore, _a: string, _b: string): Promise<unknown> { throw notYet('diff'); }
export async function domSearch(_core: LensCore, _query: string): Promise<unknown> { throw notYet('search'); }
