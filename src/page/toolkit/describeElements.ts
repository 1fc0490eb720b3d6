// The elements an answer shows, described as they are now (issue 12: the toolkit's answers).
import type { DescribeAnswer, DescribedElement, DescribeRequest, OptionInfo } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';
import { clean, nameOf } from '../semantics/names.js';
import { roleOf } from '../semantics/roles.js';
import { deepActiveElement } from '../identity/shadow.js';
import { statesOf, valueOf } from '../semantics/state.js';
import { flushStamps, lookup } from '../identity/tagger.js';
import { groupHints, selectorHints, shadowChain } from './selectorHints.js';

/**
 * The elements an answer shows, as they are now (role, name, value, states), with the options of
 * selects and selector hints where asked. IDs belong to document `doc`: in any other document
 * nothing is looked up, and the answer says which document it is.
 */
export function describeElements(doc: string, ids: string[], req: DescribeRequest = {}): DescribeAnswer {
  if (doc !== DOC) return { doc: DOC, elements: [], groups: [] };
  const focused = deepActiveElement(document);
  const wantHints = new Set(req.hints ?? []);
  const elements = ids.map((id): DescribedElement => {
    const el = lookup(id);
    if (!el) return { id, found: false };
    const role = roleOf(el, false);
    const out: DescribedElement = { id, found: true, role, name: nameOf(el, role), states: statesOf(el, focused).filter((s) => s !== 'focused'), childCount: el.childElementCount };
    const value = valueOf(el, role);
    if (value !== undefined) out.value = value;
    if (req.options && el instanceof HTMLSelectElement) out.options = { count: el.options.length, items: selectOptions(el, 12) };
    if (wantHints.has(id)) {
      const hints = selectorHints(el);
      const shadow = shadowChain(el);
      out.hints = shadow.length ? hints.map((h) => ({ ...h, shadow })) : hints;
    }
    return out;
  });
  const groups = (req.groups ?? []).map((g) => {
    const els = g.map(lookup);
    if (!els.length || els.some((e) => !e)) return [];
    const hints = groupHints(els as Element[]);
    const shadow = shadowChain(els[0]!);
    return shadow.length ? hints.map((h) => ({ ...h, shadow })) : hints;
  });
  flushStamps();
  return { doc: DOC, elements, groups };
}

export function selectOptions(el: HTMLSelectElement, limit: number): OptionInfo[] {
  return Array.from(el.options).slice(0, limit).map((o, index) => {
    const info: OptionInfo = { index, label: clean(o.label || o.textContent, 60), selected: o.selected };
    if (o.value && o.value !== info.label) info.value = clean(o.value, 60);
    if (o.disabled) info.disabled = true;
    return info;
  });
}
