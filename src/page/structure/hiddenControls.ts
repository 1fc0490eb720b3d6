// Interactive elements that cannot be seen (issue 12: dom_overview visible:false).
import type { HiddenControl, HiddenControls } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';
import { isInteractiveByMarkup } from '../semantics/interactive.js';
import { clean, nameOf } from '../semantics/names.js';
import { roleOf } from '../semantics/roles.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';

const CONTROLS = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[onclick]';

/** Interactive elements that cannot be seen (collapsed menus, closed dialogs), for an overview that asks for them. */
export function hiddenControls(limit: number): HiddenControls {
  const controls: HiddenControl[] = [];
  let total = 0;
  for (const el of Array.from(document.querySelectorAll(CONTROLS))) {
    if (!isInteractiveByMarkup(el) || visibleBox(el)) continue;
    total++;
    if (controls.length >= limit) continue;
    const role = roleOf(el, false);
    const attrs: Record<string, string> = {};
    for (const a of ['id', 'name', 'type', 'class', 'href', 'placeholder', 'aria-label', 'role']) { const v = el.getAttribute(a); if (v) attrs[a] = clean(v, 60); }
    controls.push({ id: idFor(el) ?? stamp(el), role, name: nameOf(el, role), tag: el.localName, attrs });
  }
  flushStamps();
  return { doc: DOC, total, controls };
}
