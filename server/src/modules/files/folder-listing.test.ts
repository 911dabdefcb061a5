import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Resource, Rule } from '@burrow/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scope } from '../../storage/scoped-fs.js';
import { EntryStatPool, entryStatPool } from './entry-stats-pool.js';
import { IS_PRESENT } from './entry-stats.js';
import { listingJson, listingResource, readFolderListing } from './folder-listing.js';
import { WORKER_THRESHOLD } from './folder-scan.js';
import { listFolder, listFolderJson } from './listing.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-listing-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function scopeOf(options: { rules?: Rule[]; hideDotfiles?: boolean } = {}): Scope {
  return new Scope({
    root: fs.realpathSync(root),
    globalRules: [],
    userRules: options.rules ?? [],
    hideDotfiles: options.hideDotfiles ?? false,
    followExternalSymlinks: false,
    caseInsensitive: false,
  });
}

const write = (relative: string, content = 'x') => {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
};

async function listing(scope: Scope, virtual: string, sorting = { by: 'name', asc: false }) {
  const resolved = await scope.resolve(virtual, 'read');
  return { object: await listFolder(scope, resolved, sorting), json: Buffer.concat(await listFolderJson(scope, resolved, sorting)) };
}

describe('folder listings as JSON', () => {
  it('writes the very document JSON.stringify makes of the object form', async () => {
    write('f/plain.txt', 'hello');
    write('f/UPPER.MD');
    write('f/no-extension');
    write('f/.dotfile');
    write('f/data.json', '{}');
    write('f/empty.bin', '');
    fs.mkdirSync(path.join(root, 'f/sub folder'));
    fs.symlinkSync('plain.txt', path.join(root, 'f/link.txt'));
    fs.symlinkSync('missing', path.join(root, 'f/dangling'));
    fs.symlinkSync(path.join(outside), path.join(root, 'f/escape'));
    for (const sorting of [
      { by: 'name', asc: false },
      { by: 'name', asc: true },
      { by: 'size', asc: false },
      { by: 'modified', asc: true },
      { by: '', asc: false },
    ]) {
      const { object, json } = await listing(scopeOf(), '/f/', sorting);
      expect(json.toString('utf8')).toBe(JSON.stringify(object));
    }
    const { object } = await listing(scopeOf(), '/f/');
    const byName = Object.fromEntries(object.items!.map((item) => [item.name, item]));
    expect(Object.keys(byName).sort()).toEqual(['.dotfile', 'UPPER.MD', 'dangling', 'data.json', 'empty.bin', 'link.txt', 'no-extension', 'plain.txt', 'sub folder']);
    expect(byName['link.txt']).toMatchObject({ isSymlink: true, size: 5, type: 'text' });
    expect(byName['dangling']).toMatchObject({ isSymlink: true, isDir: false, type: 'invalid_link' });
    expect(byName['sub folder']).toMatchObject({ isDir: true, type: '', path: '/f/sub folder' });
  });

  it('escapes names that JSON cannot carry as they are', async () => {
    const names = ['quote"d.txt', 'back\\slash.txt', 'new\nline.txt', 'tab\there', 'bell\u0007', 'café.txt', '日本語.md', 'emoji 😀.png', 'del\u007f'];
    for (const name of names) write(`odd/${name}`);
    fs.mkdirSync(path.join(root, 'odd/dir "q"'));
    write('odd/dir "q"/inner.txt');
    const scope = scopeOf();
    const { object, json } = await listing(scope, '/odd/');
    expect(json.toString('utf8')).toBe(JSON.stringify(object));
    const parsed = JSON.parse(json.toString('utf8'));
    expect(parsed.items.map((item: { name: string }) => item.name).sort()).toEqual([...names, 'dir "q"'].sort());
    for (const item of parsed.items) expect(item.path).toBe(`/odd/${item.name}`);
    const inner = await listing(scope, '/odd/dir "q"/');
    expect(JSON.parse(inner.json.toString('utf8')).items[0].path).toBe('/odd/dir "q"/inner.txt');
  });

  it('lists a big folder through the stat workers with every filter still applied', async () => {
    const count = WORKER_THRESHOLD + 500;
    for (let index = 0; index < count; index++) write(`big/file-${String(index).padStart(5, '0')}.txt`, 'y'.repeat(index % 7));
    fs.mkdirSync(path.join(root, 'big/folder'));
    write('big/secret/hidden.txt');
    write('big/.hidden');
    write('big/.burrow-upload-staging');
    fs.writeFileSync(path.join(outside, 'target.txt'), 'outside');
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'big/escape.txt'));
    fs.symlinkSync('file-00001.txt', path.join(root, 'big/inside.txt'));
    fs.symlinkSync('nowhere', path.join(root, 'big/dangling'));
    const rules: Rule[] = [{ regex: false, allow: false, path: '/big/secret', regexp: { raw: '' } }];
    const scope = scopeOf({ rules, hideDotfiles: true });
    const { object, json } = await listing(scope, '/big/');
    expect(json.toString('utf8')).toBe(JSON.stringify(object));
    const names = object.items!.map((item) => item.name);
    expect(names.slice(0, 1)).toEqual(['folder']);
    expect(names).toContain('inside.txt');
    expect(names).toContain('dangling');
    for (const dropped of ['secret', '.hidden', '.burrow-upload-staging', 'escape.txt']) expect(names).not.toContain(dropped);
    expect(object.numDirs).toBe(1);
    expect(object.numFiles).toBe(count + 2);
    const files = object.items!.filter((item) => item.name.startsWith('file-'));
    expect(files.map((item) => item.name)).toEqual([...files.map((item) => item.name)].sort());
    expect(files[8]).toMatchObject({ size: 1, type: 'text', path: '/big/file-00008.txt', extension: '.txt' });
  });

  it('writes a big folder with the items the stat workers wrote, and writes itself those it types otherwise', async () => {
    const count = WORKER_THRESHOLD + 300;
    // Byte order is not natural order here (file-10 before file-9), so the names must be sorted.
    for (let index = 0; index < count; index++) write(`w/file-${index}.txt`, 'y'.repeat(index % 5));
    // Unknown extensions: few enough to be sniffed, so their types come from their content.
    write('w/clip.bin', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01, 0x00]).toString('latin1'));
    write('w/notes.unknownext', 'plain words');
    write('w/movie.mp4');
    write('w/movie.en.vtt');
    write('w/Café "quoted".md');
    write('w/README.md');
    write('w/readme.md');
    fs.mkdirSync(path.join(root, 'w/Folder'));
    fs.symlinkSync('README.md', path.join(root, 'w/link.md'));
    for (const sorting of [
      { by: 'name', asc: false },
      { by: 'name', asc: true },
      { by: 'size', asc: false },
      { by: '', asc: false },
    ]) {
      const { object, json } = await listing(scopeOf(), '/w/', sorting);
      expect(json.toString('utf8')).toBe(JSON.stringify(object));
    }
    const { object } = await listing(scopeOf(), '/w/');
    const names = object.items!.map((item) => item.name);
    expect(names.slice(0, 3)).toEqual(['Folder', 'Café "quoted".md', 'clip.bin']);
    expect(names.indexOf('file-9.txt')).toBeLessThan(names.indexOf('file-10.txt'));
    const byName = Object.fromEntries(object.items!.map((item) => [item.name, item]));
    expect(byName['movie.mp4']).toMatchObject({ type: 'video', subtitles: ['/w/movie.en.vtt'] });
    expect(byName['notes.unknownext']!.type).toBe('text');
    expect(byName['link.md']).toMatchObject({ isSymlink: true, type: 'text' });
  });

  it('lists a folder the stat workers have already ordered, in that order', async () => {
    const count = WORKER_THRESHOLD + 100;
    for (let index = 0; index < count; index++) write(`s/entry-${String(index).padStart(6, '0')}.txt`);
    fs.mkdirSync(path.join(root, 's/b-folder'));
    fs.mkdirSync(path.join(root, 's/a-folder'));
    for (const sorting of [
      { by: 'name', asc: false },
      { by: 'name', asc: true },
    ]) {
      const { object, json } = await listing(scopeOf(), '/s/', sorting);
      expect(json.toString('utf8')).toBe(JSON.stringify(object));
      const names = object.items!.map((item) => item.name);
      const files = names.slice(2);
      expect(names.slice(0, 2)).toEqual(sorting.asc ? ['b-folder', 'a-folder'] : ['a-folder', 'b-folder']);
      expect(files).toEqual(sorting.asc ? [...files].sort().reverse() : [...files].sort());
    }
  });

  it('lists a big folder again from stats its workers take anew while it is read, never from older ones', async () => {
    const count = WORKER_THRESHOLD + 50;
    for (let index = 0; index < count; index++) write(`r/entry-${String(index).padStart(6, '0')}.txt`);
    const scope = scopeOf();
    const sorting = { by: 'name', asc: false };
    const jsonOf = async () => JSON.parse(Buffer.concat(await listFolderJson(scope, await scope.resolve('/r/', 'read'), sorting)).toString('utf8')) as Resource;
    const sizeOf = (resource: Resource, name: string) => resource.items!.find((item) => item.name === name)?.size;
    expect(sizeOf(await jsonOf(), 'entry-000007.txt')).toBe(1);

    // A file grows; the folder's own entries stay as they were.
    fs.writeFileSync(path.join(root, 'r/entry-000007.txt'), 'grown to more bytes');
    const taken = entryStatPool.restatsTaken;
    const again = await jsonOf();
    expect(entryStatPool.restatsTaken).toBeGreaterThan(taken);
    expect(sizeOf(again, 'entry-000007.txt')).toBe(19);
    expect(JSON.stringify(again)).toBe(JSON.stringify(await listFolder(scope, await scope.resolve('/r/', 'read'), sorting)));
    // Listings side by side: one may take the restat, each answers the folder as it is.
    await jsonOf();
    const together = await Promise.all([jsonOf(), jsonOf(), jsonOf()]);
    for (const each of together) expect(JSON.stringify(each)).toBe(JSON.stringify(again));

    // An entry more: the folder changed, so nothing is stat'ed ahead, and the new entry is there.
    await jsonOf();
    write('r/new.txt', 'new');
    const before = entryStatPool.restatsTaken;
    const changed = await jsonOf();
    expect(entryStatPool.restatsTaken).toBe(before);
    expect(sizeOf(changed, 'new.txt')).toBe(3);
    expect(changed.items).toHaveLength(count + 1);
  });

  it('keeps the object and JSON forms in step for the same listing', async () => {
    write('v/clip.mp4');
    write('v/clip.en.vtt');
    write('v/notes.txt');
    const scope = scopeOf();
    const resolved = await scope.resolve('/v/', 'read');
    const folder = { path: '/v/', name: 'v', size: 0, extension: '', modified: '', mode: 0, isDir: true, isSymlink: false, type: '' as const };
    const read = await readFolderListing(scope, folder, resolved.real, '/v', { by: 'name', asc: false });
    const object = listingResource(read);
    expect(Buffer.concat(listingJson(read)).toString('utf8')).toBe(JSON.stringify(object));
    expect(object.items!.find((item) => item.name === 'clip.mp4')!.subtitles).toEqual(['/v/clip.en.vtt']);
  });
});

describe('EntryStatPool', () => {
  it('stats names on worker threads, split in parts, and marks missing entries', async () => {
    for (let index = 0; index < 10; index++) write(`p/n${index}`, 'z'.repeat(index));
    const names = [...Array.from({ length: 10 }, (_, index) => `n${index}`), 'gone'];
    const pool = new EntryStatPool(2);
    const columns = await pool.stat(fs.realpathSync(root) + '/p/', names);
    expect(columns).toBeDefined();
    expect(Array.from(columns!.sizes.slice(0, 10))).toEqual(Array.from({ length: 10 }, (_, index) => index));
    expect(columns!.flags[10]! & IS_PRESENT).toBe(0);
    expect(columns!.flags[3]! & IS_PRESENT).not.toBe(0);
  });
});
