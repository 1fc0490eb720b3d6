// What a local page references: the files `pagelens snapshot ~/page.html` may serve besides the
// page itself. Only what the page's markup names counts: attributes (src, href, srcset, …), CSS
// url() and @import in <style> elements, style attributes and served stylesheets, and the static
// imports of module scripts. Text inside a script (a fetch('bank.html'), a string) is not a
// reference: a name a script can write is a name it can guess, and a file nothing else names is
// never served.

/** Attributes whose value is a URL the browser loads or navigates to. */
const URL_ATTRS = new Set(['src', 'href', 'xlink:href', 'poster', 'data', 'background', 'action', 'formaction']);
/** Attributes whose value is a list of image candidates (`url 2x, url 640w`). */
const SRCSET_ATTRS = new Set(['srcset', 'imagesrcset']);
/**
 * Elements whose content the HTML parser reads as text, not markup: nothing inside them is a tag
 * (a `<img src=…>` written in a <textarea> or a script's string loads nothing). <noscript> is
 * text too, since Chromium runs with scripting on.
 */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi;
const CSS_IMPORT = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;
/**
 * The static import forms: `import x from "…"`, `import {a as b} from "…"`, `import "…"`,
 * `export * from "…"`, `export {a} from "…"` (minified or not). Not import("…"), which a script computes.
 */
const STATIC_IMPORT = /(?:^|[^\w$.])(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)(?:"([^"\n]*)"|'([^'\n]*)')/g;
/** What a module can import: scripts, and stylesheets as CSS modules. A module "importing" bank.html is not one. */
const IMPORTABLE = /\.(m?js|css)(?:[?#]|$)/i;

function all(re: RegExp, text: string): string[] {
  return [...text.matchAll(re)].map((m) => m.slice(1).find((g) => g !== undefined) ?? '').filter(Boolean);
}

/** The URLs a stylesheet names (a served .css, a <style> element, a style attribute). */
function cssReferences(css: string): string[] {
  return [...all(CSS_URL, css), ...all(CSS_IMPORT, css)];
}

/** The static import specifiers of a module script that name a script or a stylesheet. */
function importReferences(js: string): string[] {
  return all(STATIC_IMPORT, js).filter((s) => IMPORTABLE.test(s));
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', sol: '/', period: '.', colon: ':', num: '#', quest: '?' };

/** An attribute value as the parser gives it: character references decoded (`a&amp;b.css` names `a&b.css`). */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

interface Tag { name: string; attrs: Map<string, string>; end: number }

/** The start tag at `at` (`<` of it): its name, its attributes (the first of a repeated name wins, as in the parser), where it ends. */
function readTag(html: string, at: number): Tag {
  const nameMatch = /^<([a-zA-Z][^\s/>]*)/.exec(html.slice(at, at + 256))!;
  const attrs = new Map<string, string>();
  // A name may start with `=` (the parser's rule): `<div =x>` is an attribute, not the end of the markup.
  const attr = /[\s/]*(?:(>)|([^\s/>][^\s/>=]*)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?)/y;
  attr.lastIndex = at + nameMatch[0].length;
  let end = html.length;
  for (let m = attr.exec(html); m; m = attr.exec(html)) {
    if (m[1]) { end = attr.lastIndex; break; }
    if (!m[2]) break;
    const name = m[2].toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(m[3] ?? m[4] ?? m[5] ?? ''));
  }
  return { name: nameMatch[1].toLowerCase(), attrs, end };
}

/** What one tag's attributes name. */
function tagReferences(tag: Tag): string[] {
  const refs: string[] = [];
  for (const [name, value] of tag.attrs) {
    if (URL_ATTRS.has(name)) refs.push(value.trim());
    else if (SRCSET_ATTRS.has(name)) refs.push(...value.split(',').map((c) => c.trim().split(/\s+/)[0]));
    else if (name === 'style') refs.push(...cssReferences(value));
  }
  return refs;
}

/** True for a <script> the browser runs as a module (its static imports are references). */
function isModule(tag: Tag): boolean {
  return tag.name === 'script' && (tag.attrs.get('type') ?? '').trim().toLowerCase() === 'module';
}

/**
 * The URLs a page's markup names. A small tokenizer, not a search of the text: comments, the
 * content of scripts, <textarea> and the other raw-text elements, and text between tags name
 * nothing; a <style> element's CSS does, and so do an inline module's static imports.
 */
function htmlReferences(html: string): string[] {
  const refs: string[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    if (!/[a-zA-Z]/.test(html[lt + 1] ?? '')) {
      // An end tag, a doctype, a processing instruction, or a lone `<` in text.
      const gt = /[!/?]/.test(html[lt + 1] ?? '') ? html.indexOf('>', lt) : lt;
      i = gt < 0 ? html.length : gt + 1;
      continue;
    }
    const tag = readTag(html, lt);
    refs.push(...tagReferences(tag));
    i = tag.end;
    if (RAW_TEXT.has(tag.name)) {
      const close = new RegExp(`</${tag.name}[\\s/>]`, 'ig');
      close.lastIndex = i;
      const found = tag.name === 'plaintext' ? null : close.exec(html);
      const text = html.slice(i, found ? found.index : html.length);
      if (tag.name === 'style') refs.push(...cssReferences(text));
      else if (isModule(tag)) refs.push(...importReferences(text));
      i = found ? found.index : html.length;
    }
  }
  return refs.filter(Boolean);
}

/** The URLs a text of this content type names (unresolved, as written). */
export function referencesIn(text: string, contentType: string): string[] {
  if (contentType.startsWith('text/html')) return htmlReferences(text);
  if (contentType.startsWith('text/css')) return cssReferences(text);
  if (contentType.startsWith('text/javascript')) return importReferences(text);
  return [];
}

/** The request path (decoded, leading slash) a reference made from `fromPath` names on this server, or null when it is elsewhere. */
export function referencedPath(ref: string, fromPath: string): string | null {
  let u: URL;
  try { u = new URL(ref, `http://page.invalid${fromPath}`); } catch { return null; }
  if (u.host !== 'page.invalid') return null;
  try { return decodeURIComponent(u.pathname); } catch { return null; }
}
