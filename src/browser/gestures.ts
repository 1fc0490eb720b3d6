// Finding the elements that listen for gestures other than a click — double click, right click,
// hover, drag and drop — so the engine lists them (src/page/gestures.ts). One CDP call per frame
// (DOMDebugger.getEventListeners over the document's subtree) sees the listeners of every world,
// the page's own included, without wrapping addEventListener in the page (which its scripts
// could see) and without any per-element cost in the walk. It costs a few to tens of ms on a
// large page, so hosts run it when they read a page anew (after a navigation, on a snapshot),
// not before every delta.
import type { LensCore } from './core.js';
import { describeFailure } from './frames.js';

const GESTURE_EVENTS = new Set(['dblclick', 'contextmenu', 'mouseover', 'mouseenter', 'pointerenter', 'dragstart', 'dragover', 'drop']);
const GROUP = 'pagelens-gestures';

interface Listener { type: string; backendNodeId?: number }

/** Marks every frame's gesture listeners' elements; says how many were new, and frames that failed. */
export async function markGestureTargets(core: LensCore): Promise<{ marked: number; warnings: string[] }> {
  return core.frames.withLayout(async ({ frames }) => {
    const warnings: string[] = [];
    const counts = await Promise.all(frames.filter((f) => !f.error).map(async (f) => {
      try {
        const doc = await f.target.callFunction<{ objectId: string }>(f.frameId, 'function () { return document; }', [], false, GROUP);
        // pierce: shadow roots too (a same-process iframe's nodes come back as well; they fail to
        // resolve in this frame's world below and are marked by that frame's own pass).
        const { listeners } = await f.target.cdp.send<{ listeners: Listener[] }>('DOMDebugger.getEventListeners', { objectId: doc.objectId, depth: -1, pierce: true });
        const nodes = [...new Set(listeners.filter((l) => GESTURE_EVENTS.has(l.type) && l.backendNodeId).map((l) => l.backendNodeId!))];
        if (!nodes.length) return 0;
        const handles = await Promise.all(nodes.map((id) => f.target.resolveBackendNode(id, f.frameId, GROUP).catch(() => null)));
        const args = handles.filter((h): h is string => h !== null).map((objectId) => ({ objectId }));
        return await f.target.callFunction<number>(f.frameId, 'function (...els) { return globalThis.__pagelens.markGestures(els); }', args, true, GROUP);
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
