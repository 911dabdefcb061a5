import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scope } from '../../storage/scoped-fs.js';
import { detectType, subtitlesOf } from './file-types.js';
import { isBinarySample, sniffMimeType } from './content-sniff.js';
import { FIXTURES } from './files.test-support.js';

let root: string;
let outside: string;
beforeAll(() => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-types-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  for (const name of fs.readdirSync(path.join(FIXTURES, 'media'))) fs.copyFileSync(path.join(FIXTURES, 'media', name), path.join(root, name));
});
afterAll(() => {
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
});

function scopeOf(options: Partial<ConstructorParameters<typeof Scope>[0]> = {}) {
  return new Scope({ root, globalRules: [], userRules: [], hideDotfiles: false, followExternalSymlinks: false, caseInsensitive: false, ...options });
}

async function typeOf(name: string, sniff = true) {
  const real = path.join(root, name);
  return detectType(name, real, fs.statSync(real, { bigint: true }), { sniff });
}

describe('detectType', () => {
  it('types the media fixtures by extension', async () => {
    const expected: Record<string, string> = {
      'anim.gif': 'image',
      'clip.mp4': 'video',
      'clip.webm': 'video',
      'clip.vtt': 'text',
      'clip.en.srt': 'text',
      'doc.pdf': 'pdf',
      'fractal.png': 'image',
      'photo.jpg': 'image',
      'scan.tiff': 'image',
      'still.webp': 'image',
      'tone.mp3': 'audio',
      'tone.ogg': 'audio',
      'tone.wav': 'audio',
    };
    for (const [name, type] of Object.entries(expected)) expect([name, await typeOf(name)]).toEqual([name, type]);
  });

  it('sniffs content when the extension says nothing', async () => {
    const cases: Array<[string, string | Buffer, string]> = [
      ['png-renamed', fs.readFileSync(path.join(root, 'fractal.png')), 'image'],
      ['pdf-renamed', fs.readFileSync(path.join(root, 'doc.pdf')), 'pdf'],
      ['mp4-renamed', fs.readFileSync(path.join(root, 'clip.mp4')), 'video'],
      ['webm-renamed', fs.readFileSync(path.join(root, 'clip.webm')), 'video'],
      ['wav-renamed', fs.readFileSync(path.join(root, 'tone.wav')), 'audio'],
      ['Makefile', 'all:\n\techo hi\n', 'text'],
      ['utf8-text', 'héllo wörld ✓\n', 'text'],
      ['utf16-bom', Buffer.from('\ufeffhi', 'utf16le'), 'text'],
      ['zeros', Buffer.alloc(100), 'blob'],
      ['control', Buffer.from([0x41, 0x07, 0x42]), 'blob'],
      ['empty', '', 'text'],
      ['random.dat', Buffer.from([0xc3, 0x28, 0x41, 0x00]), 'blob'],
      ['settings.json', '{"a": [1, 2]}', 'text'],
      ['binary.json', Buffer.from([0x7b, 0x00, 0x01]), 'blob'],
      ['fake.zip', 'just text in a zip name', 'text'],
      ['real.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00]), 'blob'],
      // A text MIME type wins over binary content, as upstream.
      ['weird.txt', Buffer.from([0, 1, 2]), 'text'],
    ];
    for (const [name, content] of cases) fs.writeFileSync(path.join(root, name), content);
    for (const [name, , type] of cases) expect([name, await typeOf(name)]).toEqual([name, type]);
  });

  it('without sniffing, types from the extension and size alone', async () => {
    fs.writeFileSync(path.join(root, 'unsniffed'), Buffer.alloc(10));
    fs.writeFileSync(path.join(root, 'unsniffed.bin'), Buffer.alloc(10));
    fs.writeFileSync(path.join(root, 'unsniffed.json'), Buffer.alloc(10));
    expect(await typeOf('unsniffed', false)).toBe('text');
    expect(await typeOf('unsniffed.bin', false)).toBe('blob');
    expect(await typeOf('unsniffed.json', false)).toBe('text');
    expect(await typeOf('unsniffed', true)).toBe('blob');
  });

  it('makes files over 10 MiB blob unless the extension says media', async () => {
    const big = path.join(root, 'big.txt');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 10 * 1024 * 1024 + 1);
    expect(await typeOf('big.txt')).toBe('blob');
    const limit = path.join(root, 'limit.txt');
    fs.writeFileSync(limit, '');
    fs.truncateSync(limit, 10 * 1024 * 1024);
    expect(await typeOf('limit.txt')).toBe('text');
    const movie = path.join(root, 'long.mkv');
    fs.writeFileSync(movie, '');
    fs.truncateSync(movie, 11 * 1024 * 1024);
    expect(await typeOf('long.mkv')).toBe('video');
  });

  it('types a named pipe blob without opening it', async () => {
    const fifo = path.join(root, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    // Opening a pipe with no writer would block: finishing at all proves it was never opened.
    expect(await typeOf('pipe.txt')).toBe('blob');
    fs.unlinkSync(fifo);
  });
});

describe('isBinarySample', () => {
  it('follows the control-character and UTF-8 rules', () => {
    expect(isBinarySample(Buffer.alloc(0))).toBe(false);
    expect(isBinarySample(Buffer.from('plain\ttext\r\n'))).toBe(false);
    expect(isBinarySample(Buffer.from([0x1b, 0x5b, 0x6d]))).toBe(false); // ESC is above 8
    expect(isBinarySample(Buffer.from([0x08]))).toBe(true);
    expect(isBinarySample(Buffer.from([0x61, 0xff, 0x61]))).toBe(true);
    expect(isBinarySample(Buffer.from([0xc0, 0x80]))).toBe(true); // overlong
    expect(isBinarySample(Buffer.from([0xed, 0xa0, 0x80]))).toBe(true); // surrogate
    const euro = Buffer.from('€'); // e2 82 ac
    expect(isBinarySample(Buffer.concat([Buffer.from('price '), euro.subarray(0, 2)]))).toBe(false); // cut at the end
    expect(isBinarySample(Buffer.concat([euro.subarray(0, 2), Buffer.from('x')]))).toBe(true); // cut in the middle
  });
});

describe('sniffMimeType', () => {
  it('recognises signatures and falls back to text or octet-stream', () => {
    expect(sniffMimeType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMimeType(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffMimeType(Buffer.from('ID3\x03'))).toBe('audio/mpeg');
    expect(sniffMimeType(Buffer.from('hello'))).toMatch(/^text\/plain/);
    expect(sniffMimeType(Buffer.from([0x00, 0x10]))).toBe('application/octet-stream');
  });
});

describe('subtitlesOf', () => {
  it('finds siblings, subs/subtitles folders and base-prefixed folders, honouring rules', async () => {
    const dir = path.join(root, 'show');
    fs.mkdirSync(path.join(dir, 'subs'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'SUBTITLES'));
    fs.mkdirSync(path.join(dir, 'ep1.extras'));
    fs.mkdirSync(path.join(dir, 'other'));
    for (const file of ['ep1.mkv', 'ep1.en.VTT', 'ep1.fr.srt', 'ep1.txt', 'ep2.srt', 'subs/any.ass', 'subs/readme.md', 'SUBTITLES/x.ssa', 'ep1.extras/d.vtt', 'other/ep1.vtt', 'ep1.secret.srt']) {
      fs.writeFileSync(path.join(dir, file), '');
    }
    fs.symlinkSync(path.join(outside), path.join(dir, 'ep1.escape'));
    fs.writeFileSync(path.join(outside, 'leak.vtt'), '');
    const scope = scopeOf({ userRules: [{ regex: true, allow: false, path: '', regexp: { raw: 'secret' } }] });
    expect(await subtitlesOf(scope, '/show/ep1.mkv')).toEqual([
      '/show/SUBTITLES/x.ssa',
      '/show/ep1.en.VTT',
      '/show/ep1.extras/d.vtt',
      '/show/ep1.fr.srt',
      '/show/subs/any.ass',
    ]);
    expect(await subtitlesOf(scope, '/show/none.mkv')).toEqual(['/show/SUBTITLES/x.ssa', '/show/subs/any.ass']);
  });
});
