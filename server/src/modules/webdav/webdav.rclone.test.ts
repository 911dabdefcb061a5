import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDavHarness, passwordOf, requireTool, type DavHarness } from './webdav.test-support.js';

const run = promisify(execFile);

let h: DavHarness;
let port: number;
let work: string;
beforeAll(async () => {
  h = await createDavHarness();
  await h.user('sync', { scope: '/sync-home' });
  port = await h.listen();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-rclone-'));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** sha256 of every file below `root`, by relative path. */
function checksums(root: string): Map<string, string> {
  const sums = new Map<string, string>();
  const walk = (folder: string) => {
    for (const dirent of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, dirent.name);
      if (dirent.isDirectory()) walk(full);
      else sums.set(path.relative(root, full), crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
    }
  };
  walk(root);
  return sums;
}

describe('rclone', () => {
  it('copies a tree of 1,000 small files up to /dav/ and back unchanged', async () => {
    const rclone = requireTool('rclone', 'rclone');
    const source = path.join(work, 'source');
    for (let index = 0; index < 1000; index++) {
      // Ten folders, two levels, names with spaces and non-ASCII letters, sizes from 0 bytes.
      const file = path.join(source, `dir ${index % 10}`, `sub-${index % 3}`, `file ${index} é.bin`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, crypto.randomBytes(index % 4096));
    }
    // No configuration file: the remote is given on the command line, its config kept out of $HOME.
    const env = { ...process.env, RCLONE_CONFIG: path.join(work, 'rclone.conf'), HOME: work };
    const obscured = (await run(rclone, ['obscure', passwordOf('sync')], { env })).stdout.trim();
    const remote = [`--webdav-url=http://127.0.0.1:${port}/dav/`, '--webdav-vendor=other', '--webdav-user=sync', `--webdav-pass=${obscured}`];
    const common = ['--transfers=8', '--checkers=8', '--retries=1', '--low-level-retries=1', '--stats=0'];

    await run(rclone, ['copy', source, ':webdav:tree', ...remote, ...common], { env, maxBuffer: 16 * 1024 * 1024 });

    const stored = checksums(path.join(h.t.root, 'sync-home', 'tree'));
    const expected = checksums(source);
    expect(stored.size).toBe(1000);
    expect(stored).toEqual(expected);

    const back = path.join(work, 'back');
    await run(rclone, ['copy', ':webdav:tree', back, ...remote, ...common], { env, maxBuffer: 16 * 1024 * 1024 });
    expect(checksums(back)).toEqual(expected);

    // A second run finds nothing to do: sizes and times listed over WebDAV match.
    const again = await run(rclone, ['copy', source, ':webdav:tree', ...remote, ...common, '-v'], { env, maxBuffer: 16 * 1024 * 1024 });
    expect(again.stderr).not.toMatch(/Copied \(new\)|Copied \(replaced/);
  }, 240_000);
});
