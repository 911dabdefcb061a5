import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceRoot = import.meta.dirname;

/** Protocol files the browser may import by subpath: constants and paths only, no schema. */
const SCHEMA_FREE = ['errors', 'paths', 'startup', 'constants', 'hook-events', 'api-token-constants', 'audit-constants', 'oidc-paths', 'two-factor-constants'];

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('web bundle', () => {
  it('takes only types from the protocol package root, so the schema runtime stays out of the browser', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(sourceRoot)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(/import\s+(type\s+)?[^;]*?from\s+['"]@burrow\/protocol(\/[\w-]+)?['"]/g)) {
        const [statement, typeOnly, subpath] = match;
        if (!typeOnly && !subpath) offenders.push(`${path.relative(sourceRoot, file)}: ${statement}`);
        if (subpath && !SCHEMA_FREE.map((name) => `/${name}`).includes(subpath)) {
          offenders.push(`${path.relative(sourceRoot, file)}: ${subpath} may import the schema runtime`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the schema-free protocol files import no schema library', () => {
    for (const name of SCHEMA_FREE) {
      const text = fs.readFileSync(path.join(sourceRoot, '../../protocol/src', `${name}.ts`), 'utf8');
      const valueImports = [...text.matchAll(/^import\s+(?!type\b)[^;]*from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]);
      expect(valueImports, name).toEqual([]);
    }
  });
});
