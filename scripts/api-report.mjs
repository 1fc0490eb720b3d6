// The API report: every name the built public entry (dist/src/index.d.ts) exports, with its kind,
// read with the TypeScript checker, and its signature as the declaration file states it (a change
// of a parameter or a field is a change of the surface too, not only an added or removed name);
// and every type of ours that a public declaration names but the entry does not export (a user
// could not write that type down). The report is checked in at
// api/pagelens.api.md so that a change of the public surface is a visible, reviewed diff.
// Usage: node scripts/api-report.mjs            compare with api/pagelens.api.md (exit 1 on a difference)
//        node scripts/api-report.mjs --write    write api/pagelens.api.md
//        --report FILE                          another report file than api/pagelens.api.md
// Needs a build (npm run build) first.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API, SymbolFlags } from 'typescript/unstable/sync';
import { SyntaxKind } from 'typescript/unstable/ast';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportArg = process.argv.indexOf('--report');
const REPORT = reportArg >= 0 ? process.argv[reportArg + 1] : join(root, 'api/pagelens.api.md');
const ENTRY = join(root, 'dist/src/index.d.ts');

function kindOf(flags) {
  const kinds = [];
  if (flags & SymbolFlags.Class) kinds.push('class');
  else if (flags & SymbolFlags.Function) kinds.push('function');
  else if (flags & SymbolFlags.Variable) kinds.push('const');
  else if (flags & SymbolFlags.Enum) kinds.push('enum');
  if (flags & SymbolFlags.Interface) kinds.push('interface');
  if (flags & SymbolFlags.TypeAlias) kinds.push('type');
  return kinds.join(' + ') || `flags ${flags}`;
}

/** Whether a re-export on the alias chain from this export to its declaration is type-only. */
function typeOnlyOnTheWay(checker, project, sym) {
  for (let s = sym, hops = 0; s && s.flags & SymbolFlags.Alias && hops < 20; s = checker.getImmediateAliasedSymbol(s), hops++) {
    for (const handle of s.declarations ?? []) {
      const d = handle.resolve(project);
      if (d?.isTypeOnly || d?.parent?.parent?.isTypeOnly || d?.parent?.parent?.phaseModifier === SyntaxKind.TypeKeyword) return true;
    }
  }
  return false;
}

/** Public declarations' type references to declarations of ours that the entry does not export. */
function unexportedTypes(checker, project, exported) {
  const ours = (sym) => sym?.declarations?.some((d) => d.path.includes('/dist/src/'));
  const exportedIds = new Set(exported.map((e) => e.target.id));
  const missing = new Map();
  for (const { name, target } of exported) {
    for (const handle of target.declarations ?? []) {
      const decl = handle.resolve(project);
      if (!decl) continue;
      const refs = [];
      const visit = (node) => {
        // Named types only: a `typeof x` in a declaration is not a name the user has to write.
        if (node.kind === SyntaxKind.TypeReference || node.kind === SyntaxKind.ExpressionWithTypeArguments) refs.push(node.typeName ?? node.expression);
        node.forEachChild(visit);
      };
      decl.forEachChild(visit);
      if (!refs.length) continue;
      const syms = checker.getSymbolAtLocation(refs);
      syms.forEach((s) => {
        if (!s) return;
        const real = s.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        if (!ours(real) || exportedIds.has(real.id) || real.flags & SymbolFlags.TypeParameter) return;
        const where = relative(root, real.declarations[0].path.replace(/^.*?\/dist\//, join(root, 'dist') + '/'));
        const key = `${real.name} (${where})`;
        missing.set(key, [...(missing.get(key) ?? []), name]);
      });
    }
  }
  return [...missing].sort(([a], [b]) => a.localeCompare(b)).map(([k, users]) => `${k}, named by ${[...new Set(users)].join(', ')}`);
}

/** Text without comments, keeping string and template literals as they are (a type may hold '/*'). */
function withoutComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = (nl < 0 ? text.length : nl) - 1;
    } else {
      out += c;
    }
  }
  return out;
}

const isPrivate = (member) => member.name?.kind === SyntaxKind.PrivateIdentifier
  || [...(member.modifiers ?? [])].some((m) => m.kind === SyntaxKind.PrivateKeyword);

/**
 * One declaration as the .d.ts file writes it, without comments, `export declare` or private
 * members: `function attach(page: Page): Promise<Lens>;`, a class or interface with its members, a
 * schema constant with its zod type, a type alias.
 */
