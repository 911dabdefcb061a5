import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { placeFile } from './place-file.js';

let dirs: string[] = [];
const temp = (base = os.tmpdir()) => {
  const dir = fs.mkdtempSync(path.join(base, 'burrow-place-'));
  dirs.push(dir);
  return dir;
};

beforeEach(() => {
  dirs = [];
});
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('placeFile', () => {
  it('renames over an existing target with override', async () => {
    const dir = temp();
    fs.writeFileSync(path.join(dir, 'staged'), 'new');
    fs.writeFileSync(path.join(dir, 'target'), 'old');
    await placeFile(path.join(dir, 'staged'), path.join(dir, 'target'), true);
    expect(fs.readFileSync(path.join(dir, 'target'), 'utf8')).toBe('new');
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  it('never clobbers without override: 409 and the newcomer stays', async () => {
    const dir = temp();
    fs.writeFileSync(path.join(dir, 'staged'), 'new');
    fs.writeFileSync(path.join(dir, 'target'), 'theirs');
    await expect(placeFile(path.join(dir, 'staged'), path.join(dir, 'target'), false)).rejects.toSatisfy((error) => (error as AppError).status === 409);
    expect(fs.readFileSync(path.join(dir, 'target'), 'utf8')).toBe('theirs');
    await placeFile(path.join(dir, 'staged'), path.join(dir, 'fresh'), false);
    expect(fs.readFileSync(path.join(dir, 'fresh'), 'utf8')).toBe('new');
    expect(fs.existsSync(path.join(dir, 'staged'))).toBe(false);
  });

  it('replaces a link at the target instead of writing through it', async () => {
    const dir = temp();
    const victim = path.join(temp(), 'victim');
    fs.writeFileSync(victim, 'precious');
    fs.writeFileSync(path.join(dir, 'staged'), 'new');
    fs.symlinkSync(victim, path.join(dir, 'target'));
    await placeFile(path.join(dir, 'staged'), path.join(dir, 'target'), true);
    expect(fs.lstatSync(path.join(dir, 'target')).isFile()).toBe(true);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('refuses a staging entry that is a link', async () => {
    const dir = temp();
    fs.writeFileSync(path.join(dir, 'elsewhere'), 'x');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'staged'));
    await expect(placeFile(path.join(dir, 'staged'), path.join(dir, 'target'), true)).rejects.toThrow();
    expect(fs.existsSync(path.join(dir, 'target'))).toBe(false);
  });

  // /dev/shm is a tmpfs on Linux, a different filesystem from the temporary folder.
  const crossDevice = fs.existsSync('/dev/shm') && fs.statSync('/dev/shm').dev !== fs.statSync(os.tmpdir()).dev;
  it.runIf(crossDevice)('copies across filesystems through a hidden temporary file, leaving nothing behind', async () => {
    const staging = temp('/dev/shm');
    const target = temp();
    const data = Buffer.alloc(3 * 1024 * 1024, 9);
    fs.writeFileSync(path.join(staging, 'staged'), data);
    fs.writeFileSync(path.join(target, 'file'), 'old');
    await placeFile(path.join(staging, 'staged'), path.join(target, 'file'), true);
    expect(fs.readFileSync(path.join(target, 'file')).equals(data)).toBe(true);
    expect(fs.readdirSync(target)).toEqual(['file']);
    expect(fs.readdirSync(staging)).toEqual([]);

    fs.writeFileSync(path.join(staging, 'staged'), 'second');
    await expect(placeFile(path.join(staging, 'staged'), path.join(target, 'file'), false)).rejects.toSatisfy((error) => (error as AppError).status === 409);
    expect(fs.readdirSync(target)).toEqual(['file']);
    expect(fs.readFileSync(path.join(target, 'file')).equals(data)).toBe(true);
  });
});
