// The bench parts that need pages this repository does not hold (MiniWoB++, TodoMVC) run alone as
// scripts the same way: the folder from --dir, one "<PART> skipped: why" line and exit 0 without
// it, the report on stdout, the raw results in the --json file, a refusal on stderr with exit 1.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export interface OptionalPart<R> {
  /** As the report and the skip line name it: MINIWOB, TODOMVC. */
  label: string;
  /** What --dir should be, for the skip line. */
  dirHint: string;
  run(dir: string, argv: string[]): Promise<{ skipped: string } | R>;
  render(results: R): string;
  json(results: R): unknown;
}

async function main<R>(part: OptionalPart<R>, argv: string[]): Promise<number> {
  const dir = flag(argv, '--dir');
  if (!dir) {
    process.stdout.write(`${part.label} skipped: no folder given (--dir ${part.dirHint})\n`);
    return 0;
  }
  const run = await part.run(dir, argv);
  if (typeof run === 'object' && run !== null && 'skipped' in run) {
    process.stdout.write(`${part.label} skipped: ${(run as { skipped: string }).skipped}\n`);
    return 0;
  }
  const results = run as R;
  process.stdout.write(part.render(results) + '\n');
  const json = flag(argv, '--json');
  if (json) writeFileSync(json, JSON.stringify(part.json(results), null, 1));
  return 0;
}

/** Runs the part when its module is the script node was started with. */
export function runWhenScript<R>(moduleUrl: string, part: OptionalPart<R>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  main(part, process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => {
    process.stderr.write(`pagelens bench ${part.label.toLowerCase()}: ${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
