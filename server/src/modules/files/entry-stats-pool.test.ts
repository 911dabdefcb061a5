import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IS_FILE } from './entry-stats.js';
import { EntryStatPool } from './entry-stats-pool.js';
import { TYPE_CODES } from './listing-items.js';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-stat-pool-'));
  for (let index = 0; index < 50; index++) fs.writeFileSync(path.join(folder, `file-${index}`), 'x'.repeat(index));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  for (const until = Date.now() + ms; !condition() && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('EntryStatPool', () => {
  it('stops its workers after the idle time and starts them again for the next request, with the same answers', async () => {
    const pool = new EntryStatPool(2, 300);
    const names = fs.readdirSync(folder);
    const first = await pool.stat(folder, names);
    expect(first).toBeDefined();
    expect(pool.running).toBe(true);
    await waitFor(() => !pool.running, 10_000);
    expect(pool.running).toBe(false);
    // Retiring idle workers is not a failure: the pool stays available.
    expect(pool.available).toBe(true);
    const second = await pool.stat(folder, names);
    expect(pool.running).toBe(true);
    expect(Array.from(second!.sizes)).toEqual(names.map((name) => Number(name.slice(5))));
    expect(Array.from(second!.flags).every((flags) => (flags & IS_FILE) !== 0)).toBe(true);
    expect(Array.from(second!.sizes)).toEqual(Array.from(first!.sizes));
    await waitFor(() => !pool.running, 10_000);
  }, 60_000);

  it('stats, types, orders and writes the listing items of a folder, each sent as soon as it is known', async () => {
    const pool = new EntryStatPool(2, 300);
    const names = fs.readdirSync(folder);
    const result = await pool.statAndWrite(folder, '/some folder', names);
    expect(result).toBeDefined();
    expect(Array.from(result!.columns.sizes)).toEqual(names.map((name) => Number(name.slice(5))));
    const typed = await result!.typed;
    // No extension: text when empty, and worth reading the first bytes of otherwise.
    expect(Array.from(typed!.types.typeCodes).every((code) => TYPE_CODES[code] === 'text')).toBe(true);
    expect(Array.from(typed!.types.sniff)).toEqual(names.map((name) => (name === 'file-0' ? 0 : 1)));
    // readdir gives byte order: file-10 comes before file-2, so the names are not in natural order.
    expect(typed!.order!.files.up).toBe(false);
    const parts = (await result!.items)!;
    expect(parts.map((part) => part.first)).toEqual([0, 25]);
    const text = Buffer.concat(parts.map((part) => Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.length))).toString('utf8');
    const items = JSON.parse(`[${text.slice(1)}]`) as { name: string; path: string; size: number }[];
    expect(items.map((item) => item.name)).toEqual(names);
    expect(items[3]).toMatchObject({ path: `/some folder/${names[3]}`, size: Number(names[3]!.slice(5)) });
    await waitFor(() => !pool.running, 10_000);
  }, 60_000);

  it('stats again the names it holds of a folder while the folder is read, and takes those stats only for the same names', async () => {
    const pool = new EntryStatPool(2, 5000);
    const names = fs.readdirSync(folder);
    const sizesOf = (columns: { sizes: Float64Array }) => Array.from(columns.sizes);
    await (await pool.statAndWrite(folder, '/f', names, { version: 'v1' }))!.items;
    // Another version of the folder, or another folder: nothing to stat again.
    expect(pool.restat(folder, '/f', 'v2')).toBeUndefined();
    expect(pool.restat(folder + '/', '/f', 'v1')).toBeUndefined();

    // Contents change, the names do not: the stats are taken after the change, and used.
    fs.writeFileSync(path.join(folder, 'file-3'), 'grown to twenty bytes');
    const key = pool.restat(folder, '/f', 'v1');
    expect(key).toBeDefined();
    const again = await pool.statAndWrite(folder, '/f', names, { version: 'v1', restat: key });
    expect(pool.restatsTaken).toBe(2);
    expect((await again!.typed)!.order!.files.up).toBe(false);
    expect(sizesOf(again!.columns)).toEqual(names.map((name) => (name === 'file-3' ? 21 : Number(name.slice(5)))));
    const text = Buffer.concat((await again!.items)!.map((part) => Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.length))).toString('utf8');
    expect((JSON.parse(`[${text.slice(1)}]`) as { name: string; size: number }[]).find((item) => item.name === 'file-3')!.size).toBe(21);

    // Made as items of another folder path (another user's view of the folder): not taken.
    const elsewhere = pool.restat(folder, '/elsewhere', 'v1');
    expect(elsewhere).toBeDefined();
    const viewed = await pool.statAndWrite(folder, '/f', names, { version: 'v1', restat: elsewhere });
    expect(pool.restatsTaken).toBe(2);
    const viewedText = Buffer.concat((await viewed!.items)!.map((part) => Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.length))).toString('utf8');
    expect((JSON.parse(`[${viewedText.slice(1)}]`) as { path: string }[]).every((item) => item.path.startsWith('/f/'))).toBe(true);

    // A name more: the names are not the same, so the stats are made for the names given.
    const restatKey = pool.restat(folder, '/f', 'v1');
    fs.writeFileSync(path.join(folder, 'file-50'), 'x'.repeat(50));
    const more = fs.readdirSync(folder);
    const changed = await pool.statAndWrite(folder, '/f', more, { version: 'v1', restat: restatKey });
    expect(pool.restatsTaken).toBe(2);
    expect(sizesOf(changed!.columns)).toEqual(more.map((name) => (name === 'file-3' ? 21 : Number(name.slice(5)))));
    await changed!.items;

    // One restat out at a time; a listing in between, of the same folder, leaves it to its own listing.
    await (await pool.statAndWrite(folder, '/f', more, { version: 'v2' }))!.items;
    const owned = pool.restat(folder, '/f', 'v2');
    expect(owned).toBeDefined();
    expect(pool.restat(folder, '/f', 'v2')).toBeUndefined();
    const between = await pool.statAndWrite(folder, '/f', more);
    await between!.items;
    expect(pool.restatsTaken).toBe(2);
    const later = await pool.statAndWrite(folder, '/f', more, { version: 'v2', restat: owned });
    expect(pool.restatsTaken).toBe(4);
    await later!.items;
    // A listing that goes without its restat drops it, and the next one may have one.
    const dropped = pool.restat(folder, '/f', 'v2');
    expect(dropped).toBeDefined();
    pool.dropRestat(dropped);
    const next = pool.restat(folder, '/f', 'v2');
    expect(next).toBeDefined();
    pool.dropRestat(next);

    // A request that keeps nothing (a plain stat, or a listing without a version) lets go of the names.
    await pool.stat(folder, more);
    expect(pool.restat(folder, '/f', 'v2')).toBeUndefined();
    await (await pool.statAndWrite(folder, '/f', more, { version: 'v2' }))!.items;
    pool.dropRestat(pool.restat(folder, '/f', 'v2') ?? expect.fail('the names are held again'));
    await (await pool.statAndWrite(folder, '/f', more))!.items;
    expect(pool.restat(folder, '/f', 'v2')).toBeUndefined();
    await (await pool.statAndWrite(folder, '/f', more, { version: 'v2' }))!.items;
    await waitFor(() => !pool.running, 10_000);
    // Retired workers hold nothing.
    expect(pool.restat(folder, '/f', 'v2')).toBeUndefined();
  }, 60_000);
});
