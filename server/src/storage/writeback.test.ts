import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWriteback } from './writeback.js';
import { NO_FAST_PATHS_ENV } from './libc.js';

/** The C library fast paths are there to test: on Linux, unless the environment switch turns them off. */
const fastPaths = process.platform === 'linux' && process.env[NO_FAST_PATHS_ENV] !== '1';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-writeback-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(fastPaths)('startWriteback', () => {
  it('starts writing a range of a file and leaves its bytes as they are', async () => {
    const writeback = startWriteback();
    expect(writeback).toBeTypeOf('function');
    const file = path.join(dir, 'data.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024, 0x5a);
    const fd = fs.openSync(file, 'w');
    try {
      fs.writeSync(fd, bytes);
      await writeback!(fd, 0, 2 * 1024 * 1024);
      await writeback!(fd, 2 * 1024 * 1024, 1024 * 1024);
    } finally {
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('rejects what is not an open file', async () => {
    await expect(startWriteback()!(-1, 0, 1)).rejects.toThrow('sync_file_range failed');
    await expect(startWriteback()!(0x7fffffff, 0, 1)).rejects.toThrow('sync_file_range failed');
  });
});
