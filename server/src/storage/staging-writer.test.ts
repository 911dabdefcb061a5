import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectAlignment, DirectStageBytes, openDirect } from './direct-io.js';
import { OverLengthError, StagingWriter, type StagingWriterOptions } from './staging-writer.js';
import { NO_FAST_PATHS_ENV } from './libc.js';

/** The C library fast paths are there to test: on Linux, unless the environment switch turns them off. */
const fastPaths = process.platform === 'linux' && process.env[NO_FAST_PATHS_ENV] !== '1';

const MiB = 1024 * 1024;
let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-staging-writer-'));
  file = path.join(dir, 'staging.part');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `data` cut into pieces of an awkward size, as a socket might deliver it. */
function pieces(data: Buffer, size = 65_537): Buffer[] {
  const list: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += size) list.push(data.subarray(offset, offset + size));
  return list;
}

async function write(data: Buffer, start: number, options: StagingWriterOptions = {}, limit = Number.MAX_SAFE_INTEGER) {
  const handle = await fsp.open(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
  const writer = new StagingWriter(handle, start, limit, options);
  try {
    await pipeline(Readable.from(pieces(data)), writer);
    return { position: writer.position, directBytes: writer.directBytes };
  } catch (error) {
    return { error, position: writer.position, directBytes: writer.directBytes };
  } finally {
    await writer.settle();
    await handle.close();
  }
}

/** Whether this folder's filesystem takes direct writes at all (tmpfs before Linux 6.6 does not). */
async function directWritesWork(): Promise<boolean> {
  const probe = await fsp.open(path.join(dir, 'probe'), 'w');
  try {
    const direct = await openDirect(probe);
    await direct?.close();
    return direct !== null;
  } finally {
    await probe.close();
  }
}

describe('StagingWriter', () => {
  it('writes a large body exactly from an unaligned offset, most of it directly in aligned blocks', async () => {
    fs.writeFileSync(file, 'HEAD');
    const data = crypto.randomBytes(5 * MiB + 777);
    const result = await write(data, 4);
    expect(result.error).toBeUndefined();
    expect(result.position).toBe(4 + data.length);
    const written = fs.readFileSync(file);
    expect(written.subarray(0, 4).toString()).toBe('HEAD');
    expect(written.subarray(4).equals(data)).toBe(true);
    if (fastPaths && (await directWritesWork())) {
      // Only the bytes up to the first aligned offset and the partial last block went through the page cache.
      expect(result.directBytes % DirectAlignment).toBe(0);
      expect(result.directBytes).toBeGreaterThan(data.length - 2 * DirectAlignment);
    }
  });

  it('continues a body another writer left at an odd size', async () => {
    const data = crypto.randomBytes(3 * DirectStageBytes + 12_345);
    const cut = DirectStageBytes + 5;
    expect((await write(data.subarray(0, cut), 0)).position).toBe(cut);
    expect((await write(data.subarray(cut), cut)).position).toBe(data.length);
    expect(fs.readFileSync(file).equals(data)).toBe(true);
  });

  it('writes the same bytes through the page cache when direct writes are off or the body is small', async () => {
    const data = crypto.randomBytes(3 * MiB + 1);
    const off = await write(data, 0, { direct: false });
    expect(off).toEqual({ position: data.length, directBytes: 0 });
    expect(fs.readFileSync(file).equals(data)).toBe(true);

    fs.rmSync(file);
    const small = crypto.randomBytes(100_000);
    expect(await write(small, 0, { expectedBytes: small.length })).toEqual({ position: small.length, directBytes: 0 });
    expect(fs.readFileSync(file).equals(small)).toBe(true);
  });

  it('refuses a body longer than its limit, leaving nothing on disk past the limit', async () => {
    const limit = 2 * MiB + 100;
    const result = await write(crypto.randomBytes(3 * MiB), 0, {}, limit);
    expect(result.error).toBeInstanceOf(OverLengthError);
    expect(result.position).toBeLessThanOrEqual(limit);
    expect(fs.statSync(file).size).toBe(result.position);
  });

  it('reports as written only what reached the file when the body fails half-way', async () => {
    const data = crypto.randomBytes(4 * MiB);
    const handle = await fsp.open(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    const writer = new StagingWriter(handle, 0, Number.MAX_SAFE_INTEGER);
    async function* failing() {
      yield* pieces(data.subarray(0, 3 * MiB));
      throw new Error('connection reset');
    }
    await expect(pipeline(failing(), writer)).rejects.toThrow('connection reset');
    await writer.settle();
    await handle.close();
    const size = fs.statSync(file).size;
    expect(writer.position).toBe(size);
    expect(fs.readFileSync(file).equals(data.subarray(0, size))).toBe(true);
  });
});
