// The options of native <select> elements, by ID, for the skeleton: the model lists the select and
// its chosen value; which other choices exist is only asked for when an artifact shows them.
import type { NativeOptions } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';
import { clean } from './names.js';
import { lookup } from '../identity/tagger.js';

const MAX_LABEL = 80;

/** Up to `max` options of each select (selected ones always), and how many there are in all. */
export function nativeOptions(ids: string[], max: number): NativeOptions {
  const selects: NativeOptions['selects'] = [];
  for (const id of ids) {
    const el = lookup(String(id));
    if (!(el instanceof HTMLSelectElement)) continue;
    const all = Array.from(el.options);
    const shown = all.filter((o, i) => i < max || o.selected);
    selects.push({
      id: String(id),
      total: all.length,
      options: shown.map((o) => ({
        label: clean(o.label || o.textContent, MAX_LABEL),
        value: o.value.slice(0, MAX_LABEL),
        selected: o.selected,
        disabled: o.disabled,
      })),
    });
  }
  return { doc: DOC, selects };
}
