import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFilesHarness, encodePath, namesIn, type FilesHarness } from './files.test-support.js';

let h: FilesHarness;
beforeEach(async () => {
  h = await createFilesHarness();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

const twice = (virtual: string) => encodeURIComponent(encodePath(virtual));

/** Makes renames of `source` fail as if it lived on another filesystem. */
function crossDevice(source: string) {
  const rename = fsp.rename;
  vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
    if (String(from) === source) throw Object.assign(new Error('cross-device link'), { code: 'EXDEV' });
    return rename(from, to);
  });
}

describe('move across filesystems', () => {
  it('falls back to copy and delete', async () => {
    h.put('tree/a.txt', 'a');
    h.put('tree/sub/b.txt', 'b');
    fs.symlinkSync('a.txt', h.real('tree/link'));
    crossDevice(fs.realpathSync(h.real('tree')));
    const response = await h.api(h.admin, 'PATCH', '/tree', { query: `action=rename&destination=${twice('/elsewhere/tree')}` });
    expect(response.statusCode).toBe(200);
    expect(h.exists('tree')).toBe(false);
    expect(namesIn(h.real('elsewhere/tree'))).toEqual(['a.txt', 'link', 'sub']);
    expect(h.read('elsewhere/tree/sub/b.txt')).toBe('b');
    expect(fs.readlinkSync(h.real('elsewhere/tree/link'))).toBe('a.txt');
  });

  it('keeps the source when something could not be carried over', async () => {
    h.put('tree/a.txt', 'a');
    execFileSync('mkfifo', [h.real('tree/pipe')]);
    crossDevice(fs.realpathSync(h.real('tree')));
    const response = await h.api(h.admin, 'PATCH', '/tree', { query: `action=rename&destination=${twice('/moved')}` });
    expect(response.statusCode).toBe(500);
    expect(namesIn(h.real('tree'))).toEqual(['a.txt', 'pipe']);
  });
});

describe('copy', () => {
  it('refuses a special file at the top with 400 and skips them inside folders', async () => {
    h.mkdir('box');
    execFileSync('mkfifo', [h.real('box/pipe')]);
    h.put('box/file.txt', 'f');
    expect((await h.api(h.admin, 'PATCH', '/box/pipe', { query: `action=copy&destination=${twice('/pipe2')}` })).statusCode).toBe(400);
    expect((await h.api(h.admin, 'PATCH', '/box', { query: `action=copy&destination=${twice('/box2')}` })).statusCode).toBe(200);
    expect(namesIn(h.real('box2'))).toEqual(['file.txt']);
  });

  it('copies a link at the top as the content it points to (inside the scope)', async () => {
    h.put('data/real.txt', 'payload');
    fs.symlinkSync('data/real.txt', h.real('alias'));
    expect((await h.api(h.admin, 'PATCH', '/alias', { query: `action=copy&destination=${twice('/copied.txt')}` })).statusCode).toBe(200);
    expect(fs.lstatSync(h.real('copied.txt')).isFile()).toBe(true);
    expect(h.read('copied.txt')).toBe('payload');
  });

  it('moves a link as a link', async () => {
    h.put('data/real.txt', 'payload');
    fs.symlinkSync('data/real.txt', h.real('alias'));
    expect((await h.api(h.admin, 'PATCH', '/alias', { query: `action=rename&destination=${twice('/alias2')}` })).statusCode).toBe(200);
    expect(fs.lstatSync(h.real('alias2')).isSymbolicLink()).toBe(true);
    expect(h.read('data/real.txt')).toBe('payload');
  });

  it('copying a file onto itself with override changes nothing', async () => {
    h.put('self.txt', 'same');
    expect((await h.api(h.admin, 'PATCH', '/self.txt', { query: `action=copy&destination=${twice('/self.txt')}&override=true` })).statusCode).toBe(200);
    expect(h.read('self.txt')).toBe('same');
    expect(namesIn(h.t.root)).toEqual(['self.txt']);
  });
});
