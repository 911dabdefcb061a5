import fs from 'node:fs';
import path from 'node:path';

/** Relative imports of a TypeScript module, static or dynamic (`./x.js` names `./x.ts`). */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) found.push(full);
  }
  return found;
}

/**
 * The server's test files that open a test database (they reach `test-support/postgres.ts`
 * through their imports, directly or through other helpers), relative to `serverFolder` and
 * sorted. Only these can behave differently on PostgreSQL: the others never open a database, or
 * open a SQLite file of their own whatever the run, so the PostgreSQL run leaves them to the
 * SQLite one instead of running them twice to the same effect.
 */
export function databaseTestFiles(serverFolder: string): string[] {
  const src = path.join(serverFolder, 'src');
  const target = path.join(src, 'test-support', 'postgres.ts');
  // Who imports each module; walking it back from the target finds everything that reaches it.
  const importers = new Map<string, string[]>();
  const files = sourceFiles(src);
  for (const file of files) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const dependency = path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts'));
      const list = importers.get(dependency) ?? [];
      list.push(file);
      importers.set(dependency, list);
    }
  }
  const reaching = new Set<string>([target]);
  const queue = [target];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.pop()!) ?? []) {
      if (reaching.has(importer)) continue;
      reaching.add(importer);
      queue.push(importer);
    }
  }
  return files
    .filter((file) => file.endsWith('.test.ts') && reaching.has(file))
    .map((file) => path.relative(serverFolder, file).split(path.sep).join('/'))
    .sort();
}
