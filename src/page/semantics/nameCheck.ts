// A debug call for tests: the fast text-only name next to the full computation, for every element
// the engine has tagged, so that a test can prove the shortcut never says something else.
import { fastName, fullName } from './names.js';
import { roleOf } from './roles.js';
import { idBase, lastIssuedId, lookup } from '../identity/tagger.js';

export interface NamePath {
  id: string;
  role: string;
  /** The text-only shortcut's answer; null where it does not apply (the full computation is used). */
  fast: string | null;
  full: string;
}

export function namePaths(): NamePath[] {
  const out: NamePath[] = [];
  for (let i = idBase() + 1, last = lastIssuedId(); i <= last; i++) {
    const id = String(i);
    const el = lookup(id);
    if (!el) continue;
    const role = roleOf(el, false);
    out.push({ id, role, fast: fastName(el, role), full: fullName(el, role) });
  }
  return out;
}
