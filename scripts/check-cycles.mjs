// Fails when the static imports of a source tree form a cycle. A cycle lets a module run before
// one it imports has (a zod schema's `.pick` read while undefined crashed every page once), so
// the domain package stays free of them. Usage: node scripts/check-cycles.mjs <src dir>...
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(root, from, spec) {
  const base = spec.startsWith('@/')
    ? join(root, spec.slice(2))
    : spec.startsWith('.')
      ? resolve(dirname(from), spec)
      : null;
  if (base === null) return null;
  for (const ext of ['', ...EXTENSIONS]) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return null;
}

let cycles = 0;
for (const root of process.argv.slice(2).map((dir) => resolve(dir))) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => resolveImport(root, file, m[1])).filter(Boolean);
    graph.set(file, targets);
  }
  // Depth-first search; a back edge to a module still on the stack closes a cycle.
  const state = new Map();
  const stack = [];
  const visit = (file) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        cycles += 1;
        const loop = stack.slice(stack.indexOf(next)).concat(next);
        console.error(`import cycle: ${loop.map((f) => relative(root, f)).join(' → ')}`);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
}
process.exit(cycles > 0 ? 1 : 0);
