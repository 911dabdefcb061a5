import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipWriter } from './zip-writer.js';

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-zip-'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function build(fill: (zip: ZipWriter) => Promise<void>): Promise<string> {
  const zip = new ZipWriter();
  const chunks: Buffer[] = [];
  zip.output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => zip.output.on('end', resolve));
  await fill(zip);
  await ended;
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, Buffer.concat(chunks));
  return file;
}

async function* pieces(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

const unzip = (...args: string[]) => execFileSync('unzip', args, { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).toString();

describe('ZipWriter', () => {
  it('writes stored and deflated files, folders, modes, times and UTF-8 names that unzip accepts', async () => {
    const mtime = new Date('2024-05-06T07:08:10Z');
    const file = await build(async (zip) => {
      await zip.addDirectory({ name: 'docs', mtime, mode: 0o750 });
      await zip.addFile({ name: 'docs/notes.txt', mtime, mode: 0o640 }, pieces('hello ', 'zip '.repeat(1000)), 4006);
      await zip.addFile({ name: 'docs/日本語 name.bin', mtime, mode: 0o600, store: true }, pieces(Buffer.from([0, 1, 2, 3])), 4);
      await zip.addFile({ name: 'empty.txt', mtime, mode: 0o644 }, pieces(), 0);
      await zip.finish();
    });
    expect(unzip('-t', file)).toContain('No errors detected');
    expect(unzip('-p', file, 'docs/notes.txt')).toBe('hello ' + 'zip '.repeat(1000));
    const info = execFileSync('zipinfo', ['-l', file]).toString();
    expect(info).toMatch(/drwxr-x---.*docs\//);
    expect(info).toMatch(/-rw-r-----.*defN.*docs\/notes\.txt/);
    expect(info).toMatch(/-rw-------.*stor.*docs\/日本語 name\.bin/);
    const extracted = path.join(scratch, 'out');
    execFileSync('unzip', ['-q', '-o', file, '-d', extracted]);
    expect(fs.statSync(path.join(extracted, 'docs/notes.txt')).mtime.toISOString()).toBe(mtime.toISOString());
    expect(fs.readFileSync(path.join(extracted, 'docs/日本語 name.bin'))).toEqual(Buffer.from([0, 1, 2, 3]));
  });

  it('switches to ZIP64 for more than 65,535 entries', async () => {
    const mtime = new Date();
    const count = 65_600;
    const file = await build(async (zip) => {
      for (let index = 0; index < count; index++) await zip.addFile({ name: `f${index}`, mtime, mode: 0o644, store: true }, pieces(String(index)), String(index).length);
      await zip.finish();
    });
    expect(unzip('-tq', file)).toContain('No errors detected');
    expect(unzip('-Z1', file).split('\n').filter(Boolean)).toHaveLength(count);
    expect(unzip('-p', file, 'f65599')).toBe('65599');
  }, 120_000);

  it('writes ZIP64 sizes for entries announced at 4 GiB or more', async () => {
    const file = await build(async (zip) => {
      await zip.addFile({ name: 'big.bin', mtime: new Date(), mode: 0o644 }, pieces('pretend this is large'), 5 * 1024 ** 3);
      await zip.addFile({ name: 'small.txt', mtime: new Date(), mode: 0o644 }, pieces('small'), 5);
      await zip.finish();
    });
    expect(unzip('-t', file)).toContain('No errors detected');
    expect(unzip('-p', file, 'big.bin')).toBe('pretend this is large');
    expect(unzip('-p', file, 'small.txt')).toBe('small');
  });

  it('stops with an error once its output is destroyed', async () => {
    const zip = new ZipWriter();
    zip.output.destroy();
    await expect(zip.addFile({ name: 'x', mtime: new Date(), mode: 0o644 }, pieces('x'), 1)).rejects.toThrow();
  });
});
