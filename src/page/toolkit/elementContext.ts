// One element in depth: its real XPath across shadow roots, attributes (secrets redacted),
// options, the forms and landmarks around it, and selector hints.
import type { ContextLink, RawElementContext } from '../../model/contracts/engineAnswers.js';
import { listOptions } from '../acting/actions.js';
import { clean, nameOf } from '../semantics/names.js';
import { roleOf } from '../semantics/roles.js';
import { composedParent, deepActiveElement } from '../identity/shadow.js';
import { isSecretField, REDACTED, statesOf, valueOf } from '../semantics/state.js';
import { structName, structureOf } from '../structure/structure.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';
import { sameTagIndex, selectorHints, shadowChain } from './selectorHints.js';
import { selectOptions } from './describeElements.js';

/** Real XPath within the element's document; `#shadow-root` steps into a shadow root (as resolvePath reads it). */
export function xpathOf(el: Element): string {
  const steps: string[] = [];
  let node: Element | null = el;
  while (node) {
    steps.unshift(`${node.localName}[${sameTagIndex(node)}]`);
    const parent: Node | null = node.parentNode;
    if (parent instanceof ShadowRoot) {
      steps.unshift('#shadow-root');
      node = parent.host;
    } else {
      node = parent instanceof Element ? parent : null;
    }
  }
  return '/' + steps.join('/');
}

const SKIP_ATTRS = /^data-llm-/;

export function elementContext(el: Element): RawElementContext {
  const role = roleOf(el, false);
  const out: RawElementContext = {
    tag: el.localName,
    role,
    name: nameOf(el, role),
    states: statesOf(el, deepActiveElement(el.ownerDocument)),
    xpath: xpathOf(el),
    box: visibleBox(el),
    attributes: attributesOf(el),
    chain: contextChain(el),
    shadow: shadowChain(el),
    hints: selectorHints(el),
  };
  const value = valueOf(el, role);
  if (value !== undefined) out.value = value;
  if (el instanceof HTMLSelectElement) {
    out.options = selectOptions(el, 50);
    out.optionCount = el.options.length;
  } else if (role === 'combobox' || role === 'listbox' || el.getAttribute('aria-haspopup') === 'listbox') {
    const list = listOptions(el);
    out.options = list.options.slice(0, 50).map((o, index) => ({ index, label: o.name, selected: o.selected, ...(o.disabled && { disabled: true }) }));
    out.optionCount = list.options.length;
  }
  if (out.shadow.length) out.hints = out.hints.map((h) => ({ ...h, shadow: out.shadow }));
  flushStamps();
  return out;
}

function attributesOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) {
    if (SKIP_ATTRS.test(a.name)) continue;
    // The value attribute of a secret field is what the page put there: still never sent.
    if (a.name === 'value' && (isSecretField(el) || el instanceof HTMLTextAreaElement)) { out.value = REDACTED; continue; }
    out[a.name] = clean(a.value, a.name === 'style' || a.name === 'class' ? 80 : 120);
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement || el instanceof HTMLButtonElement) {
    if (!('required' in out) && !(el instanceof HTMLButtonElement)) out.required = String(el.required);
    if (!('disabled' in out)) out.disabled = String(el.disabled);
  }
  return out;
}

/** Landmarks, forms, fieldsets, tables, dialogs and sections around the element, outermost first. */
function contextChain(el: Element): ContextLink[] {
  const out: ContextLink[] = [];
  for (let p = composedParent(el); p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue;
    const hit = structureOf(p);
    if (hit) out.unshift({ id: idFor(p) ?? stamp(p), kind: hit.kind, role: hit.role, tag: p.localName, name: structName(p) });
  }
  return out;
}
