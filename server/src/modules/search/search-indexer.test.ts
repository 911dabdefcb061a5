import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchIndexer, type SearchIndexer } from './search-indexer.js';
import { diskPaths, findRow, indexedPaths, makeTree, openTestStore } from './search.test-support.js';
import { EntryKind } from './tree-walker.js';
import { compareKeys, walkKey } from './walk-order.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

let test: Awaited<ReturnType<typeof openTestStore>>;
let root: string;
let indexer: SearchIndexer;
let watched: string[];

beforeEach(async () => {
  test = await openTestStore();
  root = path.join(test.base, 'root');
  fs.mkdirSync(root);
  watched = [];
  indexer = createSearchIndexer({
    store: test.store,
    rootReal: root,
    skip: (relative) => relative === 'skipped' || relative.startsWith('skipped/'),
    onDirectory: (relative) => watched.push(relative),
    log: quiet,
    options: { batchSize: 7 },
  });
});
afterEach(async () => {
  await indexer.stop();
  await test.close();
});

const sortedDisk = () => diskPaths(root).filter((entry) => !entry.startsWith('skipped')).sort((a, b) => compareKeys(walkKey(a), walkKey(b)));

describe('search indexer', () => {
  it('indexes the whole tree in walk order, in batches, leaving out skipped paths', async () => {
    makeTree(root, ['a/b/c.txt', 'a/d.txt', 'a.txt', 'e/', 'skipped/x.txt', ...Array.from({ length: 30 }, (_, index) => `many/f${index}.txt`)]);
    const progress: string[] = [];
    const result = await indexer.rescan((key) => {
      progress.push(key);
    });
    expect(result).toMatchObject({ inserted: 37, removed: 0, aborted: false });
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
    expect(progress.length).toBeGreaterThan(3);
    expect(watched).toEqual(['', 'a', 'a/b', 'e', 'many']);
    expect((await findRow(test.store, 'a/b'))?.kind).toBe(EntryKind.dir);
  });

  it('a rescan brings the index in line with changes made behind its back', async () => {
    makeTree(root, ['keep/1.txt', 'gone/2.txt', 'gone/deep/3.txt', 'swap']);
    await indexer.rescan();
    fs.rmSync(path.join(root, 'gone'), { recursive: true });
    fs.rmSync(path.join(root, 'swap'));
    makeTree(root, ['swap/now-a-folder.txt', 'new/4.txt', 'keep/5.txt']);
    const result = await indexer.rescan();
    expect(result).toMatchObject({ removed: 4, updated: 1 });
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
    expect((await findRow(test.store, 'swap'))?.kind).toBe(EntryKind.dir);
  });

  it('notices: a new file, a removed folder, a folder that arrives with contents, a rename', async () => {
    makeTree(root, ['old/x.txt', 'old/y/z.txt']);
    await indexer.rescan();
    makeTree(root, ['one.txt', 'incoming/a/b.txt', 'incoming/c.txt']);
    fs.rmSync(path.join(root, 'old'), { recursive: true });
    await indexer.notify(['one.txt', 'old', 'incoming'], false);
    await indexer.settled();
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
    fs.renameSync(path.join(root, 'incoming'), path.join(root, 'renamed'));
    await indexer.notify(['incoming', 'renamed'], true);
    await indexer.settled();
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
  });

  it('adds the missing folders above a noticed entry', async () => {
    await indexer.rescan();
    makeTree(root, ['p/q/r.txt']);
    await indexer.notify(['p/q/r.txt'], false);
    expect(await indexedPaths(test.store)).toEqual(['p', 'p/q', 'p/q/r.txt']);
  });

  it('stays exact when changes land while a rescan is walking', async () => {
    makeTree(root, Array.from({ length: 60 }, (_, index) => `bulk/${String(index).padStart(2, '0')}.txt`));
    await indexer.rescan();
    // Changes are made and reported while the rescan runs, between its batches.
    let step = 0;
    const changes = [
      () => {
        fs.rmSync(path.join(root, 'bulk/50.txt'));
        return ['bulk/50.txt'];
      },
      () => {
        makeTree(root, ['bulk/05b.txt', 'late/inner/file.txt']);
        return ['bulk/05b.txt', 'late'];
      },
      () => {
        fs.rmSync(path.join(root, 'bulk/01.txt'));
        makeTree(root, ['bulk/59b.txt']);
        return ['bulk/01.txt', 'bulk/59b.txt'];
      },
    ];
    // Each notice is fully applied before the rescan merges its next batch, from folders it read
    // before the change: exactly the stale view the rescan must not write back.
    await indexer.rescan(async () => {
      const change = changes[step++];
      if (change) await indexer.notify(change(), false);
    });
    await indexer.settled();
    expect(step).toBeGreaterThanOrEqual(changes.length);
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
  });

  it('turns a flood of notices into one rescan', async () => {
    makeTree(root, ['before.txt']);
    await indexer.rescan();
    makeTree(root, ['flood/a.txt', 'flood/b/c.txt']);
    fs.rmSync(path.join(root, 'before.txt'));
    const flood = Array.from({ length: 25_000 }, (_, index) => `flood/missing-${index}.txt`);
    await indexer.notify(flood, false);
    expect(await indexedPaths(test.store)).toEqual(sortedDisk());
  });

  it('keeps the rows it could not reach when stopped mid-walk', async () => {
    makeTree(root, Array.from({ length: 40 }, (_, index) => `f${index}.txt`));
    await indexer.rescan();
    const before = await indexedPaths(test.store);
    let stopping: Promise<void> | undefined;
    const result = await indexer.rescan(() => {
      stopping ??= indexer.stop();
    });
    await stopping;
    expect(result.aborted).toBe(true);
    expect(await indexedPaths(test.store)).toEqual(before);
  });
});
