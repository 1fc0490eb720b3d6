#!/usr/bin/env node
import { keepsRunning, main } from '../dist/src/cli/main.js';
await main(process.argv);
// A one-shot command ends when its work is done: a handle a library left open (a socket, a timer)
// must not hold the caller's shell. Output is flushed first; servers keep running.
if (!keepsRunning(process.argv)) {
  await new Promise((r) => process.stdout.write('', r));
  await new Promise((r) => process.stderr.write('', r));
  process.exit(process.exitCode ?? 0);
}
