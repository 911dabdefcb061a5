import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EntryKind, walkTree } from './tree-walker.js';
import { compareKeys, subtreeHigh, subtreeLow, walkKey } from './walk-order.js';
import { makeTree, openTestRepository } from './search.test-support.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempRoot(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-walk-')));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

async function collect(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of walkTree(root, '')) out.push(entry.path);
  return out;
}

describe('walk order', () => {
  it('visits a folder before its contents and before siblings that sort after it', async () => {
    const root = tempRoot();
    makeTree(root, ['docs/b.txt', 'docs/a/x.txt', 'docs.zip', 'docs b/c', 'docs-old/', 'Docs/', 'é.txt']);
    const walked = await collect(root);
    expect(walked).toEqual(['Docs', 'docs', 'docs/a', 'docs/a/x.txt', 'docs/b.txt', 'docs b', 'docs b/c', 'docs-old', 'docs.zip', 'é.txt']);
    // Sorting the walk keys gives the same order: that is what lets the index keep it.
    expect([...walked].sort((a, b) => compareKeys(walkKey(a), walkKey(b)))).toEqual(walked);
  });

  it('reports links without following them', async () => {
    const root = tempRoot();
    makeTree(root, ['real/inside.txt']);
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    const entries: { path: string; kind: number }[] = [];
    for await (const entry of walkTree(root, '')) entries.push({ path: entry.path, kind: entry.kind });
    expect(entries).toEqual([
      { path: 'link', kind: EntryKind.link },
      { path: 'real', kind: EntryKind.dir },
      { path: 'real/inside.txt', kind: EntryKind.file },
    ]);
  });

  it('compares in code point order, as SQLite does with UTF-8', () => {
    const samples = ['a', 'b', 'a/b', 'a b', 'a\x01', 'a\x02', '\uffff', '\u{1f600}', '\ue000', 'z', '', 'ab', 'a/'];
    for (const left of samples) {
      for (const right of samples) {
        const expected = Math.sign(Buffer.compare(Buffer.from(left), Buffer.from(right)));
        expect(Math.sign(compareKeys(left, right))).toBe(expected);
      }
    }
  });

  it('keeps names with control characters 1 and 2 exact and inside their folder range', () => {
    const parent = 'a';
    for (const child of ['a/x', 'a/\x01', 'a/\x02', 'a/\x02\x01']) {
      const key = walkKey(child);
      expect(compareKeys(key, subtreeLow(parent)) > 0 && compareKeys(key, subtreeHigh(parent)!) < 0).toBe(true);
    }
    // A sibling whose name starts with the folder's name and a control character stays outside.
    for (const sibling of ['a\x01b', 'a\x02', 'ab']) {
      const key = walkKey(sibling);
      expect(compareKeys(key, subtreeLow(parent)) > 0 && compareKeys(key, subtreeHigh(parent)!) < 0).toBe(false);
    }
    expect(new Set(['a/b', 'a\x01b', 'a\x02b'].map(walkKey)).size).toBe(3);
  });

  it('matches the database: the index returns rows in the same order as the walk', async () => {
    const root = tempRoot();
    makeTree(root, ['docs/b.txt', 'docs/a/x.txt', 'docs.zip', 'docs b/c', 'docs-old/', 'Docs/', 'é.txt', '\u{1f600}.txt', '\ue000.txt']);
    const walked = await collect(root);
    const test = await openTestRepository();
    cleanups.push(() => test.close());
    for (const entry of [...walked].reverse()) test.repository.insert({ path: entry, name: path.posix.basename(entry), kind: EntryKind.file });
    expect(test.repository.rowsAfter('', undefined, 100).map((row) => row.path)).toEqual(walked);
    expect(test.repository.rowsAfter(subtreeLow('docs'), { key: subtreeHigh('docs')!, inclusive: false }, 100).map((row) => row.path)).toEqual([
      'docs/a',
      'docs/a/x.txt',
      'docs/b.txt',
    ]);
  });
});
