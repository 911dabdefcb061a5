import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { archiveEntryName, folderEntryNames, safeSegment } from './archive-entries.js';

describe('portable entry names', () => {
  it('rewrites separators, drives, device names and trailing dots or spaces; refuses . and ..', () => {
    expect(safeSegment('plain.txt')).toBe('plain.txt');
    expect(safeSegment('..\\..\\x')).toBe('.._.._x');
    expect(safeSegment('C:')).toBe('C_');
    expect(safeSegment('c:evil.txt')).toBe('c_evil.txt');
    expect(safeSegment('file.txt:stream')).toBe('file.txt_stream');
    for (const device of ['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'COM¹', 'CONIN$']) {
      expect(safeSegment(device)).toBe('_' + device);
    }
    expect(safeSegment('NUL.txt')).toBe('_NUL.txt');
    expect(safeSegment('con.tar.gz')).toBe('_con.tar.gz');
    expect(safeSegment('CON .txt')).toBe('_CON .txt');
    // Only the whole first part names a device.
    expect(safeSegment('console.log')).toBe('console.log');
    expect(safeSegment('COM10')).toBe('COM10');
    expect(safeSegment('xCON')).toBe('xCON');
    expect(safeSegment('name.')).toBe('name_');
    expect(safeSegment('name. .')).toBe('name___');
    expect(safeSegment('.. ')).toBe('___');
    expect(safeSegment('...')).toBe('___');
    expect(safeSegment('trailing ')).toBe('trailing_');
    expect(safeSegment('.hidden')).toBe('.hidden');
    for (const refused of ['', '.', '..']) expect(safeSegment(refused)).toBeUndefined();
  });

  it('numbers a rewritten name that meets a sibling, never renaming names that were already safe', () => {
    expect(folderEntryNames(['a:b', 'a_b', 'a_b(1)', 'nul.txt', '_nul.txt', 'x.'])).toEqual(['a_b(2)', 'a_b', 'a_b(1)', '_nul(1).txt', '_nul.txt', 'x_']);
    expect(folderEntryNames(['c:', 'c\\', 'c_'])).toEqual(['c_(1)', 'c_(2)', 'c_']);
    expect(folderEntryNames(['.', 'ok'])).toEqual([undefined, 'ok']);
    const names = folderEntryNames(['q:', 'q\\', 'q ', 'q.', 'q_']);
    expect(new Set(names).size).toBe(names.length);
  });

  it('makes whole relative paths safe segment by segment', () => {
    expect(archiveEntryName('a/b.txt')).toBe('a/b.txt');
    expect(archiveEntryName('C:/Windows/system32')).toBe('C_/Windows/system32');
    expect(archiveEntryName('dir./aux')).toBe('dir_/_aux');
    expect(archiveEntryName('a/../b')).toBeUndefined();
    expect(archiveEntryName('/abs')).toBeUndefined();
  });
});

/**
 * Builds `<root>/top/d/d/.../d/leaf.txt` with `depth` folders below `top`, from the bottom up:
 * each step nests the tree built so far at the bottom of a fresh 250-level chain, so no path the
 * test touches grows with the depth (a 4,000-deep tree is past PATH_MAX).
 */
function buildDeepTree(root: string, depth: number): void {
  const current = path.join(root, 'cur');
  const next = path.join(root, 'next');
  fs.mkdirSync(current);
  fs.writeFileSync(path.join(current, 'leaf.txt'), 'bottom\n');
  for (let made = 0; made < depth; ) {
    const step = Math.min(250, depth - made);
    const bottom = path.join(next, ...Array<string>(step - 1).fill('d'));
    fs.mkdirSync(bottom, { recursive: true });
    fs.renameSync(current, path.join(bottom, 'd'));
    fs.renameSync(next, current);
    made += step;
  }
  fs.renameSync(current, path.join(root, 'top'));
}

/** Entry names from a zip's central directory (no ZIP64 needed at these sizes). */
function zipNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

const run = (command: string, args: string[], input?: Buffer): string =>
  execFileSync(command, args, { input, timeout: 120_000, maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] }).toString();

describe('deep trees', () => {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = await createTestApp();
    token = await t.login();
  });
  afterEach(async () => {
    // Recursive removal in Node recurses once per level; rm walks any depth.
    execFileSync('rm', ['-rf', path.join(t.root, 'top')]);
    await t.close();
  });

  function expectedNames(depth: number): string[] {
    const names: string[] = [];
    let folder = '';
    for (let level = 0; level < depth; level++) {
      folder += folder ? '/d' : 'd';
      names.push(folder + '/');
    }
    names.push(`${folder}/leaf.txt`);
    return names;
  }

  for (const depth of [2000, 4000]) {
    it(`archives a tree ${depth} folders deep completely, in zip and tar`, async () => {
      buildDeepTree(t.root, depth);
      const expected = expectedNames(depth);

      const zip = await t.request(token, { method: 'GET', url: '/api/raw/top?algo=zip' });
      expect(zip.statusCode).toBe(200);
      expect(zipNames(zip.rawPayload)).toEqual(expected);
      if (depth === 2000) {
        // Short enough for unzip, which cuts names at 4 KiB.
        const file = path.join(t.outside, 'deep.zip');
        fs.writeFileSync(file, zip.rawPayload);
        expect(run('unzip', ['-Z1', file]).split('\n').filter(Boolean)).toEqual(expected);
        expect(run('unzip', ['-p', file, expected[expected.length - 1]!])).toBe('bottom\n');
      }

      const tar = await t.request(token, { method: 'GET', url: '/api/raw/top?algo=tar' });
      expect(tar.statusCode).toBe(200);
      expect(run('tar', ['-tf', '-'], tar.rawPayload).split('\n').filter(Boolean)).toEqual(expected);
      expect(run('tar', ['-xOf', '-', expected[expected.length - 1]!], tar.rawPayload)).toBe('bottom\n');
    }, 300_000);
  }
});
