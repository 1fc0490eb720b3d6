// A read handed to the caller, the one way for every payload of both hosts: the page model read,
// every node and frame recorded in the tab's ledger (bound to the document that issued it), and
// the ledger kept where the host's memory may be lost.
import type { PageModel } from '../model/pagemodel/page.js';
import type { ReadHost, ReadOptions } from './port.js';

export async function readHandedOut(host: Pick<ReadHost, 'read' | 'ledger' | 'keep'>, opts: ReadOptions): Promise<PageModel> {
  const model = await host.read(opts);
  host.ledger.handOut(model);
  await host.keep();
  return model;
}
