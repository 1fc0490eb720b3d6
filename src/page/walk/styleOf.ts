// An element's computed style, with the last element's declaration kept. A walk asks for one
// element's style from several places in a row (its look, its children's context, its name), and
// each getComputedStyle call makes a new declaration object for the garbage collector to trace. A
// declaration is live (it reads the element's style as it is whenever a property is read), so
// handing the same one out again is exact.
let lastEl: Element | null = null;
let lastStyle: CSSStyleDeclaration | null = null;

export function styleOf(el: Element): CSSStyleDeclaration {
  if (el !== lastEl || !lastStyle) {
    lastStyle = getComputedStyle(el);
    lastEl = el;
  }
  return lastStyle;
}

/** Lets go of the kept element (a read ends: the element may be removed from the page next). */
export function releaseStyle(): void {
  lastEl = null;
  lastStyle = null;
}
