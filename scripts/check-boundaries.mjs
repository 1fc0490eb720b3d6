// Architecture check, run with the tests: which folder may import which, in every import form
// (static, type-only, side-effect, re-export, dynamic import(), require()).
//   src/page    → src/model only, and only zod-free model modules by value (it is bundled into pages)
//   src/model   → nothing of ours (pure, usable anywhere)
//   src/browser → browser, model; never the facade (lens.ts): features take the core
//   src/session → opening a page for a job (composes the facade): browser, model
//   src/tools   → the tool registry (runTool) over agent, session, browser, model; faces may import it
//   faces       → agent, server, mcp, cli over session, browser and model, never page
//   bench/      → src/browser, src/model, src/tools (the tool registry's answers), bench; nothing in src/ imports bench/ or test/
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Area → areas it may import. Areas are src/<folder>, bench, test, extension.
const RULES = {
  'src/page': ['src/page', 'src/model'],
  'src/model': ['src/model'],
  'src/browser': ['src/browser', 'src/model'],
  'src/session': ['src/session', 'src/browser', 'src/model'],
  'src/agent': ['src/agent', 'src/session', 'src/browser', 'src/model'],
  'src/tools': ['src/tools', 'src/agent', 'src/session', 'src/browser', 'src/model'],
  'src/server': ['src/server', 'src/tools', 'src/agent', 'src/session', 'src/browser', 'src/model'],
  'src/mcp': ['src/mcp', 'src/tools', 'src/agent', 'src/session', 'src/browser', 'src/model'],
  'src/cli': ['src/cli', 'src/tools', 'src/server', 'src/mcp', 'src/agent', 'src/session', 'src/browser', 'src/model'],
  'src/index.ts': ['src/browser', 'src/model', 'src/session', 'src/agent', 'src/server', 'src/mcp', 'src/tools'],
  bench: ['bench', 'src/browser', 'src/model', 'src/tools'],
  test: ['test', 'src', 'bench'],
  extension: ['extension', 'src/page', 'src/model'],
};
// Packages that need Node or a browser driver: code that runs in pages may not import them.
const NODE_ONLY = /^(node:|playwright-core|commander|hono|@hono\/|@modelcontextprotocol|fastify|sharp|jpeg-js|autocannon|esbuild)/;
const FACADE = 'src/browser/lens.ts';

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules' || n === 'dist' || n === 'out' || n.startsWith('.')) return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mts|js|mjs)$/.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

/** The area a repository path belongs to (longest rule key that prefixes it). */
function areaOf(rel) {
  if (rel === 'src/index.ts') return 'src/index.ts';
  const parts = rel.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src';
  return parts[0];
}

/** Source without comments (strings and template literals kept), so commented-out imports do not count. */
function stripComments(text) {
  let out = '';
  let i = 0;
  let quote = null;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') { out += text[i + 1] ?? ''; i += 2; continue; }
      if (c === quote) quote = null;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); i = end < 0 ? text.length : end + 2; out += ' '; continue; }
    if (c === '"' || c === "'" || c === '`') quote = c;
    out += c;
    i++;
  }
  return out;
}

const FORMS = [
  // import x from '…', import { a } from '…', import type { T } from '…', export * from '…', export { a } from '…'
  { re: /\b(import|export)(\s+type)?\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\3/g, spec: 4, type: 2 },
  // import '…'
  { re: /\bimport\s*(['"])([^'"]+)\1/g, spec: 2 },
  // import('…')
  { re: /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g, spec: 2 },
  // require('…')
  { re: /\brequire\s*\(\s*(['"])([^'"]+)\1\s*\)/g, spec: 2 },
];

function importsOf(text) {
  const code = stripComments(text);
  const out = [];
  for (const form of FORMS) {
    for (const m of code.matchAll(form.re)) out.push({ spec: m[form.spec], typeOnly: !!(form.type && m[form.type]) || /^import\s+type\b/.test(m[0]) });
  }
  return out;
}

function resolveFile(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return base.replace(/\.js$/, '.ts');
}

const zodFree = new Map();
function importsZod(file) {
  if (!zodFree.has(file)) zodFree.set(file, existsSync(file) && importsOf(readFileSync(file, 'utf8')).some((i) => i.spec === 'zod' && !i.typeOnly));
  return zodFree.get(file);
}

const problems = [];
const all = [...files(join(root, 'src')), ...files(join(root, 'bench')), ...files(join(root, 'test')), ...files(join(root, 'extension'))];
let checked = 0;
for (const file of all) {
  const rel = relative(root, file);
  if (rel.endsWith('.generated.ts')) continue;
  const area = areaOf(rel);
  const allowed = RULES[area];
  if (!allowed) { problems.push(`${rel}: no rule for area ${area} (add it to scripts/check-boundaries.mjs)`); continue; }
  checked++;
  for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
    if (spec.startsWith('.')) {
      const target = relative(root, resolveFile(file, spec));
      const targetArea = areaOf(target);
      const ok = allowed.some((a) => targetArea === a || targetArea.startsWith(`${a}/`) || (a === 'src' && target.startsWith('src/')));
      if (!ok) problems.push(`${rel}: ${area} may not import ${target}`);
      else if (target === FACADE && area.startsWith('src/browser')) problems.push(`${rel}: features take the core; only faces import the facade ${FACADE}`);
      else if (area === 'src/page' && targetArea === 'src/model' && !typeOnly && importsZod(resolveFile(file, spec))) {
        problems.push(`${rel}: imports ${target} by value, which pulls zod into the page bundle (import types only, or move the value to a zod-free module)`);
      }
    } else if ((area === 'src/page' || area === 'src/model' || area === 'extension') && NODE_ONLY.test(spec) && !typeOnly) {
      problems.push(`${rel}: ${area} runs outside Node too and may not import ${spec}`);
    } else if (area.startsWith('src') && /(^|\/)(bench|test)\//.test(spec)) {
      problems.push(`${rel}: src may not import ${spec}`);
    }
  }
}
if (problems.length) {
  console.error('Architecture boundaries violated:\n  ' + problems.join('\n  '));
  process.exit(1);
}
console.error(`boundaries: ${checked} files in src/, bench/, test/ respect page → model, model → nothing, browser → model, faces → browser`);
