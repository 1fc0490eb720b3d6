// The page's large visual blocks and geometry (issue 12: regions): a handful of top-level
// containers, never a walk of the page.
import type { PageLayout, VisualBlock } from '../../model/contracts/engineAnswers.js';
import type { Box } from '../../model/contracts/schema.js';
import { DOC } from '../identity/document.js';
import { clean } from '../semantics/names.js';
import { composedParent } from '../identity/shadow.js';
import { structName } from './structure.js';
import { flushStamps, idFor, lookup, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';
import { GENERATED_ID } from '../toolkit/selectorHints.js';

const SKIP_BLOCK = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'svg']);

function blockChildren(el: Element): Array<[Element, Box]> {
  const out: Array<[Element, Box]> = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (SKIP_BLOCK.has(c.tagName)) continue;
    const box = visibleBox(c);
    if (box && box[2] >= 4 && box[3] >= 4) out.push([c, box]);
  }
  return out;
}

function pathStep(el: Element): string {
  const tag = el.localName;
  const id = el.getAttribute('id');
  if (id && /^[A-Za-z][\w-]*$/.test(id) && !GENERATED_ID.test(id)) return `${tag}#${id}`;
  const cls = Array.from(el.classList).find((c) => /^[A-Za-z_-][\w-]*$/.test(c));
  const shape = cls ? `${tag}.${cls}` : tag;
  const parent = el.parentElement;
  if (!parent) return shape;
  const same = Array.from(parent.children).filter((c) => c.localName === tag && (!cls || c.classList.contains(cls)));
  return same.length > 1 ? `${shape}[${same.indexOf(el) + 1}]` : shape;
}

/**
 * The page's large visual blocks: the visible children of <body>, below the wrappers that hold
 * everything (a lone visible child is descended into). Each ID asked about is placed in the
 * block that holds it.
 */
export function pageLayout(ids: string[]): PageLayout {
  const se = document.scrollingElement ?? document.documentElement;
  const body = document.body;
  const blocks: VisualBlock[] = [];
  const blockEls = new Map<Element, number>();
  if (body) {
    let container: Element = body;
    const path = ['body'];
    let kids = blockChildren(container);
    for (let depth = 0; depth < 12 && kids.length === 1 && kids[0][0].childElementCount > 0; depth++) {
      container = kids[0][0];
      path.push(pathStep(container));
      kids = blockChildren(container);
    }
    for (const [el, box] of kids) {
      blockEls.set(el, blocks.length);
      const attrs: Record<string, string> = {};
      for (const a of ['id', 'class', 'role', 'aria-label']) { const v = el.getAttribute(a); if (v) attrs[a] = clean(v, 60); }
      blocks.push({ id: idFor(el) ?? stamp(el), tag: el.localName, path: '/' + [...path, pathStep(el)].join('/'), box, name: structName(el), childCount: el.childElementCount, attrs });
    }
  }
  const member = ids.map((id) => {
    for (let p: Node | null = lookup(id); p; p = composedParent(p)) {
      const i = blockEls.get(p as Element);
      if (i !== undefined) return i;
    }
    return -1;
  });
  const out: PageLayout = {
    doc: DOC,
    readyState: document.readyState,
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
    content: { width: se.scrollWidth, height: se.scrollHeight },
    elementCount: document.getElementsByTagName('*').length,
    body: body ? { id: idFor(body) ?? stamp(body), childCount: body.childElementCount } : null,
    blocks,
    member,
  };
  flushStamps();
  return out;
}
