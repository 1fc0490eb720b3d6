// What to measure: the shared corpus sets by default, or folders of saved pages, single .html
// files, URL list files and URLs given on the command line.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
export const DEFAULT_SETS = ['news', 'shop', 'forms'];

export interface PageInput {
  /** File name or URL, as shown in results. */
  name: string;
  /** Local file to serve from loopback, or a URL to open as is. */
  file?: string;
  url?: string;
}

export interface PageSet {
  name: string;
  pages: PageInput[];
  /** Formasaurus-style labels: page file → visible form field names (`name` attributes). */
  labels?: Map<string, Set<string>>;
}

export function isUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

function htmlFiles(folder: string): string[] {
  return readdirSync(folder).filter((n) => /\.html?$/i.test(n)).sort(naturalCompare).map((n) => join(folder, n));
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** labels.json as the forms set has it: {page: {visible_html_fields: [{fieldName: typeCode}]}}. */
export function readLabels(folder: string): Map<string, Set<string>> | undefined {
  const file = join(folder, 'labels.json');
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { visible_html_fields?: Array<Record<string, string>> }>;
  const out = new Map<string, Set<string>>();
  for (const [page, entry] of Object.entries(raw)) {
    const names = new Set<string>();
    for (const form of entry.visible_html_fields ?? []) for (const field of Object.keys(form)) names.add(field);
    out.set(page, names);
  }
  return out;
}

export function folderSet(folder: string, name = basename(resolve(folder))): PageSet {
  const pages = htmlFiles(folder).map((file) => ({ name: basename(file), file }));
  return { name, pages, labels: readLabels(folder) };
}

/** Turns command-line inputs into sets: a folder is a set, loose files and URLs are grouped. */
export function resolveInputs(inputs: string[]): PageSet[] {
  const sets: PageSet[] = [];
  const files: PageInput[] = [];
  const urls: PageInput[] = [];
  for (const input of inputs) {
    if (isUrl(input)) { urls.push({ name: input, url: input }); continue; }
    if (!existsSync(input)) throw new Error(`"${input}" is neither a URL nor an existing file or folder`);
    if (statSync(input).isDirectory()) { sets.push(folderSet(input)); continue; }
    if (/^\.html?$/i.test(extname(input))) { files.push({ name: basename(input), file: resolve(input) }); continue; }
    // Anything else is a list of URLs (or paths), one per line; # starts a comment.
    for (const line of readFileSync(input, 'utf8').split('\n')) {
      const entry = line.replace(/#.*/, '').trim();
      if (!entry) continue;
      if (isUrl(entry)) urls.push({ name: entry, url: entry });
      else files.push({ name: basename(entry), file: resolve(dirname(input), entry) });
    }
  }
  if (files.length) sets.push({ name: 'files', pages: files });
  if (urls.length) sets.push({ name: 'urls', pages: urls });
  return sets;
}

/** The default sets from the shared corpus, or the reason they cannot be used. */
export function defaultSets(only?: string[]): PageSet[] | string {
  if (!existsSync(CORPUS)) return `the shared corpus is not at ${CORPUS}`;
  const wanted = only ?? DEFAULT_SETS;
  const present = wanted.filter((s) => existsSync(join(CORPUS, s)));
  if (!present.length) return `none of the sets ${wanted.join(', ')} is in ${CORPUS}`;
  return present.map((s) => folderSet(join(CORPUS, s), s));
}
