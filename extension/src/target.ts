// An element ID of a snapshot ("12", "f1_5") → the frame that issued it and the document it is
// bound to; element operations go to that frame's content script (hostEngine.ts).
import { ExtensionError, tabState } from './tab.js';

export interface Resolved { gid: string; ordinal: number; frameId: number; doc: string; local: string }

export async function resolveId(tabId: number, gid: string): Promise<Resolved> {
  const state = tabState(tabId);
  // The ledger's rules (src/core/ledger.ts): another tab's ID is refused; the document that issued
  // it, else the frame's last one. This host numbers a document at its first read only, so an ID
  // with neither is refused rather than looked up in a document that may not be numbered yet.
  const parsed = state.ledger.admit(gid, (await chrome.tabs.get(tabId).catch(() => undefined))?.url ?? `tab ${tabId}`);
  const frameId = state.frameOf.get(parsed.frame);
  const doc = parsed.doc;
  if (frameId === undefined || doc === undefined) throw new ExtensionError('UNKNOWN_ID', `no snapshot of this tab has handed out ${gid}; take a snapshot first`);
  // A frame that was reloaded, navigated or replaced since the snapshot shows another document
  // (Chrome gives it another documentId, an iframe put back another frameId): its IDs are void.
  const now = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []).find((f) => f.frameId === frameId);
  const then = state.documents.get(parsed.frame);
  if (!now || (then && now.documentId && now.documentId !== then)) {
    throw new ExtensionError('NAVIGATED', `${gid} was handed out in ${parsed.frame ? `frame ${parsed.frame}` : 'the page'} as it was at the snapshot; it has shown another document since (${now ? now.url : 'the frame is gone'}). Take a new snapshot.`);
  }
  return { gid, ordinal: parsed.frame, frameId, doc, local: parsed.local };
}
