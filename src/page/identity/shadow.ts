// Shadow roots, open and closed. Open roots are reachable through `host.shadowRoot`; closed ones
// are handed to the engine from outside (the Node side resolves them over CDP and calls
// adoptShadowRoot), because no script in the page can reach them by itself.
const closedRoots = new WeakMap<Element, ShadowRoot>();
const rootListeners: Array<(root: ShadowRoot) => void> = [];

export function shadowRootOf(el: Element): ShadowRoot | null {
  return el.shadowRoot ?? closedRoots.get(el) ?? null;
}

export function adoptShadowRoot(root: ShadowRoot): boolean {
  if (!(root instanceof ShadowRoot)) return false;
  if (closedRoots.get(root.host) === root) return false;
  closedRoots.set(root.host, root);
  for (const listener of rootListeners) listener(root);
  return true;
}

export function onShadowRootAdopted(listener: (root: ShadowRoot) => void): void {
  rootListeners.push(listener);
}

/** Parent across shadow boundaries: the host stands in for a shadow root. */
export function composedParent(node: Node): Node | null {
  // An element parent, the common case, is answered without asking what kind of node the parent is.
  const el = node.parentElement;
  if (el) return el;
  const parent = node.parentNode;
  return parent instanceof ShadowRoot ? parent.host : parent;
}

/** Whether `node` is `ancestor` or lies under it, shadow roots included (their hosts stand above them). */
export function composedContains(ancestor: Element, node: Node | null): boolean {
  // Node.contains answers within one tree without a step in script per ancestor (a walk's replay
  // asks this for every target it replays); a node in a shadow tree goes on from its host.
  for (let n = node; n; ) {
    if (ancestor.contains(n)) return true;
    const root = n.getRootNode();
    n = root instanceof ShadowRoot ? root.host : null;
  }
  return false;
}

export function isInShadow(el: Element): boolean {
  return el.getRootNode() instanceof ShadowRoot;
}

/** The element under a point, descending into open and adopted closed shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit) {
    const root = shadowRootOf(hit);
    if (!root) break;
    const inner = root.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

export function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active) {
    const root = shadowRootOf(active);
    if (!root || !root.activeElement) break;
    active = root.activeElement;
  }
  return active;
}
