// A file the page downloads, saved into the folder the user chose and nowhere else: the page
// names the file, so only the last part of that name is used. Without a folder it is cancelled
// and reported, not saved.
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Download } from 'playwright-core';

export interface DownloadReport {
  file: string;
  /** Where it was saved and its size, or why it was not. */
  savedTo?: string;
  bytes?: number;
  notSaved?: string;
}

export async function saveDownload(d: Download, folder: string | undefined): Promise<DownloadReport> {
  const file = basename(d.suggestedFilename()) || 'download';
  if (!folder) {
    await d.cancel().catch(() => {});
    return { file, notSaved: 'no download folder was chosen (start pagelens mcp with --downloads-dir DIR)' };
  }
  const path = join(folder, file);
  try {
    await d.saveAs(path);
    return { file, savedTo: path, bytes: (await stat(path)).size };
  } catch (e) {
    return { file, notSaved: (await d.failure().catch(() => null)) ?? (e as Error).message.split('\n')[0] };
  }
}