function declarationText(project, handle, files) {
  const decl = handle.resolve(project);
  if (!files.has(handle.path)) files.set(handle.path, readFileSync(handle.path, 'utf8'));
  const source = files.get(handle.path);
  // Private members are implementation: cut them out of the class's text before anything else.
  const cuts = decl.kind === SyntaxKind.ClassDeclaration ? [...decl.members].filter(isPrivate).map((m) => [m.pos, m.end]) : [];
  let text = '';
  let from = decl.pos;
  for (const [a, b] of cuts) { text += source.slice(from, a); from = b; }
  text += source.slice(from, decl.end);
  text = withoutComments(text).split('\n').filter((l) => l.trim()).join('\n').trim()
    .replace(/^export\s+/, '').replace(/^declare\s+/, '');
  if (decl.kind === SyntaxKind.VariableDeclaration) text = `const ${text};`;
  return text;
}

/** Every declaration of an export, as the report shows it. */
function signatureOf(project, name, target, files) {
  const texts = (target.declarations ?? []).filter((h) => h.path.includes('/dist/src/')).map((h) => declarationText(project, h, files));
  // A name re-exported under another name says which one it was declared as.
  if (texts.length && !texts.some((t) => new RegExp(`\\b${name}\\b`).test(t))) texts.unshift(`// exported as ${name}`);
  return texts.join('\n');
}

export function apiReport() {
  if (!existsSync(ENTRY)) throw new Error(`${relative(root, ENTRY)} is missing: run npm run build first`);
  const config = join(root, '.api-report.tsconfig.json');
  const api = new API({
    cwd: root,
    fs: {
      readFile: (f) => (f === config ? JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: ['node'], skipLibCheck: true, noEmit: true }, files: [ENTRY] }) : undefined),
      fileExists: (f) => (f === config ? true : undefined),
    },
  });
  try {
    const project = api.updateSnapshot({ openProjects: [config] }).getProjects()[0];
    const checker = project.checker;
    const sf = project.program.getSourceFile(ENTRY);
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    const exported = checker.getExportsOfModule(moduleSymbol).map((s) => {
      const target = s.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      // `export { type X }` anywhere on the way exports only X's type, whatever else X is.
      const flags = typeOnlyOnTheWay(checker, project, s) ? target.flags & ~SymbolFlags.Value : target.flags;
      return { name: s.name, target, kind: kindOf(flags) };
    }).sort((a, b) => a.name.localeCompare(b.name));
    const missing = unexportedTypes(checker, project, exported);
    const files = new Map();
    const signatures = exported.flatMap(({ name, target }) => ['', `### \`${name}\``, '', '```ts', signatureOf(project, name, target, files), '```']);
    const lines = [
      '# pagelens: the public API',
      '',
      'Generated by `npm run api:report` (`node scripts/api-report.mjs --write`) from `dist/src/index.d.ts`; checked by test/repo/api-report.test.ts.',
      'A change here is a change of the public surface: review it. Building blocks live in `pagelens/internal`.',
      '',
      `## Exports (${exported.length})`,
      '',
      ...exported.map((e) => `- \`${e.name}\`: ${e.kind}`),
      '',
      `## Types named by public declarations but not exported (${missing.length})`,
      '',
      ...(missing.length ? missing.map((m) => `- ${m}`) : ['(none)']),
      '',
      '## Signatures',
      '',
      'Each export as `dist/src/*.d.ts` declares it, without comments and private members.',
      ...signatures,
      '',
    ];
    return { text: lines.join('\n'), exported: exported.map(({ name, kind }) => ({ name, kind })), missing };
  } finally {
    api.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { text } = apiReport();
  if (process.argv.includes('--write')) {
    mkdirSync(dirname(REPORT), { recursive: true });
    writeFileSync(REPORT, text);
    console.error(`api report: wrote ${relative(root, REPORT)}`);
  } else {
    const was = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
    if (was !== text) {
      const before = new Set(was.split('\n'));
      const after = new Set(text.split('\n'));
      const diff = [...[...before].filter((l) => !after.has(l)).map((l) => `- ${l}`), ...[...after].filter((l) => !before.has(l)).map((l) => `+ ${l}`)];
      console.error(`api report: the public API differs from ${relative(root, REPORT)} (run node scripts/api-report.mjs --write and review):\n${diff.join('\n')}`);
      process.exit(1);
    }
    console.error(`api report: the public API matches ${relative(root, REPORT)}`);
  }
}
