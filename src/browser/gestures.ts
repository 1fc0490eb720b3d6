// Finding the elements that listen for gestures other than a click — double click, right click,
// hover, drag and drop — so the engine lists them (src/page/semantics/gestures.ts). A few CDP calls per frame
// (DOMDebugger.getEventListeners over the document's frame-free subtrees) see the listeners of every world,
// the page's own included, without wrapping addEventListener in the page (which its scripts
// could see) and without any per-element cost in the walk. It costs a few to tens of ms on a
// large page, so hosts run it when they read a page anew (after a navigation, on a snapshot),
// not before every delta. Shadow trees are read from the inside (their subtrees are roots of
// their own). Not seen: listeners on the elements that hold an iframe or a shadow host, and on
// shadow hosts themselves (see gestureRoots in src/page/semantics/gestures.ts for why).
import type { LensCore } from './lensCore.js';
import { describeFailure } from './frames.js';
import type { Target } from './target.js';

const GESTURE_EVENTS = new Set(['dblclick', 'contextmenu', 'mouseover', 'mouseenter', 'pointerenter', 'pointerover', 'dragstart', 'dragover', 'drop']);
const DROP_EVENTS = new Set(['dragover', 'drop']);
const HOVER_EVENTS = new Set(['mouseover', 'mouseenter', 'pointerenter', 'pointerover']);
// Frames of one renderer share a target: each frame's search holds its handles in a group of its
// own, so that one frame's release cannot free the handles another frame's search still uses
// ("Could not find object with given id" on a page with same-process iframes).
let searches = 0;

interface Listener { type: string; backendNodeId?: number }

/**
 * The backend nodes already marked, per renderer target and frame. A backend node ID names one
 * node for the life of its renderer, and the mark lives with the node, so a node in here is marked.
 */
const marked = new WeakMap<Target, Map<string, Set<number>>>();

function knownOf(target: Target, frameId: string): Set<number> {
  let frames = marked.get(target);
  if (!frames) marked.set(target, frames = new Map());
  let known = frames.get(frameId);
  if (!known) frames.set(frameId, known = new Set());
  return known;
}

/** The engine's gestureRoots(): the subtrees that may be asked with pierce, as handles in the page's own world. */
async function subtreesWithoutFrames(target: Target, frameId: string, group: string, onlyIfChanged: boolean): Promise<string[]> {
  const list = await target.callFunction<{ objectId: string }>(frameId, `function () { return globalThis.__pagelens.gestureRoots(${onlyIfChanged}); }`, [], false, group);
  const { result } = await target.cdp.send<{ result: Array<{ name: string; value?: { objectId?: string } }> }>('Runtime.getProperties', { objectId: list.objectId, ownProperties: true });
  const isolated = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
  return Promise.all(isolated.map((objectId) => inPageWorld(target, objectId, group)));
}

/**
 * The same node as a handle of the page's own world. DOMDebugger.getEventListeners wraps every
 * listener's function in the world of the node it is asked about: asked about our isolated
 * world's handles, it wrapped the page's functions there, and the renderer's next minor GC hung
 * for good in its weak-handle phase (Chromium 156: a 1.7 MB shop page never answered again after
 * the next read; the main thread waited on GC helpers that never came). Asked in the page's own
 * world, its functions stay where they live.
 */
async function inPageWorld(target: Target, objectId: string, group: string): Promise<string> {
  const { node } = await target.cdp.send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId });
  const { object } = await target.cdp.send<{ object: { objectId: string } }>('DOM.resolveNode', { backendNodeId: node.backendNodeId, objectGroup: group });
  return object.objectId;
}

/**
 * Marks every frame's gesture listeners' elements; says how many were new, and frames that failed.
 * `onlyIfChanged`: frames whose document has not changed since their last search are not searched
 * again (what every read does: a few ms on a page that stood still).
 */
export async function markGestureTargets(core: LensCore, onlyIfChanged = false): Promise<{ marked: number; warnings: string[] }> {
  return core.frames.withLayout(async ({ frames }) => {
    const warnings: string[] = [];
    const counts = await Promise.all(frames.filter((f) => !f.error).map(async (f) => {
      const group = `pagelens-gestures-${++searches}`;
      try {
        const roots = await subtreesWithoutFrames(f.target, f.frameId, group, onlyIfChanged);
        const listeners = (await Promise.all(roots.map((objectId) => f.target.cdp.send<{ listeners: Listener[] }>('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true })))).flatMap((r) => r.listeners);
        const gesture = listeners.filter((l) => GESTURE_EVENTS.has(l.type) && l.backendNodeId);
        const known = knownOf(f.target, f.frameId);
        // Nodes marked by an earlier search carry their mark as long as they live: resolving them
        // again (a CDP round trip each) is what made a search of an unchanged listing cost 300 ms.
        const nodes = [...new Set(gesture.map((l) => l.backendNodeId!))].filter((id) => !known.has(id));
        if (!nodes.length) return 0;
        // A drop zone is a target whatever it holds; the engine tells delegation from a target by that.
        const drops = new Set(gesture.filter((l) => DROP_EVENTS.has(l.type)).map((l) => l.backendNodeId!));
        const hovering = new Set(gesture.filter((l) => HOVER_EVENTS.has(l.type)).map((l) => l.backendNodeId!));
        const handles = await Promise.all(nodes.map((id) => f.target.resolveBackendNode(id, f.frameId, group).catch(() => null)));
        const found = handles.flatMap((h, i) => (h !== null ? [{ h, kind: drops.has(nodes[i]) ? 'd' : hovering.has(nodes[i]) ? 'h' : 'o' }] : []));
        // A drop zone that also takes hover is listed for its drop; one kind per element is enough to list it.
        const mark = () => found.length
          ? f.target.callFunction<number>(f.frameId, `function (...els) { return globalThis.__pagelens.markGestures(els, ${JSON.stringify(found.map((x) => x.kind).join(''))}); }`, found.map((x) => ({ objectId: x.h })), true, group)
          : Promise.resolve(0);
        const n = await mark();
        handles.forEach((h, i) => { if (h !== null) known.add(nodes[i]); });
        return n;
      } catch (e) {
        // Searched again next time, changed or not.
        await f.target.callFunction(f.frameId, 'function () { globalThis.__pagelens.gestureSearchFailed(); }', [], true, group).catch(() => {});
        warnings.push(`frame ${f.ordinal}: its hover and drag targets could not be found (${describeFailure(e)})`);
        return 0;
      } finally {
        await f.target.release(group);
      }
    }));
    return { marked: counts.reduce((a, b) => a + b, 0), warnings };
  });
}
