import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { putUser } from '../../test-support/users-api.js';
import { createFilesHarness, type FilesHarness } from './files.test-support.js';

let h: FilesHarness;
beforeEach(async () => {
  h = await createFilesHarness();
});
afterEach(async () => {
  await h.close();
});

type Listing = { items: { name: string; isDir: boolean }[]; numDirs: number; numFiles: number; partial?: boolean };

async function listing(token: string, folder: string, query?: string): Promise<Listing> {
  const response = await h.api(token, 'GET', folder, query ? { query } : {});
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function sortAs(token: string, by: string, asc: boolean) {
  const me = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).user as { id: number };
  expect((await putUser(h.t, token, me.id, { which: ['sorting'], data: { sorting: { by, asc } } })).statusCode).toBe(200);
}

/** A folder of files and folders with varied names, sizes and times, links of every kind among them. */
function mixedFolder(folder: string) {
  const day = 86_400;
  for (let index = 0; index < 40; index++) {
    const name = [`file-${index}.txt`, `File ${index * 7}.md`, `${index}-notes`, `zeta_${40 - index}.bin`][index % 4]!;
    const file = h.put(`${folder}/${name}`, 'x'.repeat((index * 37) % 101));
    const time = 1_700_000_000 + ((index * 13) % 40) * day;
    fs.utimesSync(file, time, time);
  }
  for (const name of ['b-folder', 'A-folder', 'sub 10', 'sub 9', '.dotfolder']) h.mkdir(`${folder}/${name}`);
  h.put(`${folder}/.hidden.txt`, 'h');
  h.put(`${folder}/secret.key`, 'k');
  h.put('elsewhere/target.txt', 'target');
  fs.symlinkSync(h.real('elsewhere'), h.real(`${folder}/link-to-folder`));
  fs.symlinkSync(h.real('elsewhere/target.txt'), h.real(`${folder}/link-to-file`));
  fs.symlinkSync(h.real(`${folder}/gone`), h.real(`${folder}/dangling`));
  fs.symlinkSync('/etc', h.real(`${folder}/escaping`));
}

describe('GET /api/resources/{folder}?first=N', () => {
  it('answers the first N items in the order of the whole listing, counting all of them, for every sorting', async () => {
    mixedFolder('big');
    for (const by of ['name', 'size', 'modified']) {
      for (const asc of [false, true]) {
        await sortAs(h.admin, by, asc);
        const whole = await listing(h.admin, '/big/');
        expect(whole.partial).toBeUndefined();
        // Five folders and the folder link; 42 files, the file link and the dangling link (the
        // link leaving the scope is left out).
        expect([whole.numDirs, whole.numFiles]).toEqual([6, 44]);
        for (const first of [1, 4, 7, 30, 49]) {
          const head = await listing(h.admin, '/big/', `first=${first}`);
          expect({ by, asc, first, items: head.items }).toEqual({ by, asc, first, items: whole.items.slice(0, first) });
          expect(head).toMatchObject({ numDirs: whole.numDirs, numFiles: whole.numFiles, partial: true });
        }
      }
    }
  });

  it('answers the whole folder, not marked partial, when it holds no more than N', async () => {
    mixedFolder('big');
    const whole = await listing(h.admin, '/big/');
    const count = whole.numDirs + whole.numFiles;
    for (const first of [count, count + 1, 10_000]) expect(await listing(h.admin, '/big/', `first=${first}`)).toEqual(whole);
  });

  it('leaves out and does not count what the rules or hidden dotfiles hide', async () => {
    mixedFolder('big');
    const deny = (rule: string) => ({ regex: false, allow: false, path: rule, regexp: { raw: '' } });
    const denyRegex = (raw: string) => ({ regex: true, allow: false, path: '', regexp: { raw } });
    // The link to a folder lands on a denied place: it is left out as its target would be.
    const token = await h.user('ruled', { hideDotfiles: true, rules: [deny('/big/sub 9'), denyRegex('\\.key$'), deny('/elsewhere')] });
    const whole = await listing(token, '/big/');
    const names = whole.items.map((item) => item.name);
    for (const hidden of ['.dotfolder', '.hidden.txt', 'sub 9', 'secret.key', 'link-to-folder', 'link-to-file', 'escaping']) expect(names).not.toContain(hidden);
    expect([whole.numDirs, whole.numFiles]).toEqual([3, 41]);
    for (const first of [1, 3, 10]) {
      const head = await listing(token, '/big/', `first=${first}`);
      expect(head.items).toEqual(whole.items.slice(0, first));
      expect(head).toMatchObject({ numDirs: 3, numFiles: 41, partial: true });
    }
  });

  it('takes the first items of a folder big enough for the stat workers', async () => {
    const folder = h.mkdir('huge');
    for (let index = 0; index < 3000; index++) fs.writeFileSync(path.join(folder, `n${(index * 7919) % 3000}.txt`), '');
    for (let index = 0; index < 30; index++) fs.mkdirSync(path.join(folder, `dir ${index}`));
    const whole = await listing(h.admin, '/huge/');
    const head = await listing(h.admin, '/huge/', 'first=100');
    expect(head.items).toEqual(whole.items.slice(0, 100));
    expect(head.items[29]!.name).toBe('dir 29');
    expect(head.items[30]!.name).toBe('n0.txt');
    expect(head).toMatchObject({ numDirs: 30, numFiles: 3000, partial: true });
  });

  it('refuses a first that is not a whole number from 1 to 10000, and a file ignores it', async () => {
    mixedFolder('big');
    for (const value of ['0', '-1', '1.5', 'abc', '10001', '1e3', '0x10', '%20']) {
      const response = await h.api(h.admin, 'GET', '/big/', { query: `first=${value}` });
      expect({ value, status: response.statusCode, body: response.body }).toEqual({ value, status: 400, body: '400 Bad Request (first must be a whole number from 1 to 10000)\n' });
    }
    const file = await h.api(h.admin, 'GET', '/big/file-0.txt', { query: 'first=1' });
    expect(file.statusCode).toBe(200);
    expect(file.json()).toMatchObject({ name: 'file-0.txt', isDir: false });
  });
});
