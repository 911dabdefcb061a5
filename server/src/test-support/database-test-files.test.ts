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
      'test-support/app.ts': "import { testDatabase } from './postgres.js';",
      // Two helpers importing each other, the second one reaching the database.
      'a/helper-one.ts': "import './helper-two.js';",
      'a/helper-two.ts': "import './helper-one.js';\nimport { testDatabase } from '../test-support/app.js';",
      'a/direct.test.ts': "import { testDatabase } from '../test-support/postgres.js';",
      'a/through-cycle.test.ts': "import { x } from './helper-one.js';",
      'b/dynamic.test.ts': "const app = await import('../test-support/app.js');",
      'b/plain.test.ts': "import fs from 'node:fs';\nimport { y } from './util.js';",
      'b/util.ts': 'export const y = 1;',
      // Named like the helper, but from a package: not the test database.
      'b/package-named.test.ts': "import { app } from 'app.js';",
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
    expect(found.size).toBeLessThan(all.length);
  });
});
