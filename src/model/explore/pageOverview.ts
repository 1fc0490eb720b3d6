// L0 of the hierarchical index (seed 002): the page in a few lines (title, status, landmarks,
// counts of controls and forms).
import type { PageOverview } from './explore.js';
import type { PageModel } from '../pagemodel/page.js';

export interface PageFacts {
  snapshotId: string;
  status: PageOverview['status'];
  regions: number;
}

const LANDMARK_WORD: Record<string, string> = { banner: 'header', navigation: 'nav', main: 'main', complementary: 'aside', contentinfo: 'footer', search: 'search', region: 'region' };

export function pageOverview(model: PageModel, facts: PageFacts): PageOverview {
  const tops = model.structure.filter((s, i) => s.kind === 'landmark' && !hasLandmarkAbove(model, i));
  const kinds = tops.map((s) => LANDMARK_WORD[s.role] ?? s.role);
  const forms = model.structure.filter((s) => s.kind === 'form' || s.tag === 'form').length;
  const frames = model.frames.length - 1;
  const lines = [
    `PAGE: ${model.url}`,
    `TITLE: ${JSON.stringify(model.title)}`,
    `VIEWPORT: ${model.viewport.width}x${model.viewport.height}`,
    `STATUS: ${facts.status}`,
    '',
    `LANDMARKS: ${tops.length}${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
    `INTERACTIVE: ${model.total} elements`,
    `FORMS: ${forms}`,
    `REGIONS: ${facts.regions}`,
  ];
  if (frames > 0) lines.push(`FRAMES: ${frames}`);
  if (model.warnings.length) lines.push(`WARNINGS: ${model.warnings.length} (see warnings)`);
  return {
    snapshotId: facts.snapshotId, url: model.url, title: model.title, viewport: model.viewport, status: facts.status,
    landmarks: { count: tops.length, kinds }, interactive: model.total, forms, frames, regions: facts.regions,
    ...(model.warnings.length && { warnings: model.warnings }),
    text: lines.join('\n'),
  };
}

function hasLandmarkAbove(model: PageModel, i: number): boolean {
  for (let k = model.structure[i].parent; k >= 0; k = model.structure[k].parent) if (model.structure[k].kind === 'landmark') return true;
  return false;
}
