// What a parent frame knows about the iframes it hosts: where their content sits, whether they
// are sandboxed, and whether a point in the parent really reaches them.
import type { OwnerInfo } from '../../model/contracts/engine.js';
import { composedContains, deepElementFromPoint } from './shadow.js';

export function frameOwners(owners: Element[]): OwnerInfo[] {
  const sorted = [...owners].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return owners.map((el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const left = r.left + el.clientLeft + parseFloat(style.paddingLeft || '0');
    const top = r.top + el.clientTop + parseFloat(style.paddingTop || '0');
    return {
      content: [left, top, el.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0'),
        el.clientHeight - parseFloat(style.paddingTop || '0') - parseFloat(style.paddingBottom || '0')],
      sandboxed: el.hasAttribute('sandbox'),
      visible: el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && r.width > 0 && r.height > 0,
      order: sorted.indexOf(el),
    };
  });
}

/** For each point (in this frame's viewport), whether a click there lands in the iframe. */
export function ownerHits(owner: Element, points: Array<[number, number]>): boolean[] {
  return points.map(([x, y]) => {
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
    const hit = deepElementFromPoint(document, x, y);
    return !hit || composedContains(owner, hit);
  });
}
