import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The source files of a package (tests left out: nothing imports them). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files a module imports at run time: relative `import`/`export … from`, not `import type`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const [, spec] of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.[^']+)'/gms)) {
    const base = resolve(dirname(file), spec).replace(/\.js$/, '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path));
    if (target) found.push(target);
  }
  return found;
}

/** The first import cycle found, as the chain of files, or undefined. */
function firstCycle(files: string[]): string[] | undefined {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    if (state.has(file)) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('module structure', () => {
  for (const pkg of ['shared', 'server', 'cli']) {
    it(`has no import cycle in packages/${pkg}`, () => {
      const cycle = firstCycle(sources(join(root, 'packages', pkg, 'src')));
      expect(cycle?.map((file) => relative(root, file)).join(' → ')).toBeUndefined();
    });
  }
});
