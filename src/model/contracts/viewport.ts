// A viewport given on a command line ("1280x800"). Pure, so a command can check it before
// anything heavy (a browser driver) is loaded.
import { PagelensError } from './errors.js';

export function parseViewport(spec: string): { width: number; height: number } {
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(spec.trim());
  if (!m) throw new PagelensError('BAD_INPUT', `--viewport must look like 1280x800, got "${spec}"`);
  return { width: Number(m[1]), height: Number(m[2]) };
}
