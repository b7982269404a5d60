#!/usr/bin/env node
/**
 * Fails when the modules of src/ import each other in a circle (docs/ipc.md, "Layers inside
 * main"): every relative import of every .ts and .svelte file counts, type-only and dynamic ones
 * included, so a cycle cannot hide behind `import type`. Prints each cycle as a path of files and
 * exits 1; exits 0 when there is none. No dependencies: `npm run lint` runs it.
 *
 *   node build/import-cycles.mjs [folder ...]      (default: src)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const folders = process.argv.slice(2);
const files = (folders.length ? folders : ['src']).flatMap((f) => walk(resolve(root, f)));

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (/\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** `from '...'`, `import '...'` and `import('...')`, outside comments. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const out = new Set();
  for (const [, spec] of text.matchAll(IMPORT)) {
    const target = resolveImport(dirname(file), spec);
    if (target) out.add(target);
  }
  return [...out];
}

/** The file a relative import names: `.js` written for `.ts`, or no extension at all. */
function resolveImport(from, spec) {
  const base = resolve(from, spec);
  const tries = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return tries.find((t) => existsSync(t) && statSync(t).isFile());
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Tarjan's strongly connected components: each with more than one file is a cycle. */
function components() {
  let index = 0;
  const stack = [];
  const seen = new Map();
  const low = new Map();
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    seen.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!seen.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), seen.get(w)));
      }
    }
    if (low.get(v) === seen.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part);
    }
  };
  for (const v of graph.keys()) if (!seen.has(v)) visit(v);
  return found;
}

/** One shortest way round a component, from its first file (in path order) back to it. */
function cycleIn(part) {
  const inside = new Set(part);
  const start = [...part].sort()[0];
  const back = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = back.get(x)) path.splice(1, 0, x);
        return [...path, start];
      }
      if (inside.has(w) && !back.has(w)) {
        back.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const cycles = components().map(cycleIn);
for (const cycle of cycles) {
  console.error(`import cycle: ${cycle.map((f) => relative(root, f)).join(' -> ')}`);
}
if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle(s) in ${folders.join(', ') || 'src'}.`);
  process.exit(1);
}
console.log(`No import cycle among ${graph.size} files.`);
