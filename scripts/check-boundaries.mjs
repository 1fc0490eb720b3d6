// Architecture check, run first by `npm test` (`npm run check:boundaries`). Every import form is read
// from the syntax tree (the TypeScript 7 parser, through its API), not matched with patterns:
// static, type-only, side-effect, re-export, `import x = require()`, `typeof import()`, dynamic
// import() and require(). The rules are an allowlist: each folder holds a DEPS.list naming what its
// files may import (like Playwright's DEPS.list), and
//   - an import of anything not listed is an error, and so is a listed permission nobody uses;
//   - a dynamic import()/require() whose specifier is not a plain string cannot be checked: error;
//   - the package may not import itself by name from src/ (only its tests use the published entries);
//   - `never-reaches <package> [file…]` forbids reaching that package through value imports at any
//     depth, from every file of the folder or only the files named (src/page and the extension's
//     content script are bundled into every page and must stay zod-free, even via a re-export);
//   - `closed <file>` keeps a file of the folder out of reach of the folder's own files (the facade);
//   - `floor <subfolder…>` lines, bottom first, stand a folder's subfolders on floors: an import from
//     one subfolder into another runs down, to a lower floor, never beside or up (src/model: the
//     model has a floor). Every subfolder with code stands on one floor and holds its own DEPS.list
//     (which names the lower floors it takes from), and no code lies beside the floors;
//   - no import cycle, type-only imports included (a type cycle is still two modules that cannot be
//     understood apart).
// Usage: node scripts/check-boundaries.mjs [--root DIR]   (DIR defaults to the repository)
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind } from 'typescript/unstable/ast';

/** Folders scanned for code. */
const TREES = ['src', 'bench', 'test', 'extension'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const BUILTINS = new Set(builtinModules);

const args = process.argv.slice(2);
const rootArg = args.indexOf('--root');
const root = resolve(rootArg >= 0 ? args[rootArg + 1] : join(dirname(fileURLToPath(import.meta.url)), '..'));
const posix = (p) => p.split(sep).join('/');
const rel = (abs) => posix(relative(root, abs));

function codeFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'dist' || n === 'out' || n === 'fixtures' || n.startsWith('.')) return [];
    if (statSync(p).isDirectory()) return codeFiles(p);
    return CODE.test(n) && !/\.d\.[cm]?ts$/.test(n) && !n.endsWith('.generated.ts') ? [p] : [];
  });
}

// ---- DEPS.list ----

/**
 * A folder's rules. Lines: a folder or file of ours (`src/model`), a package (`zod`, `@hono/node-server`),
 * `node:*` for Node's built-ins, `never-reaches <package> [file…]`, `closed <file of this folder>`,
 * `floor <subfolder…>` (one line a floor, bottom first), and `scope: files` (the list covers only the
 * files directly in its folder, not its subfolders).
 */
function readDeps(dir) {
  const file = join(dir, 'DEPS.list');
  const deps = { dir: rel(dir), file: rel(file), allow: [], neverReaches: [], closed: [], floors: [], filesOnly: false, used: new Set() };
  readFileSync(file, 'utf8').split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const [word, arg] = line.split(/\s+/);
    if (line === 'scope: files') deps.filesOnly = true;
    else if (word === 'floor' && arg) deps.floors.push({ subs: line.split(/\s+/).slice(1), line: i + 1 });
    else if (word === 'never-reaches' && arg) deps.neverReaches.push({ pkg: arg, files: line.split(/\s+/).slice(2).map((f) => posix(join(deps.dir, f))) });
    else if (word === 'closed' && arg) deps.closed.push(...line.split(/\s+/).slice(1).map((f) => posix(join(deps.dir, f))));
    else if (!arg) deps.allow.push({ perm: word, line: i + 1 });
    else throw new Error(`${deps.file}:${i + 1}: cannot read "${line}"`);
  });
  return deps;
}

const depsCache = new Map();

/** Every DEPS.list of the trees, read whether or not a file is governed by it (a list of floors governs none). */
function allDeps(dir) {
  if (!existsSync(dir)) return;
  if (existsSync(join(dir, 'DEPS.list')) && !depsCache.has(dir)) depsCache.set(dir, readDeps(dir));
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'dist' || n === 'out' || n === 'fixtures' || n.startsWith('.')) continue;
    if (statSync(p).isDirectory()) allDeps(p);
  }
}

