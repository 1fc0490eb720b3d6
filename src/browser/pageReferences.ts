// What a local page references: the files `pagelens snapshot ~/page.html` may serve besides the
// page itself. Found in the text of the page and of the styles and scripts it loads (attributes,
// url(), @import, module specifiers, quoted relative paths of web files); a file nothing names
// is never served, so a page cannot read its folder by guessing.

const HTML_ATTR = /\b(?:src|href|poster|data|background|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const SRCSET = /\b(?:srcset|imagesrcset)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi;
const CSS_IMPORT = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;
/** A quoted relative path ending in a web file's extension: module specifiers, new URL('x.png', import.meta.url), an image a script sets. */
const QUOTED_PATH = /["'`]((?:\.{0,2}\/)?[\w\-./%]+\.(?:html?|css|m?js|svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|mp4|webm|mp3|ogg|wav|wasm|map))["'`]/gi;

function all(re: RegExp, text: string): string[] {
  return [...text.matchAll(re)].map((m) => m.slice(1).find((g) => g !== undefined) ?? '').filter(Boolean);
}

/** The URLs a text of this content type names (unresolved, as written). */
export function referencesIn(text: string, contentType: string): string[] {
  const refs: string[] = [];
  if (contentType.startsWith('text/html')) {
    refs.push(...all(HTML_ATTR, text));
    for (const set of all(SRCSET, text)) refs.push(...set.split(',').map((c) => c.trim().split(/\s+/)[0]).filter(Boolean));
  }
  if (contentType.startsWith('text/html') || contentType.startsWith('text/css')) refs.push(...all(CSS_URL, text), ...all(CSS_IMPORT, text));
  if (contentType.startsWith('text/html') || contentType.startsWith('text/javascript')) refs.push(...all(QUOTED_PATH, text));
  return refs;
}

/** The request path (decoded, leading slash) a reference made from `fromPath` names on this server, or null when it is elsewhere. */
export function referencedPath(ref: string, fromPath: string): string | null {
  let u: URL;
  try { u = new URL(ref, `http://page.invalid${fromPath}`); } catch { return null; }
  if (u.host !== 'page.invalid') return null;
  try { return decodeURIComponent(u.pathname); } catch { return null; }
}
