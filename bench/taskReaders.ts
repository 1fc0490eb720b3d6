// How the task bench reads each server's answers, as a model reads them: the elements shown so
// far, with the ID (pagelens) or ref (Playwright MCP) to act on, kept up to date by every answer.
// One rule for both when choosing: the kind of control by its role, its name by a pattern, and
// for a control that belongs to a line of text ("the toggle of 'water the plants'") the one named
// for it, else the first of its kind in the same list item (Playwright) or after that text.

export type Kind = 'field' | 'password' | 'checkbox' | 'button';

export interface PageReader {
  /** Takes in one answer's text. */
  absorb(text: string): void;
  /** The ref of an element of that kind whose name matches, among those shown so far. */
  find(kind: Kind, name: RegExp, near?: string): string | undefined;
  /** The arguments that name `ref` in this server's acting tools. */
  target(ref: string): Record<string, unknown>;
  /** Ways to read the page again when what is shown does not hold the element, in order. */
  readonly reads: ReadonlyArray<{ tool: string; args: Record<string, unknown> }>;
}

interface Shown { ref?: string; role: string; name: string; depth: number }

function pick(list: readonly Shown[], roles: ReadonlySet<string>, name: RegExp, near?: string): string | undefined {
  const ofKind = (n: Shown) => n.ref !== undefined && roles.has(n.role);
  if (!near) return list.find((n) => ofKind(n) && name.test(n.name))?.ref;
  const named = list.find((n) => ofKind(n) && n.name.trim() === near);
  if (named) return named.ref;
  const at = list.findIndex((n) => n.name.includes(near));
  if (at < 0) return undefined;
  // The list item that holds the text, when the listing shows nesting (Playwright's does).
  let item = at;
  while (item >= 0 && !(list[item].role === 'listitem' && list[item].depth < list[at].depth)) item--;
  const from = item >= 0 ? item : at;
  for (let k = from + 1; k < list.length && (item < 0 || list[k].depth > list[item].depth); k++) if (ofKind(list[k])) return list[k].ref;
  return undefined;
}

// ---- pagelens: text answers (tools/answerText.ts) ----

const PL_ROLES: Record<Kind, ReadonlySet<string>> = {
  field: new Set(['inp', 'textbox', 'searchbox', 'combobox', 'sel']),
  password: new Set(['inp', 'textbox']),
  checkbox: new Set(['chk', 'switch']),
  button: new Set(['btn', 'link', 'clickable', 'inp']),
};

/** `+ 12 btn Save {disabled}` → id, role, name (a quoted name read back as JSON). */
function plLine(line: string): Shown | undefined {
  const m = /^(?:[+~] )?((?:f\d+_)?\d+) ([a-z_]+)(?: (.*))?$/.exec(line);
  if (!m) return undefined;
  let rest = m[3] ?? '';
  let name = '';
  if (rest.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(rest);
    name = end ? (JSON.parse(end[0]) as string) : rest;
    rest = '';
  } else {
    name = rest.replace(/ (= ".*|\{.*|\(.*)$/, '');
  }
  return { ref: m[1], role: m[2], name, depth: 0 };
}

export function pagelensReader(): PageReader {
  let shown: Shown[] = [];
  return {
    absorb(text) {
      for (const line of text.split('\n')) {
        if (/^\[s\d+: whole page/.test(line)) { shown = []; continue; }
        if (line.startsWith('- ')) { const gone = new Set(line.slice(2).split(' ')); shown = shown.filter((n) => !gone.has(n.ref!)); continue; }
        const n = plLine(line);
        if (!n) continue;
        const i = shown.findIndex((x) => x.ref === n.ref);
        if (i >= 0) shown[i] = n; else shown.push(n);
      }
    },
    find: (kind, name, near) => pick(shown, PL_ROLES[kind], name, near),
    target: (ref) => ({ id: ref }),
    // browser_navigate answered with the viewport already: what is not there is read from the whole page.
    reads: [{ tool: 'page_snapshot', args: { fullPage: true } }],
  };
}

// ---- Playwright MCP: YAML snapshots ----

const PW_ROLES: Record<Kind, ReadonlySet<string>> = {
  field: new Set(['textbox', 'searchbox', 'combobox']),
  password: new Set(['textbox']),
  checkbox: new Set(['checkbox', 'switch']),
  button: new Set(['button', 'link']),
};

/** `  - checkbox "Toggle" [checked] [ref=e12]: text` → depth, role, name (or its text), ref. */
function pwLine(line: string): Shown | undefined {
  const m = /^(\s*)- (?:"?)([a-z]+)(?: "((?:[^"\\]|\\.)*)")?([^:]*?)(?::\s*(.*))?$/.exec(line);
  if (!m) return undefined;
  const ref = /\[ref=([a-z0-9]+)\]/.exec(m[4] ?? '')?.[1];
  const name = m[3] !== undefined ? (JSON.parse(`"${m[3]}"`) as string) : (m[5] ?? '').replace(/^"|"$/g, '');
  return { ...(ref && { ref }), role: m[2], name, depth: m[1].length / 2 };
}

export function playwrightReader(): PageReader {
  let shown: Shown[] = [];
  let names = new Map<string, string>();
  return {
    absorb(text) {
      const block = /```yaml\n([\s\S]*?)```/.exec(text);
      if (!block) return;
      shown = block[1].split('\n').map(pwLine).filter((n): n is Shown => !!n);
      names = new Map(shown.filter((n) => n.ref).map((n) => [n.ref!, n.name]));
    },
    find: (kind, name, near) => pick(shown, PW_ROLES[kind], name, near),
    // Playwright MCP 0.0.83 names the element by `target` (the ref) and asks for a description of it.
    target: (ref) => ({ target: ref, element: names.get(ref) || 'element' }),
    reads: [{ tool: 'browser_snapshot', args: {} }],
  };
}