/**
 * The floors of the folders that have them: folder (relative) → { deps, floorOf: subfolder → floor
 * (1 the ground) }, checked: each named subfolder exists and has its own DEPS.list, each stands on
 * one floor, and every subfolder with code is on a floor.
 */
function floorsOf(files, problems) {
  const out = new Map();
  for (const deps of depsCache.values()) {
    if (!deps.floors.length) continue;
    const floorOf = new Map();
    deps.floors.forEach(({ subs, line }, i) => {
      for (const sub of subs) {
        const at = `${deps.file}:${line}`;
        if (floorOf.has(sub)) problems.push(`${at}: ${deps.dir}/${sub} stands on two floors (${floorOf.get(sub)} and ${i + 1})`);
        else if (!existsSync(join(root, deps.dir, sub)) || !statSync(join(root, deps.dir, sub)).isDirectory()) problems.push(`${at}: floor ${i + 1} names ${deps.dir}/${sub}, which is no folder`);
        else if (!existsSync(join(root, deps.dir, sub, 'DEPS.list'))) problems.push(`${at}: ${deps.dir}/${sub} is a floor but has no DEPS.list of its own (it names the lower floors it takes from)`);
        floorOf.set(sub, floorOf.get(sub) ?? i + 1);
      }
    });
    out.set(deps.dir, { deps, floorOf });
  }
  const told = new Set();
  for (const file of files) {
    const f = floorFor(file, out);
    if (!f || f.floor || told.has(f.sub ?? file)) continue;
    told.add(f.sub ?? file);
    problems.push(f.sub ? `${f.dir}/${f.sub} stands on no floor of ${f.deps.file}: put it on one` : `${rel(file)}: lies beside the floors of ${f.dir} (${f.deps.file}): code goes in a floor`);
  }
  return out;
}

/** The floored folder a file lies in, its subfolder there, and that subfolder's floor (undefined when on none). */
function floorFor(absFile, floors) {
  const r = rel(absFile);
  for (const [dir, { deps, floorOf }] of floors) {
    if (!r.startsWith(`${dir}/`)) continue;
    const parts = r.slice(dir.length + 1).split('/');
    const sub = parts.length > 1 ? parts[0] : undefined;
    return { dir, deps, sub, floor: sub && floorOf.get(sub) };
  }
  return undefined;
}

/** The DEPS.list that governs a file: its folder's, else the nearest above it that does not say `scope: files`. */
function depsFor(absFile) {
  let dir = dirname(absFile);
  let own = true;
  while (posix(relative(root, dir)) !== '' && !relative(root, dir).startsWith('..')) {
    if (existsSync(join(dir, 'DEPS.list'))) {
      if (!depsCache.has(dir)) depsCache.set(dir, readDeps(dir));
      const deps = depsCache.get(dir);
      if (own || !deps.filesOnly) return deps;
    }
    own = false;
    dir = dirname(dir);
  }
  return undefined;
}

// ---- parsing ----

/** Every file parsed once by the TypeScript parser, as one program that resolves nothing. */
function parseAll(files) {
  const config = join(root, '.check-boundaries.tsconfig.json');
  const api = new API({
    cwd: root,
    fs: {
      readFile: (f) => (f === config ? JSON.stringify({ compilerOptions: { noResolve: true, noLib: true, types: [], allowJs: true, target: 'es2022', module: 'nodenext' }, files }) : undefined),
      fileExists: (f) => (f === config ? true : undefined),
    },
  });
  try {
    const program = api.updateSnapshot({ openProjects: [config] }).getProjects()[0].program;
    return new Map(files.map((f) => [f, importsOf(program.getSourceFile(f))]));
  } finally {
    api.close();
  }
}

const isString = (n) => n && (n.kind === SyntaxKind.StringLiteral || n.kind === SyntaxKind.NoSubstitutionTemplateLiteral);

