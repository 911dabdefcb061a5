import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStatColumns, IS_DIR, IS_FILE, IS_PRESENT, IS_SYMLINK, splitNanoseconds, statEntries } from './entry-stats.js';
import { openForStatx } from './statx.js';
import { NO_FAST_PATHS_ENV } from '../../storage/libc.js';

/** The C library fast paths are there to test: on Linux, unless the environment switch turns them off. */
const fastPaths = process.platform === 'linux' && process.env[NO_FAST_PATHS_ENV] !== '1';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-stats-'));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('statEntries', () => {
  it('reports what lstat reports: type, mode, size past 4 GiB, times before 1970 and to the nanosecond', () => {
    fs.writeFileSync(path.join(folder, 'small.txt'), 'hello');
    fs.chmodSync(path.join(folder, 'small.txt'), 0o640);
    // Sparse: a size whose high 32 bits are set, without the disk space.
    const big = fs.openSync(path.join(folder, 'sparse.bin'), 'w');
    fs.ftruncateSync(big, 5 * 2 ** 32 + 12_345);
    fs.closeSync(big);
    fs.writeFileSync(path.join(folder, 'old.txt'), 'x');
    execFileSync('touch', ['-m', '-d', '1965-03-04 05:06:07.123456789', path.join(folder, 'old.txt')]);
    fs.writeFileSync(path.join(folder, 'precise.txt'), 'x');
    execFileSync('touch', ['-m', '-d', '2031-01-02 03:04:05.000000007', path.join(folder, 'precise.txt')]);
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.symlinkSync('small.txt', path.join(folder, 'link'));
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    const names = ['small.txt', 'sparse.bin', 'old.txt', 'precise.txt', 'sub', 'link', 'pipe', 'missing'];
    const columns = createStatColumns(names.length);
    statEntries(folder, names, columns, 0, names.length);
    names.forEach((name, index) => {
      if (name === 'missing') {
        expect(columns.flags[index]).toBe(0);
        return;
      }
      const stat = fs.lstatSync(path.join(folder, name), { bigint: true });
      const [seconds, nanos] = splitNanoseconds(stat.mtimeNs);
      expect({ name, mode: columns.modes[index], size: columns.sizes[index], seconds: columns.mtimeSeconds[index], nanos: columns.mtimeNanos[index] }).toEqual({
        name,
        mode: Number(stat.mode),
        size: Number(stat.size),
        seconds,
        nanos,
      });
      const expected = IS_PRESENT | (stat.isDirectory() ? IS_DIR : stat.isFile() ? IS_FILE : stat.isSymbolicLink() ? IS_SYMLINK : 0);
      expect([name, columns.flags[index]]).toEqual([name, expected]);
    });
    expect(columns.mtimeSeconds[2]).toBeLessThan(0);
    expect(columns.mtimeNanos[3]).toBe(7);
    expect(columns.sizes[1]).toBe(5 * 2 ** 32 + 12_345);
  });

  it('uses statx on Linux', () => {
    const fd = openForStatx(folder);
    if (fastPaths) expect(fd).toBeGreaterThanOrEqual(0);
    if (fd !== undefined) fs.closeSync(fd);
  });
});
