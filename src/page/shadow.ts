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
  if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
  return node.parentNode;
}

export function composedContains(ancestor: Node, node: Node | null): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) if (n === ancestor) return true;
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
