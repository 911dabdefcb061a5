import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BoltDatabase, BoltError, isBoltFile, type BoltBucket } from './bolt-reader.js';
import { bucket, idKey, writeBolt, type BoltTree } from '../../test-support/bolt-writer.js';

const fixtures = fileURLToPath(new URL('../../../../test-fixtures/filebrowser/', import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bolt-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function open(file: Buffer): BoltDatabase {
  return new BoltDatabase(file);
}

/** Every plain value of a bucket and its sub-buckets, as text, keyed by their path of names. */
function flatten(target: BoltBucket, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of target.entries()) {
    const name = prefix + entry.key.toString();
    if (entry.bucket) Object.assign(out, flatten(entry.bucket, name + '/'));
    else out[name] = entry.value.toString();
  }
  return out;
}

/** Page flags found in a file, by walking every page-size block (used to prove a layout). */
function pageKinds(file: Buffer, pageSize: number) {
  let branches = 0;
  let overflows = 0;
  for (let at = 2 * pageSize; at < file.length; at += pageSize) {
    const flags = file.readUInt16LE(at + 8);
    if (file.readBigUInt64LE(at) !== BigInt(at / pageSize)) continue;
    if (flags & 0x01) branches++;
    if (file.readUInt32LE(at + 12) > 0) overflows++;
  }
  return { branches, overflows };
}

describe('BoltDB reader on files filebrowser wrote', () => {
  it('reads the live tree of branded.db, not the settings copy left in a freed page', () => {
    const raw = fs.readFileSync(path.join(fixtures, 'branded.db'));
    const db = open(raw);
    expect(db.meta.pageSize).toBe(4096);
    expect(db.meta.txid).toBe(17n);
    const users = [...db.bucket('User')!.values()];
    expect(users).toHaveLength(1);
    expect(users[0]!.key).toEqual(idKey(1));
    expect(JSON.parse(users[0]!.value.toString())).toMatchObject({ username: 'admin', hideDotfiles: true, sorting: { by: 'name', asc: false } });
    // The file holds two settings records; only the one the live tree reaches counts.
    expect(raw.toString('latin1').match(/"defaults":\{/g)!.length).toBe(2);
    const settings = JSON.parse(db.bucket('config')!.get('settings')!.toString());
    expect(settings.defaults.perm).toMatchObject({ execute: false, share: false, download: false });
    expect(settings.branding.name).toBe('Penta CM');
    expect(db.bucket('User')!.bucket('__storm_metadata')!.get('codec')!.toString()).toBe('json');
  });

  it('reads plain.db and tells BoltDB files from others', () => {
    const db = BoltDatabase.open(path.join(fixtures, 'plain.db'));
    expect(JSON.parse(db.bucket('config')!.get('server')!.toString()).root).toBe('/srv');
    expect(isBoltFile(path.join(fixtures, 'plain.db'))).toBe(true);
    const other = path.join(tmp, 'other.db');
    fs.writeFileSync(other, 'SQLite format 3\0' + 'x'.repeat(8192));
    expect(isBoltFile(other)).toBe(false);
    expect(isBoltFile(path.join(tmp, 'missing.db'))).toBe(false);
  });
});

describe('BoltDB reader on written files', () => {
  it('walks branch pages and overflow pages: 2,000 records and one larger than a page', () => {
    const records: BoltTree = [];
    for (let id = 1; id <= 2000; id++) records.push([idKey(id), JSON.stringify({ id, username: `user-${id}` })]);
    const big = 'x'.repeat(10_000);
    records.push([idKey(5000), JSON.stringify({ id: 5000, username: 'big', note: big })]);
    const file = writeBolt([['User', bucket(records)]], { pageSize: 4096 });
    const kinds = pageKinds(file, 4096);
    expect(kinds.branches).toBeGreaterThan(0);
    expect(kinds.overflows).toBeGreaterThan(0);
    const values = [...open(file).bucket('User')!.values()].map(({ value }) => JSON.parse(value.toString()));
    expect(values).toHaveLength(2001);
    expect(values.map((value) => value.id)).toEqual([...Array.from({ length: 2000 }, (_, index) => index + 1), 5000]);
    expect(values[2000].note).toBe(big);
  });

  it('reads a tree three branch levels deep with small pages', () => {
    const records: BoltTree = [];
    for (let index = 0; index < 3000; index++) records.push([`key-${String(index).padStart(5, '0')}`, `value-${index}`]);
    const file = writeBolt([['deep', bucket(records)]], { pageSize: 512 });
    const flat = flatten(open(file).root());
    expect(Object.keys(flat)).toHaveLength(3000);
    expect(flat['deep/key-02999']).toBe('value-2999');
  });

  it('reads nested buckets and inline buckets (root 0, page inside the value)', () => {
    const file = writeBolt([
      [
        'outer',
        bucket([
          ['a', '1'],
          ['inner', bucket([['deepest', bucket([['leaf', 'bottom']], { inline: false })], ['b', '2']])],
          ['small', bucket([['c', '3'], ['d', '4']], { inline: true })],
          ['empty', bucket([], { inline: true })],
        ]),
      ],
      ['flat', bucket([['only', 'one']], { inline: true })],
    ]);
    // The inline buckets' records sit in their parents' leaves: their bucket headers say root 0.
    const db = open(file);
    expect(flatten(db.root())).toEqual({ 'outer/a': '1', 'outer/inner/b': '2', 'outer/inner/deepest/leaf': 'bottom', 'outer/small/c': '3', 'outer/small/d': '4', 'flat/only': 'one' });
    expect([...db.bucket('outer')!.bucket('empty')!.entries()]).toEqual([]);
    expect(db.bucket('outer')!.get('inner')).toBeUndefined();
    expect(db.bucket('missing')).toBeUndefined();
  });

  it('never reads an old copy of a record left in a freed page', () => {
    const old: BoltTree = [['User', bucket([[idKey(1), '{"username":"admin","password":"OLD-HASH"}']], { inline: false })]];
    const live: BoltTree = [['User', bucket([[idKey(1), '{"username":"admin","password":"NEW-HASH"}']], { inline: false })]];
    const file = writeBolt(live, { stale: [old] });
    expect(file.includes('OLD-HASH')).toBe(true);
    const everything = JSON.stringify(flatten(open(file).root()));
    expect(everything).toContain('NEW-HASH');
    expect(everything).not.toContain('OLD-HASH');
  });

  it('uses the other meta page when the newer one is damaged, and the newer one otherwise', () => {
    const old: BoltTree = [['User', bucket([[idKey(1), 'old']])]];
    const live: BoltTree = [['User', bucket([[idKey(1), 'new']])]];
    for (const newerMeta of [0, 1] as const) {
      const olderMeta = newerMeta === 0 ? 1 : 0;
      const intact = open(writeBolt(live, { stale: [old], olderMetaRoot: 'stale', newerMeta, txid: 40 }));
      expect(intact.meta.page).toBe(newerMeta);
      expect(intact.bucket('User')!.get(idKey(1))!.toString()).toBe('new');
      const damagedNewer = open(writeBolt(live, { stale: [old], olderMetaRoot: 'stale', newerMeta, txid: 40, damageMeta: [newerMeta] }));
      expect(damagedNewer.meta).toMatchObject({ page: olderMeta, txid: 39n });
      expect(damagedNewer.bucket('User')!.get(idKey(1))!.toString()).toBe('old');
      const damagedOlder = open(writeBolt(live, { stale: [old], olderMetaRoot: 'stale', newerMeta, txid: 40, damageMeta: [olderMeta] }));
      expect(damagedOlder.bucket('User')!.get(idKey(1))!.toString()).toBe('new');
    }
  });

  it('finds the second meta page when the first is damaged and the page size is not 4096', () => {
    const file = writeBolt([['b', bucket([['k', 'v']])]], { pageSize: 16384, damageMeta: [0] });
    const db = open(file);
    expect(db.meta).toMatchObject({ page: 1, pageSize: 16384 });
    expect(db.bucket('b')!.get('k')!.toString()).toBe('v');
  });

  it('refuses a file with both meta pages damaged', () => {
    const file = writeBolt([['b', bucket([['k', 'v']])]], { damageMeta: [0, 1] });
    expect(() => open(file)).toThrow(new BoltError('damaged BoltDB file: both meta pages are invalid'));
  });

  it('refuses files that are not BoltDB, and truncated ones', () => {
    expect(() => open(Buffer.from('SQLite format 3\0' + '\0'.repeat(9000)))).toThrow(/not a BoltDB file/);
    expect(() => open(Buffer.from('{"users":[]}'))).toThrow(/not a BoltDB file: too short/);
    expect(() => open(Buffer.alloc(0))).toThrow(/not a BoltDB file/);
    const records: BoltTree = [];
    for (let id = 1; id <= 500; id++) records.push([idKey(id), `record ${id}`]);
    const file = writeBolt([['User', bucket(records)]]);
    const truncated = file.subarray(0, file.length - 3 * 4096);
    expect(() => [...open(truncated).bucket('User')!.values()]).toThrow(/truncated BoltDB file|outside the/);
    expect(() => open(file.subarray(0, 4096 + 100))).toThrow(/truncated BoltDB file/);
  });

  it('refuses a tree whose page points outside the file or back at itself', () => {
    const file = writeBolt([['b', bucket([['k', 'v']], { inline: false })]]);
    const db = open(file);
    // Point the bucket header at a page past the allocated ones.
    const rootPage = db.meta.root * 4096;
    const element = rootPage + 16;
    const position = element + file.readUInt32LE(element + 4);
    const keySize = file.readUInt32LE(element + 8);
    const damaged = Buffer.from(file);
    damaged.writeBigUInt64LE(9999n, position + keySize);
    expect(() => [...open(damaged).bucket('b')!.entries()]).toThrow(/page 9999 lies outside/);
  });
});
