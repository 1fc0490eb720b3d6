// What of the local disk an MCP client may reach through the browser. A client that can open
// file:// URLs reads the machine (folder listings, /proc/self/environ) by snapshot; one that can
// upload any path hands ~/.ssh/id_rsa to the page. Both are opt-in: file:// with --allow-file-urls
// (anywhere) or --file-root (under those folders); uploads only from --upload-dir or the folders
// the client declares as MCP roots. Every refusal says why and what would allow it.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { isInside } from '../browser/static.js';
import { PagelensError } from '../model/contracts/errors.js';

export interface FilePolicyOptions {
  /** file:// URLs anywhere on the disk. */
  allowFileUrls?: boolean;
  /** file:// URLs under these folders only. */
  fileRoots?: string[];
  /** Files under these folders may be uploaded. */
  uploadDirs?: string[];
}

/** Schemes an agent may navigate to; file: only as the options allow. */
const NAVIGABLE = /^(https?|data|about|blob):/i;

/** The real path of an existing folder, or BAD_INPUT naming the flag. */
function realFolder(dir: string, flag: string): string {
  try {
    const real = realpathSync(resolve(dir));
    if (statSync(real).isDirectory()) return real;
  } catch { /* reported below */ }
  throw new PagelensError('BAD_INPUT', `${flag} ${dir}: not an existing folder.`);
}

export class FilePolicy {
  private readonly fileRoots: string[];
  private readonly uploadDirs: string[];
  /** The client's MCP roots (file:// URIs), asked for when an upload needs them. */
  private rootsProvider?: () => Promise<string[]>;

  constructor(private readonly opts: FilePolicyOptions) {
    this.fileRoots = (opts.fileRoots ?? []).map((d) => realFolder(d, '--file-root'));
    this.uploadDirs = (opts.uploadDirs ?? []).map((d) => realFolder(d, '--upload-dir'));
  }

  setRootsProvider(provider: () => Promise<string[]>): void {
    this.rootsProvider = provider;
  }

  /** Throws BAD_INPUT with the reason when an agent may not open this URL. */
  checkNavigation(url: string): void {
    const u = url.trim();
    if (NAVIGABLE.test(u)) return;
    if (!/^file:/i.test(u)) throw new PagelensError('BAD_INPUT', `${JSON.stringify(u.slice(0, 60))}: only http(s), data: and about: URLs can be opened (file:// when the server allows it).`);
    const why = this.fileUrlRefusal(u);
    if (why) throw new PagelensError('BAD_INPUT', why);
  }

  /**
   * Why the browser may not load this file:// URL, or null. Asked for every file:// request of the
   * context too (a file page allowed under a root can link or frame any other file).
   */
  fileUrlRefusal(url: string): string | null {
    if (this.opts.allowFileUrls) return null;
    if (!this.fileRoots.length) return 'file:// URLs are off (they would let the page and the agent read this machine\'s files): start pagelens mcp with --file-root <folder> for one folder, or --allow-file-urls for all.';
    let real: string;
    try { real = realpathSync(fileURLToPath(url)); } catch { return `${url.slice(0, 200)}: no such file (or not a file URL).`; }
    if (!this.fileRoots.some((r) => isInside(r, real))) return `${url.slice(0, 200)} is outside the --file-root folders (${this.fileRoots.join(', ')}).`;
    return null;
  }

  /** Enforces fileUrlRefusal on every file:// request the context makes (navigations, frames, subresources). */
  async guardContext(context: BrowserContext): Promise<void> {
    if (this.opts.allowFileUrls) return;
    await context.route((u) => u.protocol === 'file:', (route) => (this.fileUrlRefusal(route.request().url()) ? route.abort('accessdenied') : route.fallback()));
  }

  /** The real paths of files that may be uploaded; BAD_INPUT naming the first that may not. */
  async checkUploads(paths: string[]): Promise<string[]> {
    if (!paths.length) return [];
    const roots = [...this.uploadDirs, ...await this.clientRoots()];
    if (!roots.length) throw new PagelensError('BAD_INPUT', 'Uploads are off: no folder may be read. Start pagelens mcp with --upload-dir <folder>, or use a client that declares MCP roots.');
    return paths.map((p) => {
      if (!isAbsolute(p)) throw new PagelensError('BAD_INPUT', `${p}: upload paths must be absolute.`);
      let real: string;
      try { real = realpathSync(p); } catch { throw new PagelensError('BAD_INPUT', `${p}: no such file.`); }
      const root = roots.find((r) => isInside(r, real));
      if (!root) throw new PagelensError('BAD_INPUT', `${p} is outside the upload folders (${roots.join(', ')}): refused.`);
      // A root's own dotfiles and dot-folders (.env, .git, .ssh) are not documents to upload.
      if (relative(root, real).split(sep).some((seg) => seg.startsWith('.'))) throw new PagelensError('BAD_INPUT', `${p} is a dotfile or inside a dot-folder: refused.`);
      if (!statSync(real).isFile()) throw new PagelensError('BAD_INPUT', `${p}: not a file.`);
      return real;
    });
  }

  private async clientRoots(): Promise<string[]> {
    if (!this.rootsProvider) return [];
    const uris = await this.rootsProvider().catch(() => [] as string[]);
    return uris.flatMap((uri) => {
      try { return [realpathSync(fileURLToPath(uri))]; } catch { return []; }
    });
  }
}
