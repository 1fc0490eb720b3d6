// Text blocks: long paragraphs (dom_overview's key text), or the innermost blocks whose text
// contains a query (dom_search), in document order.
import type { TextBlock, TextBlockQuery, TextBlocks } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';
import { norm } from '../toolkit/selectorHints.js';

const TEXT_BLOCKS = 'p,li,td,th,dd,dt,blockquote,figcaption,caption,pre,h1,h2,h3,h4,h5,h6,legend,summary,article,section,div,span';
const INSIDE_CONTROL = 'a,button,label,select,option,textarea,[role=button],[role=link]';

/**
 * Paragraphs longer than `minLength` (the key text of dom_overview), or, with a query, the
 * innermost blocks whose text contains it (dom_search), in document order.
 */
export function textBlocks(q: TextBlockQuery): TextBlocks {
  const out: TextBlock[] = [];
  if (!document.body) return { doc: DOC, blocks: out };
  if (q.query === undefined) {
    for (const p of Array.from(document.body.querySelectorAll('p'))) {
      if (out.length >= q.limit) break;
      const text = norm(p.textContent ?? '');
      if (text.length <= q.minLength) continue;
      const box = visibleBox(p);
      if (box) out.push({ id: idFor(p) ?? stamp(p), tag: 'p', text: clip(text, 100), length: text.length, box });
    }
  } else {
    const wanted = norm(q.query).toLowerCase();
    if (!wanted) return { doc: DOC, blocks: out };
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t && out.length < q.limit; t = walker.nextNode()) {
      const parent = t.parentElement;
      if (!parent || !t.textContent?.trim() || parent.closest('script,style,noscript,template')) continue;
      if (parent.closest(INSIDE_CONTROL)) continue; // controls are found among the elements
      const block = parent.closest(TEXT_BLOCKS) ?? parent;
      if (seen.has(block)) continue;
      seen.add(block);
      const text = norm(block.textContent ?? '');
      const at = text.toLowerCase().indexOf(wanted);
      if (at < 0) continue;
      const box = visibleBox(block);
      if (!box) continue;
      out.push({ id: idFor(block) ?? stamp(block), tag: block.localName, text: around(text, at, wanted.length), length: text.length, box });
    }
  }
  flushStamps();
  return { doc: DOC, blocks: out };
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

function around(text: string, at: number, len: number): string {
  if (text.length <= 100) return text;
  const start = Math.max(0, Math.min(at - 40, text.length - 100));
  return (start > 0 ? '…' : '') + text.slice(start, start + 98) + (start + 98 < text.length ? '…' : '');
}
