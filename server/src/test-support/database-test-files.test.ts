import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTestFiles } from './database-test-files.js';

const serverFolder = fileURLToPath(new URL('../..', import.meta.url));
let folder: string | undefined;

afterEach(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

// Import lines of the made-up sources, put together here so that this file's own text holds
// none: the walk reads imports from the text, and would take these for this file's.
const quoted = (target: string) => `'${target}'`;
const importing = (target: string) => `import { value } from ${quoted(target)};`;
const sideEffect = (target: string) => `import ${quoted(target)};`;
const dynamic = (target: string) => `const value = await import(${quoted(target)});`;

/** A server folder holding the given sources under src/. */
function tree(files: Record<string, string>): string {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-db-tests-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(folder, 'src', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return folder;
}

describe('databaseTestFiles', () => {
  it('finds the test files that reach the test database through any chain of imports', () => {
    const root = tree({
      'test-support/postgres.ts': 'export const testDatabase = 1;',
      'test-support/app.ts': importing('./postgres.js'),
      // Two helpers importing each other, the second one reaching the database.
      'a/helper-one.ts': sideEffect('./helper-two.js'),
      'a/helper-two.ts': sideEffect('./helper-one.js') + '\n' + importing('../test-support/app.js'),
      'a/direct.test.ts': importing('../test-support/postgres.js'),
      'a/through-cycle.test.ts': importing('./helper-one.js'),
      'b/dynamic.test.ts': dynamic('../test-support/app.js'),
      'b/plain.test.ts': importing('node:fs') + '\n' + importing('./util.js'),
      'b/util.ts': 'export const y = 1;',
      // Named like the helper, but from a package: not the test database.
      'b/package-named.test.ts': importing('app.js'),
    });
    expect(databaseTestFiles(root)).toEqual(['src/a/direct.test.ts', 'src/a/through-cycle.test.ts', 'src/b/dynamic.test.ts']);
  });

  it('takes every server test file that creates a test app or database, and leaves pure ones out', () => {
    const found = new Set(databaseTestFiles(serverFolder));
    const all: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.test.ts')) all.push(full);
      }
    };
    walk(path.join(serverFolder, 'src'));
    const usingDatabase = all.filter((file) => /\b(createTestApp|testDatabase|instancesPerTest)\(/.test(fs.readFileSync(file, 'utf8')));
    expect(usingDatabase.length).toBeGreaterThan(40);
    for (const file of usingDatabase) expect(found, file).toContain(path.relative(serverFolder, file));
    expect(found).toContain('src/cli/migrate.test.ts');
    expect(found).not.toContain('src/http/file-range-stream.test.ts');
    expect(found).not.toContain('src/config.test.ts');
    expect(found).not.toContain('src/test-support/database-test-files.test.ts');
    expect(found.size).toBeLessThan(all.length);
  });
});
