import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Decompressor as SnappyDecompressor } from 'snappy';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { writeFile } from './test-fixtures.js';

let t: TestApp;
let token: string;
let scratch: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-archives-'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});
beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterEach(async () => {
  await t.close();
});

const run = (command: string, args: string[], input?: Buffer): Buffer =>
  execFileSync(command, args, { input, timeout: 20_000, maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });

async function download(url: string, userToken = token): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const response = await t.request(userToken, { method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
}

function save(body: Buffer, name: string): string {
  const file = path.join(scratch, `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  fs.writeFileSync(file, body);
  return file;
}

/** Entry names of a tar stream, folders with their trailing slash, sorted. */
function tarList(tarBytes: Buffer): string[] {
  return run('tar', ['-tf', '-'], tarBytes).toString().split('\n').filter(Boolean).sort();
}

function tarRead(tarBytes: Buffer, member: string): string {
  return run('tar', ['-xOf', '-', member], tarBytes).toString();
}

async function snappyFramedDecode(body: Buffer): Promise<Buffer> {
  const decoder = new SnappyDecompressor();
  const head = decoder.update(body);
  return Buffer.concat([head, await decoder.finish()]);
}

function textLines(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const line = `line ${index} of a compressible file, value ${(index * 7919) % 10007}\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

function bigContent(): Buffer {
  // Several compression blocks' worth, partly incompressible, so chunked encoders emit many blocks.
  return Buffer.concat([crypto.randomBytes(2 * 1024 * 1024), textLines(6 * 1024 * 1024), crypto.randomBytes(1024 * 1024)]);
}

describe('folder archives in every format', () => {
  let big: Buffer;
  beforeEach(() => {
    big = bigContent();
    writeFile(t.root, '/docs/readme.txt', 'hello archive\n');
    writeFile(t.root, '/docs/sub/deep.txt', 'deep\n');
    writeFile(t.root, '/docs/big.bin', big);
    fs.mkdirSync(path.join(t.root, 'docs/empty'));
  });
  const expected = ['big.bin', 'empty/', 'readme.txt', 'sub/', 'sub/deep.txt'];

  it('zip: valid for unzip, contents at the root, named after the folder', async () => {
    const response = await download('/api/raw/docs/?algo=zip');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="docs.zip"; filename*=utf-8''docs.zip`);
    expect(response.headers['content-length']).toBeUndefined();
    const file = save(response.body, 'docs.zip');
    expect(run('unzip', ['-t', file]).toString()).toContain('No errors detected');
    expect(run('unzip', ['-Z1', file]).toString().split('\n').filter(Boolean).sort()).toEqual(expected);
    expect(run('unzip', ['-p', file, 'readme.txt']).toString()).toBe('hello archive\n');
    expect(run('unzip', ['-p', file, 'big.bin']).equals(big)).toBe(true);
    // `true` and no algo at all also mean zip.
    for (const url of ['/api/raw/docs/?algo=true', '/api/raw/docs']) {
      const again = await download(url);
      expect(again.headers['content-disposition']).toContain('docs.zip');
      expect(again.body.subarray(0, 4).toString('hex')).toBe('504b0304');
    }
  });

  it('tar: plain ustar stream', async () => {
    const response = await download('/api/raw/docs/?algo=tar');
    expect(response.headers['content-disposition']).toContain("filename*=utf-8''docs.tar");
    expect(tarList(response.body)).toEqual(expected);
    expect(tarRead(response.body, 'sub/deep.txt')).toBe('deep\n');
  });

  const compressed: [string, string, string, (file: string, body: Buffer) => Buffer][] = [
    ['targz', '.tar.gz', 'application/gzip', (file) => (run('gzip', ['-t', file]), run('gzip', ['-dc', file]))],
    ['tarbz2', '.tar.bz2', 'application/x-bzip2', (file) => (run('bzip2', ['-t', file]), run('bzip2', ['-dc', file]))],
    ['tarxz', '.tar.xz', 'application/x-xz', (file) => (run('xz', ['-t', file]), run('xz', ['-dc', file]))],
    ['tarlz4', '.tar.lz4', 'application/x-lz4', (file) => (run('lz4', ['-t', file]), run('lz4', ['-dc', file]))],
    ['tarzst', '.tar.zst', 'application/zstd', (file) => (run('zstd', ['-t', '-q', file]), run('zstd', ['-dc', '-q', file]))],
    ['tarbr', '.tar.br', 'application/x-brotli', (_file, body) => zlib.brotliDecompressSync(body)],
  ];
  for (const [algo, suffix, type, decode] of compressed) {
    it(`${algo}: verified by its standard decoder`, async () => {
      const response = await download(`/api/raw/docs/?algo=${algo}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['content-disposition']).toContain(`filename*=utf-8''docs${suffix}`);
      const tarBytes = decode(save(response.body, `docs${suffix}`), response.body);
      expect(tarList(tarBytes)).toEqual(expected);
      expect(tarRead(tarBytes, 'readme.txt')).toBe('hello archive\n');
      expect(run('tar', ['-xOf', '-', 'big.bin'], tarBytes).equals(big)).toBe(true);
      // The big file must have been compressed, not stored.
      expect(response.body.length).toBeLessThan(big.length);
    });
  }

  it('every compressed format carries, byte for byte, the tar stream of algo=tar', async () => {
    const plain = (await download('/api/raw/docs/?algo=tar')).body;
    for (const [algo, suffix, , decode] of compressed) {
      const response = await download(`/api/raw/docs/?algo=${algo}`);
      expect(decode(save(response.body, `same${suffix}`), response.body).equals(plain), algo).toBe(true);
    }
    // Six archives of 9 MiB one after the other, bzip2 and xz among them.
  }, 240_000);

  it('tarsz: Snappy framing format with its stream identifier, decoded by a framed decoder', async () => {
    const response = await download('/api/raw/docs/?algo=tarsz');
    expect(response.headers['content-disposition']).toContain("filename*=utf-8''docs.tar.sz");
    expect(response.body.subarray(0, 10).toString('hex')).toBe('ff060000734e61507059');
    const tarBytes = await snappyFramedDecode(response.body);
    expect(tarList(tarBytes)).toEqual(expected);
    expect(run('tar', ['-xOf', '-', 'big.bin'], tarBytes).equals(big)).toBe(true);
  });

  it('refuses an unknown format with 400 before sending anything', async () => {
    const response = await t.request(token, { method: 'GET', url: '/api/raw/docs/?algo=rar' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('unsupported archive format');
  });
});

describe('archive selections and names', () => {
  it('archives a files= selection relative to the common folder, with a _ prefix', async () => {
    writeFile(t.root, '/work/a.txt', 'a');
    writeFile(t.root, '/work/b/c.txt', 'c');
    writeFile(t.root, '/work/skip.txt', 's');
    const files = encodeURIComponent(['/a.txt', '/b'].map((item) => encodeURIComponent(item).replace(/%2F/g, '/')).join(','));
    const response = await download(`/api/raw/work/?files=${files}&algo=tar`);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toContain("filename*=utf-8''_work.tar");
    expect(tarList(response.body)).toEqual(['a.txt', 'b/', 'b/c.txt']);
  });

  it('uses the folder name for a single file, and the scope root name at the top', async () => {
    writeFile(t.root, '/work/only.txt', 'only');
    writeFile(t.root, '/top.txt', 'top');
    const single = await download(`/api/raw/work/?files=${encodeURIComponent('/only.txt')}&algo=tar`);
    expect(single.headers['content-disposition']).toContain("filename*=utf-8''work.tar");
    expect(tarList(single.body)).toEqual(['only.txt']);
    const root = await download(`/api/raw/?files=${encodeURIComponent('/top.txt,/work')}&algo=tar`);
    expect(root.headers['content-disposition']).toContain(`filename*=utf-8''_${path.basename(t.root)}.tar`);
    expect(tarList(root.body)).toEqual(['top.txt', 'work/', 'work/only.txt']);
  });

  it('decodes each files= element a second time, keeping a literal plus', async () => {
    writeFile(t.root, '/d/a+b c.txt', 'plus');
    writeFile(t.root, '/d/100%.txt', 'percent');
    const files = ['/a+b c.txt', '/100%.txt'].map((name) => encodeURIComponent(name)).join(',');
    const response = await download(`/api/raw/d/?files=${encodeURIComponent(files)}&algo=tar`);
    expect(tarList(response.body)).toEqual(['100%.txt', 'a+b c.txt']);
    expect((await download(`/api/raw/d/?files=${encodeURIComponent('%E0%A4%A')}`)).status).toBe(400);
  });

  it('answers 404 when nothing selected exists and 403 when the selection was denied', async () => {
    writeFile(t.root, '/d/private/x.txt', 'x');
    await makeUser(t, { username: 'ruled', rules: [{ regex: false, allow: false, path: '/d/private', regexp: { raw: '' } }] });
    const userToken = await loginAs(t, 'ruled');
    expect((await download(`/api/raw/d/?files=${encodeURIComponent('/nothing')}`)).status).toBe(404);
    expect((await download(`/api/raw/d/?files=${encodeURIComponent('/private')}`, userToken)).status).toBe(403);
    expect((await download(`/api/raw/d/?files=${encodeURIComponent('/../../..')}`, userToken)).status).toBe(200);
  });

  it('sanitises names that could climb out on extraction (zip-slip)', async () => {
    writeFile(t.root, '/evil/..\\..\\escape.txt', 'slip');
    writeFile(t.root, '/evil/dir\\name/x.txt', 'x');
    for (const algo of ['zip', 'tar']) {
      const response = await download(`/api/raw/evil/?algo=${algo}`);
      const names =
        algo === 'zip'
          ? run('unzip', ['-Z1', save(response.body, 'evil.zip')]).toString().split('\n').filter(Boolean).sort()
          : tarList(response.body);
      expect(names).toEqual(['.._.._escape.txt', 'dir_name/', 'dir_name/x.txt']);
      for (const name of names) {
        expect(name.startsWith('/')).toBe(false);
        expect(name.split('/')).not.toContain('..');
        expect(name).not.toContain('\\');
      }
    }
  });

  it('leaves out denied entries, hidden dotfiles, escaping links and unreadable files', async () => {
    writeFile(t.root, '/pack/keep.txt', 'keep');
    writeFile(t.root, '/pack/secret/s.txt', 'secret');
    writeFile(t.root, '/pack/notes.bak', 'bak');
    writeFile(t.root, '/pack/.hidden', 'dot');
    writeFile(t.root, '/pack/inner/i.txt', 'inner');
    fs.writeFileSync(path.join(t.outside, 'loot.txt'), 'loot');
    fs.symlinkSync(path.join(t.outside, 'loot.txt'), path.join(t.root, 'pack/loot-link.txt'));
    fs.symlinkSync(t.outside, path.join(t.root, 'pack/outside-dir'));
    fs.symlinkSync(path.join(t.root, 'pack/inner/i.txt'), path.join(t.root, 'pack/inside-link.txt'));
    fs.symlinkSync(path.join(t.root, 'pack'), path.join(t.root, 'pack/inner/loop'));
    execFileSync('mkfifo', [path.join(t.root, 'pack/fifo')]);
    const locked = writeFile(t.root, '/pack/locked.txt', 'locked');
    fs.chmodSync(locked, 0o000);
    const canReadLocked = (() => {
      try {
        fs.readFileSync(locked);
        return true;
      } catch {
        return false;
      }
    })();

    await makeUser(t, {
      username: 'viewer',
      hideDotfiles: true,
      rules: [
        { regex: false, allow: false, path: '/pack/secret', regexp: { raw: '' } },
        { regex: true, allow: false, path: '', regexp: { raw: '\\.bak$' } },
      ],
    });
    const viewer = await loginAs(t, 'viewer');
    const response = await download('/api/raw/pack/?algo=tar', viewer);
    expect(response.status).toBe(200);
    const names = tarList(response.body);
    // inner/loop points back at the folder being archived: recognised and left out, so the walk ends.
    const expectedNames = ['inner/', 'inner/i.txt', 'inside-link.txt', 'keep.txt'];
    expect(names.filter((name) => name !== 'locked.txt')).toEqual(expectedNames);
    expect(names.includes('locked.txt')).toBe(canReadLocked);
    expect(tarRead(response.body, 'inside-link.txt')).toBe('inner');
    expect(response.body.includes(Buffer.from('loot'))).toBe(false);
    expect(response.body.includes(Buffer.from('secret'))).toBe(false);
  });
});

describe('bzip2 encoders', () => {
  it('both the system tool and the child-process binding produce valid bzip2', async () => {
    const { createBzip2Stream } = await import('./bzip2-stream.js');
    const { pipeline } = await import('node:stream/promises');
    const { Readable, Writable } = await import('node:stream');
    const input = textLines(3 * 1024 * 1024 + 17);
    for (const encoder of ['system', 'node'] as const) {
      const chunks: Buffer[] = [];
      await pipeline(
        Readable.from([input.subarray(0, 1_500_000), input.subarray(1_500_000)]),
        createBzip2Stream(encoder, 1024 * 1024),
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      );
      const file = save(Buffer.concat(chunks), `${encoder}.bz2`);
      run('bzip2', ['-t', file]);
      expect(run('bzip2', ['-dc', file]).equals(input), encoder).toBe(true);
    }
  });
});

describe('zip storage choice', () => {
  it('stores random-looking and already-compressed files, deflates the rest, and all extract intact', async () => {
    const random = crypto.randomBytes(300 * 1024);
    const text = textLines(300 * 1024);
    writeFile(t.root, '/mix/noise.dat', random);
    writeFile(t.root, '/mix/notes.txt', text);
    writeFile(t.root, '/mix/photo.jpg', text);
    const response = await download('/api/raw/mix/?algo=zip');
    const file = save(response.body, 'mix.zip');
    const listing = run('unzip', ['-v', file]).toString();
    const method = (name: string) => new RegExp(`^\\s*\\d+\\s+(\\S+).*\\s${name.replace('.', '\\.')}$`, 'm').exec(listing)?.[1];
    expect(method('noise.dat')).toBe('Stored');
    expect(method('photo.jpg')).toBe('Stored');
    expect(method('notes.txt')).toMatch(/^Defl/);
    expect(run('unzip', ['-p', file, 'noise.dat']).equals(random)).toBe(true);
    expect(run('unzip', ['-p', file, 'notes.txt']).equals(text)).toBe(true);
  });
});
