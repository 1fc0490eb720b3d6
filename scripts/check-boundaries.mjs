// Architecture check, run with the tests: which folder may import which.
//   src/page   → src/model only (it is bundled into the page: no Node, no browser side)
//   src/model  → nothing of ours (pure, usable anywhere)
//   faces (cli, server, mcp, protocol) → model and browser, never page
// Type-only imports are allowed across page/model since they vanish at build time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const RULES = {
  page: ['page', 'model'],
  model: ['model'],
  browser: ['browser', 'model'],
  protocol: ['protocol', 'model', 'browser'],
  server: ['server', 'protocol', 'model', 'browser'],
  mcp: ['mcp', 'protocol', 'model', 'browser'],
  cli: ['cli', 'protocol', 'model', 'browser', 'server', 'mcp'],
};
const NODE_ONLY = /^(node:|playwright-core|commander|@modelcontextprotocol)/;

function files(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const problems = [];
for (const file of files(src)) {
  const area = relative(src, file).split('/')[0];
  const allowed = RULES[area];
  if (!allowed) continue;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    const [, , typeOnly, spec] = m;
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec)).split('/')[0];
      if (!allowed.includes(target) && !(typeOnly && area === 'page' && target === 'model')) {
        problems.push(`${relative(root, file)}: ${area} may not import ${target} (${spec})`);
      }
    } else if ((area === 'page' || area === 'model') && NODE_ONLY.test(spec)) {
      problems.push(`${relative(root, file)}: ${area} runs outside Node too and may not import ${spec}`);
    }
  }
}
if (problems.length) {
  console.error('Architecture boundaries violated:\n  ' + problems.join('\n  '));
  process.exit(1);
}
console.error(`boundaries: ${files(src).length} files respect src/page → model, model → nothing, faces → browser`);
