/**
 * What is refused or neutralised in archives and uploads, one attack per test:
 *
 * Archives (zip, tar and every compressed tar):
 * - names that a Windows extractor reads as something else: `\` separators, `:` drives and
 *   streams, device names (`CON`, `nul.txt`, `COM1`...), trailing dots and spaces (`.. `);
 * - two names that the rewriting would make equal, so that one overwrites the other;
 * - a tree deep enough to cost quadratic time or pass PATH_MAX (see archive-entries.test.ts).
 *
 * Uploads:
 * - names that used to be reserved for staging files: a user creates, uploads and lists them;
 * - staging files beside a target: bytes in flight live in the server's own folder, or beside the
 *   target under a name no user can create or see;
 * - an `Upload-Length` larger than the target's free space: 413 at creation, nothing staged;
 * - a tus creation without `Upload-Length`: accepted as deferred, and the file appears only when
 *   the length is known and reached.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { writeFile } from './test-fixtures.js';

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterEach(async () => {
  await t.close();
});

const run = (command: string, args: string[], input?: Buffer): string =>
  execFileSync(command, args, { input, timeout: 60_000, maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] }).toString();

const decode = (command: string, body: Buffer): Buffer => execFileSync(command, ['-dc'], { input: body, maxBuffer: 64 * 1024 * 1024 });

/** The tar stream inside each tar format, decoded by its standard tool. */
const tarDecoders: Record<string, (body: Buffer) => Buffer> = {
  tar: (body) => body,
  targz: (body) => decode('gzip', body),
  tarbz2: (body) => decode('bzip2', body),
  tarxz: (body) => decode('xz', body),
  tarzst: (body) => decode('zstd', body),
  tarbr: (body) => zlib.brotliDecompressSync(body),
};

/** Entry names of an archive of `/api/raw{folder}` in `algo`, as `unzip -l` or `tar -tf` list them. */
async function listArchive(folder: string, algo: string): Promise<string[]> {
  const response = await t.request(token, { method: 'GET', url: `/api/raw${folder}?algo=${algo}` });
  expect(response.statusCode).toBe(200);
  if (algo === 'zip') {
    const file = path.join(t.outside, `listing-${Date.now()}.zip`);
    fs.writeFileSync(file, response.rawPayload);
    // `unzip -l`: size, date, time, then the name.
    return run('unzip', ['-l', file])
      .split('\n')
      .map((line) => /^\s*\d+\s+\S+\s+\S+\s+(.*)$/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined)
      .sort();
  }
  return run('tar', ['-tf', '-'], tarDecoders[algo]!(response.rawPayload)).split('\n').filter(Boolean).sort();
}

describe('archive entry names', () => {
  const hostile = [
    'C:',
    'c:evil.txt',
    'notes.txt:hidden-stream',
    'CON',
    'nul.txt',
    'Com1.log',
    'lpt9',
    'aux .txt',
    'dots...',
    'space ',
    '.. ',
    'dir.',
    '..\\..\\climb.txt',
  ];
  const neutralised = [
    'C_/',
    'c_evil.txt',
    'notes.txt_hidden-stream',
    '_CON',
    '_nul.txt',
    '_Com1.log',
    '_lpt9/',
    '_aux .txt',
    'dots___',
    'space_',
    '___',
    'dir_/',
    'dir_/inner.txt',
    '.._.._climb.txt',
  ];

  beforeEach(() => {
    for (const name of hostile) {
      if (name === 'C:' || name === 'lpt9') fs.mkdirSync(path.join(t.root, 'hostile', name), { recursive: true });
      else if (name === 'dir.') writeFile(t.root, `/hostile/${name}/inner.txt`, 'inner');
      else writeFile(t.root, `/hostile/${name}`, name);
    }
  });

  for (const algo of ['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarzst', 'tarbr']) {
    it(`${algo}: no drive, stream, device, trailing dot or space, or backslash survives`, async () => {
      const names = await listArchive('/hostile', algo);
      expect(names).toEqual([...neutralised].sort());
      for (const name of names) {
        for (const segment of name.replace(/\/$/, '').split('/')) {
          expect(segment).not.toMatch(/[\\:]|[. ]$/);
          expect(segment.split('.')[0]!.trimEnd()).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
        }
      }
    });
  }

  it('numbers a rewritten name that would meet a sibling, in zip and tar alike', async () => {
    writeFile(t.root, '/clash/a:b', 'colon');
    writeFile(t.root, '/clash/a_b', 'underscore');
    writeFile(t.root, '/clash/a\\b', 'backslash');
    writeFile(t.root, '/clash/report.', 'dot');
    writeFile(t.root, '/clash/report_', 'underscore');
    const expected = ['a_b', 'a_b(1)', 'a_b(2)', 'report_', 'report_(1)'];
    expect(await listArchive('/clash', 'zip')).toEqual(expected);
    expect(await listArchive('/clash', 'tar')).toEqual(expected);
    const response = await t.request(token, { method: 'GET', url: '/api/raw/clash?algo=tar' });
    // The names that were already safe keep their own content.
    expect(run('tar', ['-xOf', '-', 'a_b'], response.rawPayload)).toBe('underscore');
    expect(run('tar', ['-xOf', '-', 'report_'], response.rawPayload)).toBe('underscore');
  });

  it('makes the selected items of a files= archive unique too', async () => {
    writeFile(t.root, '/pick/x:/one.txt', '1');
    writeFile(t.root, '/pick/x_/two.txt', '2');
    const files = encodeURIComponent(['/x:', '/x_'].map((item) => encodeURIComponent(item)).join(','));
    const response = await t.request(token, { method: 'GET', url: `/api/raw/pick/?files=${files}&algo=tar` });
    expect(run('tar', ['-tf', '-'], response.rawPayload).split('\n').filter(Boolean).sort()).toEqual(['x_(1)/', 'x_(1)/one.txt', 'x_/', 'x_/two.txt']);
  });
});

