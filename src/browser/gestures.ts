// Finding the elements that listen for gestures other than a click — double click, right click,
// hover, drag and drop — so the engine lists them (src/page/gestures.ts). A few CDP calls per frame
// (DOMDebugger.getEventListeners over the document's frame-free subtrees) see the listeners of every world,
// the page's own included, without wrapping addEventListener in the page (which its scripts
// could see) and without any per-element cost in the walk. It costs a few to tens of ms on a
// large page, so hosts run it when they read a page anew (after a navigation, on a snapshot),
// not before every delta. Shadow trees are read from the inside (their subtrees are roots of
// their own). Not seen: listeners on the elements that hold an iframe or a shadow host, and on
// shadow hosts themselves (see gestureRoots in src/page/gestures.ts for why).
import type { LensCore } from './core.js';
import { describeFailure } from './frames.js';
import type { Target } from './target.js';

const GESTURE_EVENTS = new Set(['dblclick', 'contextmenu', 'mouseover', 'mouseenter', 'pointerenter', 'dragstart', 'dragover', 'drop']);
const DROP_EVENTS = new Set(['dragover', 'drop']);
const GROUP = 'pagelens-gestures';

interface Listener { type: string; backendNodeId?: number }

/** The engine's gestureRoots(): the subtrees that may be asked with pierce, as handles. */
async function subtreesWithoutFrames(target: Target, frameId: string): Promise<string[]> {
  const list = await target.callFunction<{ objectId: string }>(frameId, 'function () { return globalThis.__pagelens.gestureRoots(); }', [], false, GROUP);
  const { result } = await target.cdp.send<{ result: Array<{ name: string; value?: { objectId?: string } }> }>('Runtime.getProperties', { objectId: list.objectId, ownProperties: true });
  return result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
}

/** Marks every frame's gesture listeners' elements; says how many were new, and frames that failed. */
export async function markGestureTargets(core: LensCore): Promise<{ marked: number; warnings: string[] }> {
  return core.frames.withLayout(async ({ frames }) => {
    const warnings: string[] = [];
    const counts = await Promise.all(frames.filter((f) => !f.error).map(async (f) => {
      try {
        const roots = await subtreesWithoutFrames(f.target, f.frameId);
        const listeners = (await Promise.all(roots.map((objectId) => f.target.cdp.send<{ listeners: Listener[] }>('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true })))).flatMap((r) => r.listeners);
        const gesture = listeners.filter((l) => GESTURE_EVENTS.has(l.type) && l.backendNodeId);
        const nodes = [...new Set(gesture.map((l) => l.backendNodeId!))];
        if (!nodes.length) return 0;
        // A drop zone is a target whatever it holds; the engine tells delegation from a target by that.
        const drops = new Set(gesture.filter((l) => DROP_EVENTS.has(l.type)).map((l) => l.backendNodeId!));
        const handles = await Promise.all(nodes.map((id) => f.target.resolveBackendNode(id, f.frameId, GROUP).catch(() => null)));
        const mark = (drop: boolean) => {
          const args = handles.flatMap((h, i) => (h !== null && drops.has(nodes[i]) === drop ? [{ objectId: h }] : []));
          return args.length ? f.target.callFunction<number>(f.frameId, `function (...els) { return globalThis.__pagelens.markGestures(els, ${drop}); }`, args, true, GROUP) : Promise.resolve(0);
        };
        return (await mark(false)) + (await mark(true));
      } catch (e) {
        warnings.push(`frame ${f.ordinal}: its hover and drag targets could not be found (${describeFailure(e)})`);
        return 0;
      } finally {
        await f.target.release(GROUP);
      }
    }));
    return { marked: counts.reduce((a, b) => a + b, 0), warnings };
  });
}
