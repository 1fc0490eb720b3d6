// A tool call given up at its deadline (src/tools/registry/deadline.ts) keeps running in the
// background: work on a page cannot be cancelled. What it must not do any more is act: a click or
// a keystroke sent after the client was told TIMEOUT would land on a page the client has moved on
// from, with no answer to say so. The face runs each call in a scope; once the call is given up,
// every input, navigation and dialog answer of that call is refused here, in the host, where all
// of them pass (reads may still finish and are thrown away).
import { AsyncLocalStorage } from 'node:async_hooks';
import { PagelensError } from '../model/contracts/errors.js';

export interface CallScope {
  tool: string;
  /** Set when the call ran past its deadline and was answered TIMEOUT. */
  givenUp?: boolean;
}

const scopes = new AsyncLocalStorage<CallScope>();

/** Runs `work` as the call `scope`: whatever it starts, however deep, sees the scope. */
export function withinCall<T>(scope: CallScope, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope, work);
}

/** Throws when the current call was given up: nothing it still wants to do to the page is done. */
export function refuseIfGivenUp(what: string): void {
  const scope = scopes.getStore();
  if (scope?.givenUp) throw new PagelensError('TIMEOUT', `${scope.tool} was given up at its deadline; ${what} was not sent to the page`);
}