/** Imports of one source file: { spec, typeOnly, line } or { computed, line } for an import()/require() of a computed name. */
function importsOf(sf) {
  const out = [];
  const text = sf.text;
  // A node's pos includes the whitespace and comments before it: count the lines up to its first token.
  const lineOf = (node) => text.slice(0, node.pos).split('\n').length + (text.slice(node.pos, node.end).match(/^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/)[0].split('\n').length - 1);
  const add = (node, specNode, typeOnly) => {
    if (isString(specNode)) out.push({ spec: specNode.text, typeOnly, line: lineOf(node) });
    else out.push({ computed: text.slice(specNode?.pos ?? node.pos, specNode?.end ?? node.end).trim(), line: lineOf(node) });
  };
  const visit = (node) => {
    switch (node.kind) {
      case SyntaxKind.ImportDeclaration: {
        const c = node.importClause;
        // `import type …`, or `import { type A, type B }` with no default: erased from the output.
        const typeOnly = !!c && (c.phaseModifier === SyntaxKind.TypeKeyword || c.isTypeOnly === true
          || (!c.name && c.namedBindings?.kind === SyntaxKind.NamedImports && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
        add(node, node.moduleSpecifier, typeOnly);
        return;
      }
      case SyntaxKind.ExportDeclaration:
        if (node.moduleSpecifier) {
          const e = node.exportClause;
          add(node, node.moduleSpecifier, node.isTypeOnly || (e?.kind === SyntaxKind.NamedExports && e.elements.length > 0 && e.elements.every((s) => s.isTypeOnly)));
        }
        return;
      case SyntaxKind.ImportEqualsDeclaration:
        if (node.moduleReference.kind === SyntaxKind.ExternalModuleReference) add(node, node.moduleReference.expression, node.isTypeOnly);
        return;
      case SyntaxKind.ImportType:
        if (node.argument.kind === SyntaxKind.LiteralType) add(node, node.argument.literal, true);
        break;
      case SyntaxKind.CallExpression: {
        const callee = node.expression;
        if (callee.kind === SyntaxKind.ImportKeyword || (callee.kind === SyntaxKind.Identifier && callee.text === 'require')) add(node, node.arguments[0], false);
        break;
      }
    }
    node.forEachChild(visit);
  };
  sf.forEachChild(visit);
  return out;
}

// ---- resolution ----

function resolveRelative(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec);
  for (const c of [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base.replace(/\.cjs$/, '.cts'), `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

/** The package a bare specifier names ("@scope/name/sub" → "@scope/name"); Node's built-ins are "node:*". */
function packageOf(spec) {
  if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0])) return 'node:*';
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const ownName = existsSync(join(root, 'package.json')) ? JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name : undefined;

// ---- the check ----

export function check() {
  const files = TREES.flatMap((t) => codeFiles(join(root, t)));
  const parsed = parseAll(files);
  const problems = [];
  for (const t of TREES) allDeps(join(root, t));
  const floors = floorsOf(files, problems);
  /** file → [{ target (abs file) | pkg, typeOnly }] */
  const edges = new Map();

  for (const file of files) {
    const r = rel(file);
    const deps = depsFor(file);
    if (!deps) { problems.push(`${r}: no DEPS.list governs this file (add one to its folder)`); continue; }
    const out = [];
    edges.set(file, out);
    for (const imp of parsed.get(file)) {
      const at = `${r}:${imp.line}`;
      if (imp.computed !== undefined) {
        problems.push(`${at}: import of a computed name (${imp.computed}) cannot be checked; import a string literal`);
        continue;
      }
      const { spec, typeOnly } = imp;
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const target = resolveRelative(file, spec);
        if (!target) { problems.push(`${at}: "${spec}" resolves to no file`); continue; }
        const t = rel(target);
        out.push({ target, typeOnly });
        // Between two floors of one folder an import runs down, whatever the lists allow.
        const from = floorFor(file, floors);
        const to = floorFor(target, floors);
        if (from?.floor && to?.floor && from.dir === to.dir && from.sub !== to.sub && to.floor >= from.floor) {
          problems.push(`${at}: ${from.dir}/${from.sub} (floor ${from.floor}) imports ${t} (floor ${to.floor}${to.floor === from.floor ? ', beside it' : ''}): imports between the floors of ${from.dir} run down (${from.deps.file})`);
          // A list that allows it is wrong too, but this import is what it is for: one problem, not two.
          const perm = deps.allow.find((a) => t === a.perm || t.startsWith(`${a.perm}/`));
          if (perm) deps.used.add(perm.perm);
          continue;
        }
        const targetDeps = depsFor(target);
        if (targetDeps === deps) {
          if (deps.closed.includes(t)) problems.push(`${at}: ${t} is closed to ${deps.dir}'s own files (${deps.file})`);
          continue;
        }
        const perm = deps.allow.find((a) => t === a.perm || t.startsWith(`${a.perm}/`));
        if (perm) deps.used.add(perm.perm);
        else problems.push(`${at}: ${deps.dir} may not import ${t} (not in ${deps.file})`);
      } else {
        const pkg = packageOf(spec);
        out.push({ pkg, typeOnly });
        if (pkg === ownName) {
          const perm = deps.allow.find((a) => a.perm === pkg);
          if (perm) deps.used.add(perm.perm);
          else problems.push(`${at}: the package imports itself ("${spec}"); import the module by its relative path`);
          continue;
        }
        const perm = deps.allow.find((a) => a.perm === pkg);
        if (perm) deps.used.add(perm.perm);
        else problems.push(`${at}: ${deps.dir} may not import ${pkg} (not in ${deps.file})`);
      }
    }
  }

  // Permissions nobody uses: a rule that allows nothing hides what the folder really needs.
  for (const deps of new Set(depsCache.values())) {
    for (const a of deps.allow) if (!deps.used.has(a.perm)) problems.push(`${deps.file}:${a.line}: "${a.perm}" is allowed but nothing in ${deps.dir} imports it; remove it`);
    for (const c of deps.closed) if (!existsSync(join(root, c))) problems.push(`${deps.file}: closed file ${c} does not exist`);
    for (const n of deps.neverReaches) for (const f of n.files) if (!existsSync(join(root, f))) problems.push(`${deps.file}: never-reaches ${n.pkg} names ${f}, which does not exist`);
  }

  // never-reaches: follow value imports to any depth.
  for (const file of files) {
    const deps = depsFor(file);
    for (const { pkg, files: only } of deps?.neverReaches ?? []) {
      if (only.length && !only.includes(rel(file))) continue;
      const path = valuePathTo(file, pkg, edges);
      if (path) problems.push(`${rel(file)}: reaches ${pkg} through value imports (${[...path.map(rel), pkg].join(' → ')}); import types only, or move the value to a module without ${pkg} (${deps.file}: never-reaches ${pkg})`);
    }
  }

  for (const cycle of cycles(files, edges)) problems.push(`import cycle: ${[...cycle, cycle[0]].map(rel).join(' → ')}`);
  return { problems, checked: files.length };
}