describe('names that used to be reserved for staging files', () => {
  it('a user creates, uploads, lists and archives .burrow-upload-x like any other name', async () => {
    const created = await t.request(token, { method: 'POST', url: '/api/resources/plain/.burrow-upload-x', payload: 'mine', headers: { 'content-type': 'application/octet-stream' } });
    expect(created.statusCode).toBe(200);
    const tus = await t.request(token, { method: 'POST', url: '/api/tus/plain/.burrow-upload-tus', headers: { 'tus-resumable': '1.0.0', 'upload-length': '3' } });
    expect(tus.statusCode).toBe(201);
    const patched = await t.request(token, {
      method: 'PATCH',
      url: '/api/tus/plain/.burrow-upload-tus',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('tus'),
    });
    expect(patched.statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'plain/.burrow-upload-tus'), 'utf8')).toBe('tus');

    const listing = await t.request(token, { method: 'GET', url: '/api/resources/plain/' });
    expect(listing.json().items.map((item: { name: string }) => item.name).sort()).toEqual(['.burrow-upload-tus', '.burrow-upload-x']);
    expect(await listArchive('/plain', 'tar')).toEqual(['.burrow-upload-tus', '.burrow-upload-x']);
    const raw = await t.request(token, { method: 'GET', url: '/api/raw/plain/.burrow-upload-x' });
    expect(raw.body).toBe('mine');
  });
});

describe('tus creation', () => {
  const tusHeaders = { 'tus-resumable': '1.0.0' };

  it('refuses an Upload-Length past the free space of the target disk with 413, staging nothing', async () => {
    const stats = fs.statfsSync(t.root);
    const length = stats.bavail * stats.bsize + 1;
    const response = await t.request(token, { method: 'POST', url: '/api/tus/too-big.bin', headers: { ...tusHeaders, 'upload-length': String(length) } });
    // Past the largest length allowed the answer is 413 as well, before the disk is looked at.
    expect(response.statusCode).toBe(413);
    expect(fs.readdirSync(path.join(t.config.cacheDir, 'uploads'))).toEqual([]);
    expect(fs.existsSync(path.join(t.root, 'too-big.bin'))).toBe(false);
  });

  it('takes a creation without Upload-Length as deferred: nothing appears until the length is known and reached', async () => {
    const created = await t.request(token, { method: 'POST', url: '/api/tus/later.txt', headers: { ...tusHeaders, 'upload-defer-length': '1' } });
    expect(created.statusCode).toBe(201);
    const patch = (offset: number, body: string, headers: Record<string, string> = {}) =>
      t.request(token, {
        method: 'PATCH',
        url: '/api/tus/later.txt',
        headers: { ...tusHeaders, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers },
        payload: Buffer.from(body),
      });
    expect((await patch(0, 'half ')).statusCode).toBe(204);
    expect(fs.existsSync(path.join(t.root, 'later.txt'))).toBe(false);
    expect((await patch(5, 'done', { 'upload-length': '9' })).statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'later.txt'), 'utf8')).toBe('half done');
  });
});
