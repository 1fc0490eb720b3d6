// `pagelens trace show run.zip`: the viewer of a run record, served on loopback at a random path
// (the URL is printed), or written as one offline HTML file with --out.
import { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { PagelensError } from '../model/contracts/errors.js';

interface ShowFlags { out?: string; port?: string }

export function addTraceCommand(program: Command): void {
  const trace = program.command('trace').description('look at a run record (pagelens agent --trace, pagelens mcp --save-trace)');
  trace.command('show <file.zip>')
    .description('open the viewer: served on 127.0.0.1 at a random path (the URL is printed), or written to one HTML file with --out')
    .option('--out <file.html>', 'write one self-contained HTML file that works offline, and exit')
    .option('--port <n>', 'port to serve on (default: any free one)')
    .action(async (file: string, flags: ShowFlags) => {
      const [{ readTrace }, { viewerHtml, serveViewer }] = await Promise.all([import('../trace/readTrace.js'), import('../trace/viewer.js')]);
      const read = await readTrace(file);
      const html = viewerHtml(read, basename(file));
      const summary = `${read.record.steps.length} steps${read.record.end ? '' : ', did not close'}${read.recovered ? ', recovered from a cut archive' : ''}`;
      if (flags.out) {
        await writeFile(flags.out, html);
        process.stderr.write(`pagelens trace: wrote ${flags.out} (${summary})\n`);
        return;
      }
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new PagelensError('BAD_INPUT', `--port must be a TCP port, got "${flags.port}"`);
      const served = await serveViewer(html, port);
      process.stdout.write(`${served.url}\n`);
      process.stderr.write(`pagelens trace: ${summary}; serving on loopback until stopped (Ctrl-C)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void served.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
