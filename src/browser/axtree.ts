// Reads Chrome's accessibility tree of every frame over CDP and joins it into one tree, with an
// EncodedId and a path for each kept node, and the tagger's ID wherever the element has one.
import { axToSemanticNodes, buildAxTree, renderAxOutline, walkAx, type AxTreeNode, type AxTreeResult, type CdpAxNode } from '../model/renderers/axtree.js';
import { PagelensError } from '../model/contracts/errors.js';
import { globalId } from '../model/pagemodel/page.js';
import { isSecretFieldFacts } from '../model/safety/secrets.js';
import { tokenCounts } from '../model/renderers/tokens.js';
import type { LensCore } from './lensCore.js';
import { engineCall } from './engine.js';
import { describeFailure, frameInfo, type LaidOutFrame } from './frames.js';
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
  /** A secret field (src/model/safety/secrets.ts): its value and every name that embeds it are masked. */
  secret?: boolean;
}

interface AxRead {
  roots: AxTreeNode[];
  xpathMap: Record<string, string>;
  axNodes: number;
  /** Frames whose tree could not be read, with the reason. */
  failures: Map<LaidOutFrame, string>;
  /** Frames read only in part (their DOM could not be indexed: no IDs, no paths), with the reason. */
  warnings: string[];
  /** Frame ordinal → the document the tree was read from. */
  docs: Map<number, string>;
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
      const secret = isSecretFieldFacts({ tag: c.localName, type: attrOf(attrs, 'type'), autocomplete: attrOf(attrs, 'autocomplete') });
      facts.set(c.backendNodeId, { path: childPath, frameId, ...(at >= 0 && at % 2 === 0 && { llmAttr: attrs[at + 1] }), ...(secret && { secret }) });
      pending.push([c, childPath, frameId]);
      for (const sr of c.shadowRoots ?? []) pending.push([sr, `${childPath}/#shadow-root`, frameId]);
      if (c.contentDocument && c.frameId) pending.push([c.contentDocument, '', c.frameId]);
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
  }
  return facts;
}

/** Secret by its attributes now, or by the engine's word: a field that was secret once (a password turned to text). */
function isSecretFact(facts: DomFacts | undefined, onceSecret: Map<string, Set<string>>): boolean {
  if (!facts) return false;
  return facts.secret === true || (facts.llmAttr !== undefined && onceSecret.get(facts.frameId)?.has(facts.llmAttr) === true);
}

/** An attribute's value from CDP's flat [name, value, name, value…] list. */
function attrOf(attrs: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i].toLowerCase() === name) return attrs[i + 1];
  return undefined;
}

async function readFrames(layout: LaidOutFrame[]): Promise<AxRead> {
  const failures = new Map<LaidOutFrame, string>();
  const warnings: string[] = [];
  const docs = new Map<number, string>();
  /** Frame ID → the IDs of fields the engine holds secret though their attributes no longer say so (secretFields.ts). */
  const onceSecret = new Map<string, Set<string>>();
  const live = layout.filter((f) => !f.error);
  // Stamp first, so that every element the tagger would list carries its ID in the DOM we index.
  await Promise.all(live.map(async (f) => {
    try {
      await engineCall(f, 'tagAll');
      docs.set(f.ordinal, (await engineCall(f, 'domActivity')).doc);
      onceSecret.set(f.frameId, new Set(await engineCall(f, 'secretIds')));
    } catch (e) {
      failures.set(f, describeFailure(e));
    }
  }));
  const targets = [...new Set(live.map((f) => f.target))];
  const domByTarget = new Map<Target, Map<number, DomFacts>>();
  await Promise.all(targets.map(async (t) => {
    const rootFrame = live.find((f) => f.target === t && (!f.parent || f.parent.target !== t));
    if (!rootFrame) return;
    try {
      domByTarget.set(t, await indexDom(t, rootFrame.frameId));
    } catch (e) {
      const frames = live.filter((f) => f.target === t).map((f) => (f.ordinal ? `frame ${f.ordinal}` : 'the page'));
      warnings.push(`the DOM of ${frames.join(', ')} could not be indexed (${describeFailure(e)}): its nodes carry no data-llm-id and no path, act on them by EncodedId; no field there can be told apart from a secret one, so every value is withheld`);
    }
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
    const indexed = domByTarget.get(f.target);
    const dom = indexed ?? new Map<number, DomFacts>();
    const roots = buildAxTree(raw, {
      frame: f.ordinal,
      llmIdOf: (id) => {
        const attr = dom.get(id)?.llmAttr;
        return attr ? globalId(f.ordinal, attr) : undefined;
      },
      // Without the DOM, secrecy cannot be read: every field counts as secret.
      isSecret: (id) => (indexed ? isSecretFact(dom.get(id), onceSecret) : true),
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
  return { roots: built.get(layout[0]) ?? [], xpathMap, axNodes, failures, warnings, docs };
}

/**
 * The accessibility-tree path: Chrome's AX tree of every frame in one tree, as semantic nodes
 * and as an outline. Nodes the tagger stamped carry their data-llm-id, so either ID works, and
 * both are bound to the documents the tree was read from.
 */
export async function readAxTree(core: LensCore): Promise<AxTreeResult> {
  const t0 = performance.now();
  return core.frames.withLayout(async ({ frames: layout, warnings: layoutWarnings }) => {
    const read = await readFrames(layout);
    const mainFailure = read.failures.get(layout[0]);
    if (mainFailure) throw new PagelensError('CDP_ERROR', `Could not read the accessibility tree of the page: ${mainFailure}`);
    for (const [f, reason] of read.failures) f.error ??= reason;
    core.ax = { xpathMap: read.xpathMap, docs: read.docs };
    const outline = renderAxOutline(read.roots);
    const nodes = axToSemanticNodes(read.roots);
    let kept = 0;
    for (const n of walkAx(read.roots)) {
      kept++;
      const doc = read.docs.get(n.frame);
      if (n.llmId && doc) core.ids.note(n.llmId, { doc, frame: n.frame, role: n.role, name: n.name, centre: [0, 0], vocabulary: 'ax' });
    }
    for (const f of layout) { const doc = read.docs.get(f.ordinal); if (doc) core.ids.noteFrame(f.ordinal, doc, f.url); }
    const root = read.roots[0];
    const warnings = [...layoutWarnings, ...read.warnings];
    return {
      mode: 'axtree',
      url: layout[0].url,
      title: root?.role === 'RootWebArea' ? root.name : '',
      nodes,
      outline,
      xpathMap: read.xpathMap,
      frames: layout.map(frameInfo),
      ...(warnings.length > 0 && { warnings }),
      meta: {
        axNodes: read.axNodes,
        keptNodes: kept,
        interactiveNodes: nodes.length,
        taggedInteractive: nodes.filter((n) => n.id !== n.axId).length,
        extractionTimeMs: Math.round((performance.now() - t0) * 10) / 10,
        ...await tokenCounts({ estimatedTokens: outline }),
      },
    };
  });
}
