// Reads Chrome's accessibility tree of every frame over CDP and joins it into one tree, with an
// EncodedId and a path for each kept node, and the tagger's ID wherever the element has one.
import { buildAxTree, type AxTreeNode, type CdpAxNode } from '../model/axtree.js';
import { globalId } from '../model/page.js';
import type { LaidOutFrame } from './lens.js';
import type { Target } from './target.js';

interface DomNode {
  nodeType: number;
  localName?: string;
  backendNodeId: number;
  attributes?: string[];
  frameId?: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

/** What the DOM says about one node: its path inside its document and its data-llm-id. */
interface DomFacts {
  path: string;
  frameId: string;
  llmAttr?: string;
}

export interface AxFrameTree {
  frame: LaidOutFrame;
  roots: AxTreeNode[];
  rawCount: number;
}

export interface AxRead {
  roots: AxTreeNode[];
  xpathMap: Record<string, string>;
  axNodes: number;
  /** Frames whose tree could not be read, with the reason. */
  failures: Map<LaidOutFrame, string>;
}

/** Indexes one target's DOM (shadow roots and same-process frames included) by backend node ID. */
async function indexDom(target: Target, rootFrameId: string): Promise<Map<number, DomFacts>> {
  const { root } = await target.cdp.send<{ root: DomNode }>('DOM.getDocument', { depth: -1, pierce: true });
  await target.cdp.send('DOM.disable').catch(() => {});
  const facts = new Map<number, DomFacts>();
  const stack: Array<[DomNode, string, string]> = [[root, '', rootFrameId]];
  while (stack.length) {
    const [node, path, frameId] = stack.pop()!;
    const counts = new Map<string, number>();
    const kids = node.children ?? [];
    const pending: Array<[DomNode, string, string]> = [];
    for (const c of kids) {
      if (c.nodeType !== 1 || !c.localName) continue;
      const n = (counts.get(c.localName) ?? 0) + 1;
      counts.set(c.localName, n);
      const childPath = `${path}/${c.localName}[${n}]`;
      const attrs = c.attributes ?? [];
      const at = attrs.indexOf('data-llm-id');
      facts.set(c.backendNodeId, { path: childPath, frameId, ...(at >= 0 && at % 2 === 0 && { llmAttr: attrs[at + 1] }) });
      pending.push([c, childPath, frameId]);
      for (const sr of c.shadowRoots ?? []) pending.push([sr, `${childPath}/#shadow-root`, frameId]);
      if (c.contentDocument && c.frameId) pending.push([c.contentDocument, '', c.frameId]);
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
  }
  return facts;
}

export async function readAxTree(layout: LaidOutFrame[]): Promise<AxRead> {
  const failures = new Map<LaidOutFrame, string>();
  const live = layout.filter((f) => !f.error);
  // Stamp first, so that every element the tagger would list carries its ID in the DOM we index.
  await Promise.all(live.map((f) => f.target.callEngine(f.frameId, 'tagAll').catch((e) => { failures.set(f, String((e as Error).message)); })));
  const targets = [...new Set(live.map((f) => f.target))];
  const domByTarget = new Map<Target, Map<number, DomFacts>>();
  await Promise.all(targets.map(async (t) => {
    const rootFrame = live.find((f) => f.target === t && (!f.parent || f.parent.target !== t));
    if (!rootFrame) return;
    domByTarget.set(t, await indexDom(t, rootFrame.frameId).catch(() => new Map()));
  }));
  const rawByFrame = new Map<LaidOutFrame, CdpAxNode[]>();
  await Promise.all(live.filter((f) => !failures.has(f)).map(async (f) => {
    try {
      const { nodes } = await f.target.cdp.send<{ nodes: CdpAxNode[] }>('Accessibility.getFullAXTree', { frameId: f.frameId });
      rawByFrame.set(f, nodes);
    } catch (e) {
      failures.set(f, (e as Error).message);
    }
  }));

  const xpathMap: Record<string, string> = {};
  const prefix = new Map<LaidOutFrame, string>();
  const prefixOf = (f: LaidOutFrame): string => {
    let p = prefix.get(f);
    if (p !== undefined) return p;
    if (!f.parent) p = '';
    else {
      const ownerPath = f.ownerBackendId !== undefined ? domByTarget.get(f.parent.target)?.get(f.ownerBackendId)?.path : undefined;
      p = `${prefixOf(f.parent)}${ownerPath ?? '/?'}/#document`;
    }
    prefix.set(f, p);
    return p;
  };

  // Children before parents, so that an iframe node can take in its frame's finished tree.
  const built = new Map<LaidOutFrame, AxTreeNode[]>();
  let axNodes = 0;
  for (const f of [...live].reverse()) {
    const raw = rawByFrame.get(f);
    if (!raw) continue;
    axNodes += raw.length;
    const dom = domByTarget.get(f.target) ?? new Map<number, DomFacts>();
    const roots = buildAxTree(raw, {
      frame: f.ordinal,
      llmIdOf: (id) => {
        const attr = dom.get(id)?.llmAttr;
        return attr ? globalId(f.ordinal, attr) : undefined;
      },
      frameRoots: (iframeId) => {
        const child = live.find((c) => c.parent === f && c.ownerBackendId === iframeId);
        return child ? built.get(child) : undefined;
      },
    });
    built.set(f, roots);
    const framePrefix = prefixOf(f);
    const record = (nodes: AxTreeNode[]) => {
      for (const n of nodes) {
        if (n.frame === f.ordinal && n.backendNodeId !== undefined) {
          const path = dom.get(n.backendNodeId)?.path;
          if (path) xpathMap[n.axId] = framePrefix + path;
        }
        if (n.frame === f.ordinal) record(n.children);
      }
    };
    record(roots);
  }
  return { roots: built.get(layout[0]) ?? [], xpathMap, axNodes, failures };
}
