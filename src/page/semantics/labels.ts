// Labels, read once per snapshot. Chrome builds a control's `labels` list by scanning its whole
// document, once per control: naming every field of a large form that way is quadratic (10k
// fields: 10 s). During a snapshot the `labels` getter of our isolated world (the page's own
// prototypes are untouched) answers from one index of every label per document or shadow root.
type Labelable = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement | HTMLMeterElement | HTMLOutputElement | HTMLProgressElement;

const PROTOTYPES = [HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement, HTMLButtonElement, HTMLMeterElement, HTMLOutputElement, HTMLProgressElement]
  .map((c) => c.prototype as Labelable);
const NATIVE = PROTOTYPES.map((p) => Object.getOwnPropertyDescriptor(p, 'labels'));

/** Runs `fn` with `element.labels` answered from an index built on first use per tree scope. */
export function withLabelIndex<T>(fn: () => T): T {
  const index = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  const labelsOf = (el: Element): HTMLLabelElement[] => {
    const root = el.getRootNode();
    let byControl = index.get(root);
    if (!byControl) {
      byControl = new Map();
      const scope = root as Document | ShadowRoot;
      for (const label of Array.from(scope.querySelectorAll?.('label') ?? [])) {
        const control = (label as HTMLLabelElement).control;
        if (!control) continue;
        const list = byControl.get(control);
        if (list) list.push(label as HTMLLabelElement); else byControl.set(control, [label as HTMLLabelElement]);
      }
      index.set(root, byControl);
    }
    return byControl.get(el) ?? [];
  };
  PROTOTYPES.forEach((p, i) => {
    const native = NATIVE[i];
    if (!native?.get) return;
    Object.defineProperty(p, 'labels', {
      configurable: true,
      enumerable: native.enumerable,
      // A hidden input has no labels (null), as natively.
      get(this: Element) { return this instanceof HTMLInputElement && this.type === 'hidden' ? null : labelsOf(this); },
    });
  });
  try {
    return fn();
  } finally {
    PROTOTYPES.forEach((p, i) => { const native = NATIVE[i]; if (native) Object.defineProperty(p, 'labels', native); });
  }
}

/**
 * The labels a person clicks to operate a control: those bound to it, else a label right beside it
 * that is bound to nothing (its `for` names an id no element has, the classic to-do's "toggle
 * all"): the name hunt reads that label's text as the control's name, and the page listens on it.
 */
export function labelsFor(el: Element): HTMLLabelElement[] {
  const bound = (el as HTMLInputElement).labels;
  if (bound?.length) return Array.from(bound);
  // Only a box to tick is paired so: beside a text field, a label bound to nothing is a hint.
  const type = el.tagName === 'INPUT' ? (el as HTMLInputElement).type : '';
  if (type !== 'checkbox' && type !== 'radio') return [];
  for (const sib of [el.nextElementSibling, el.previousElementSibling]) {
    if (sib?.tagName === 'LABEL' && !(sib as HTMLLabelElement).control) return [sib as HTMLLabelElement];
  }
  return [];
}

/** The control a label is bound to, or the one beside it that labelsFor() pairs it with. */
export function controlOfLabel(label: HTMLLabelElement): Element | null {
  if (label.control) return label.control;
  for (const sib of [label.previousElementSibling, label.nextElementSibling]) {
    if (sib?.tagName === 'INPUT' && labelsFor(sib).includes(label)) return sib;
  }
  return null;
}
