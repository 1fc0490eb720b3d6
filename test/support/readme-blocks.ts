// The fenced code blocks of README.md and of every page in docs/, classified by the convention
// every block follows (see test/repo/readme.test.ts, which runs them; a block keeps running wherever it
// moves between those pages):
//
//   ```ts / ```js       a complete ES module: run as a script (types stripped); `pagelens` is the package.
//   ```sh               commands a user types: each one is run, and must succeed.
//   ```json             must parse; an MCP client config (`mcpServers` / `servers`) is started as
//                       written from outside the repository and must list its tools (test/repo/package.test.ts).
//   ``` (no language), ```text, ```jsonc, ```html
//                       output samples: what a command printed. Not run; in an untagged block a line
//                       `$ pagelens …` is the command that printed what follows, and it is run.
//   ```<lang> output    an explicit output sample of any language: not run.
//
// In commands and configs, `/absolute/path/to/pagelens` stands for where the package is.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const README = join(ROOT, 'README.md');
export const DOCS = join(ROOT, 'docs');
export const PACKAGE_PLACEHOLDER = '/absolute/path/to/pagelens';

export type BlockKind = 'script' | 'commands' | 'config' | 'output';

export interface Block {
  /** The page it is on, from the repository's root: README.md, docs/mcp.md. */
  file: string;
  kind: BlockKind;
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
}

const OUTPUT_LANGS = new Set(['', 'text', 'jsonc', 'html']);

export function kindOf(lang: string, attrs: string[], where = 'README.md'): BlockKind {
  if (attrs.includes('output') || OUTPUT_LANGS.has(lang)) return 'output';
  if (lang === 'ts' || lang === 'js') return 'script';
  if (lang === 'sh') return 'commands';
  if (lang === 'json') return 'config';
  throw new Error(`${where}: a \`\`\`${lang} block follows no convention (see test/support/readme-blocks.ts)`);
}

/** The pages whose blocks run: the README, then docs/*.md by name. */
export function docFiles(): string[] {
  return ['README.md', ...readdirSync(DOCS).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)];
}

/** Every fenced block of every page, in order. */
export function docBlocks(): Block[] {
  return docFiles().flatMap((file) => readmeBlocks(readFileSync(join(ROOT, file), 'utf8'), file));
}

/** Where a block is, for a message: docs/mcp.md:12. */
export const at = (b: Block) => `${b.file}:${b.line}`;

/** Every fenced block of a Markdown text, in order (fences may be indented, as in list items). */
export function readmeBlocks(text = readFileSync(README, 'utf8'), file = 'README.md'): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(Math.min(indent, lines[j].length - lines[j].trimStart().length)));
    if (j === lines.length) throw new Error(`${file}: the block opened at line ${i + 1} is never closed`);
    const lang = open[2];
    blocks.push({ file, kind: kindOf(lang, open[3].split(/\s+/).filter(Boolean), `${file}:${i + 1}`), lang, line: i + 1, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * The commands of a ```sh block: lines joined at a trailing backslash, `# comments` dropped, split
 * at `&&` and `;` (outside quotes).
 */
export function shellCommands(code: string): string[] {
  const joined = code.replace(/\\\n/g, ' ');
  const out: string[] = [];
  for (const line of joined.split('\n')) {
    let current = '';
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === quote) quote = null;
        current += c;
      } else if (c === '"' || c === "'") {
        quote = c;
        current += c;
      } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
        break;
      } else if (c === ';' || (c === '&' && line[i + 1] === '&')) {
        out.push(current);
        current = '';
        if (c === '&') i++;
      } else {
        current += c;
      }
    }
    out.push(current);
  }
  return out.map((c) => c.trim()).filter(Boolean);
}

/** The `$ pagelens …` lines of an output sample: the commands that printed it. */
export function transcriptCommands(code: string): string[] {
  return code.split('\n').filter((l) => /^\$ pagelens\b/.test(l)).map((l) => l.slice(2).trim());
}

/** A ```ts block's code as JavaScript Node runs (types stripped), through esbuild (a devDependency). */
export async function scriptOf(block: Block): Promise<string> {
  if (block.lang === 'js') return block.code;
  const { transform } = await import('esbuild');
  return (await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' })).code;
}

export interface McpServerConfig { name: string; command: string; args: string[] }

/** The servers of an MCP client config block (Claude Desktop / Cursor `mcpServers`, VS Code `servers`). */
export function mcpServers(block: Block): McpServerConfig[] {
  const config = JSON.parse(block.code) as { mcpServers?: Record<string, { command: string; args?: string[] }>; servers?: Record<string, { command: string; args?: string[] }> };
  const servers = config.mcpServers ?? config.servers ?? {};
  return Object.entries(servers).map(([name, s]) => ({ name, command: s.command, args: s.args ?? [] }));
}