/** The chain of value imports from `file` to the package, if there is one. */
function valuePathTo(file, pkg, edges) {
  const seen = new Set([file]);
  const walk = (f, path) => {
    for (const e of edges.get(f) ?? []) {
      if (e.typeOnly) continue;
      if (e.pkg === pkg) return path;
      if (e.target && !seen.has(e.target)) {
        seen.add(e.target);
        const found = walk(e.target, [...path, e.target]);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(file, [file]);
}

/** Each strongly connected group of files (Tarjan), reported as one cycle through it. */
function cycles(files, edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const found = [];
  const succ = (f) => (edges.get(f) ?? []).filter((e) => e.target).map((e) => e.target);
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of succ(v)) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do { w = stack.pop(); on.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1 || succ(v).includes(v)) found.push(cycleIn(new Set(group), v, succ));
    }
  };
  for (const f of files) if (!idx.has(f)) strong(f);
  return found;
}

/** One concrete cycle through `start` inside a strongly connected group (breadth-first, so the shortest). */
function cycleIn(group, start, succ) {
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of succ(v)) {
      if (!group.has(w)) continue;
      if (w === start) {
        const path = [];
        for (let x = v; x !== null; x = prev.get(x)) path.unshift(x);
        return path;
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, checked } = check();
  if (problems.length) {
    console.error('Architecture boundaries violated:\n  ' + problems.join('\n  '));
    process.exit(1);
  }
  console.error(`boundaries: ${checked} files in ${TREES.join(', ')} import only what their DEPS.list allows, with no cycle`);
}
