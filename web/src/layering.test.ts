import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceRoot = import.meta.dirname;

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The module a relative specifier names, or undefined for packages and assets. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(
    (candidate) => /\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
}

/**
 * Static imports and re-exports of a module, type-only ones included (they tie the files
 * together just the same); `import('…')` loads on demand and is left out.
 */
export function staticImports(text: string): string[] {
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) specifiers.push(match[1]!);
  return specifiers;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(sourceRoot)) {
    const text = fs.readFileSync(file, 'utf8');
    graph.set(
      file,
      staticImports(text)
        .map((specifier) => resolve(file, specifier))
        .filter((target): target is string => target !== undefined),
    );
  }
  return graph;
}

/** Every import cycle, each as the files around it starting from its first file in path order. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') {
        const cycle = stack.slice(stack.indexOf(target));
        const first = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
        cycles.set(rotated.join('>'), rotated);
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}

const relative = (file: string) => path.relative(sourceRoot, file).split(path.sep).join('/');

describe('web layering', () => {
  it('finds cycles, type-only imports included', () => {
    expect(staticImports("import type { A } from './a';\nimport { b } from '../b';\nexport { c } from './c';\nconst d = import('./d');")).toEqual(['./a', '../b', './c']);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no import cycle among the dialogs, their registry and the stores', () => {
    const cycles = cyclesOf(importGraph())
      .map((cycle) => cycle.map(relative))
      .filter((cycle) => cycle.some((file) => file.startsWith('dialogs/') || file.startsWith('stores/')));
    expect(cycles).toEqual([]);
  });

  it('keeps components presentational: no API module, no fetch, no query client', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(path.join(sourceRoot, 'components'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const specifier of staticImports(text)) {
        const target = resolve(file, specifier);
        if (target && relative(target).startsWith('api/')) offenders.push(`${relative(file)} imports ${specifier}`);
        if (target && /^lib\/query(\/|-client)/.test(relative(target))) offenders.push(`${relative(file)} uses the query client`);
      }
      if (/\bfetch\(|new (XMLHttpRequest|WebSocket)\(/.test(text)) offenders.push(`${relative(file)} talks to the network`);
    }
    expect(offenders).toEqual([]);
  });
});
