import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomically } from './atomic-write.js';

let dir: string;
let target: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-atomic-'));
  target = path.join(dir, 'target.bin');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

/** Deterministic bytes, in pieces the size an HTTP body arrives in. */
function* pieces(total: number, size = 64 * 1024): Generator<Buffer> {
  for (let offset = 0; offset < total; offset += size) {
    const piece = Buffer.alloc(Math.min(size, total - offset));
    for (let index = 0; index + 4 <= piece.length; index += 4) piece.writeUInt32LE((offset + index) >>> 0, index);
    yield piece;
  }
}

const digestOf = (chunks: Iterable<Buffer>) => {
  const hash = crypto.createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
};

const leftovers = () => fs.readdirSync(dir).filter((name) => name !== 'target.bin');

describe('writeAtomically', () => {
  it('writes a body of many batches exactly, in order, and reports its stat', async () => {
    const total = 21 * MiB + 123;
    const stat = await writeAtomically(target, Readable.from(pieces(total)), { fileMode: 0o640 });
    expect(stat.size).toBe(BigInt(total));
    expect(digestOf([fs.readFileSync(target)])).toBe(digestOf(pieces(total)));
    expect(fs.statSync(target).mode & 0o777).toBe(0o640 & ~process.umask());
    expect(leftovers()).toEqual([]);
  });

  it('takes strings and an empty body', async () => {
    async function* text() {
      yield 'héllo ';
      yield Buffer.from('wörld');
    }
    await writeAtomically(target, text(), { fileMode: 0o600 });
    expect(fs.readFileSync(target, 'utf8')).toBe('héllo wörld');
    await writeAtomically(target, Readable.from([]), { fileMode: 0o600 });
    expect(fs.statSync(target).size).toBe(0);
  });

  it('keeps the mode it is given when replacing a file', async () => {
    fs.writeFileSync(target, 'old');
    await writeAtomically(target, Readable.from([Buffer.from('new')]), { fileMode: 0o640, keepMode: 0o604 });
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.statSync(target).mode & 0o777).toBe(0o604);
  });

  it('leaves the old file and no staging file when the body fails part way', async () => {
    fs.writeFileSync(target, 'the old contents');
    async function* failing() {
      yield* pieces(9 * MiB);
      throw new Error('the client went away');
    }
    await expect(writeAtomically(target, failing(), { fileMode: 0o640 })).rejects.toThrow('the client went away');
    expect(fs.readFileSync(target, 'utf8')).toBe('the old contents');
    expect(leftovers()).toEqual([]);
  });

  it('leaves the old file when a request body is cut off', async () => {
    fs.writeFileSync(target, 'kept');
    const body = new Readable({ read() {} });
    const writing = writeAtomically(target, body, { fileMode: 0o640 });
    body.push(Buffer.alloc(5 * MiB, 1));
    setTimeout(() => body.destroy(new Error('aborted')), 20);
    await expect(writing).rejects.toThrow('aborted');
    expect(fs.readFileSync(target, 'utf8')).toBe('kept');
    expect(leftovers()).toEqual([]);
  });
});

describe('where writes are staged', () => {
  /** A body that stops after its first piece until `release` is called. */
  function pausedBody() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    async function* body() {
      yield Buffer.from('first ');
      started();
      await released;
      yield Buffer.from('second');
    }
    return { body: body(), running, release };
  }

  it("stages in the server's private folder, never beside the target, when both share a filesystem", async () => {
    const privateDir = path.join(dir, 'cache', 'uploads');
    fs.writeFileSync(target, 'old');
    const paused = pausedBody();
    const writing = writeAtomically(target, paused.body, { fileMode: 0o640, stagingDir: privateDir });
    await paused.running;
    expect(leftovers()).toEqual(['cache']);
    expect(fs.readdirSync(privateDir)).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.write$/)]);
    paused.release();
    await writing;
    expect(fs.readFileSync(target, 'utf8')).toBe('first second');
    expect(fs.readdirSync(privateDir)).toEqual([]);
  });

  const shm = '/dev/shm';
  const otherFilesystem = fs.existsSync(shm) && fs.statSync(shm).dev !== fs.statSync(os.tmpdir()).dev;
  it.runIf(otherFilesystem)('stages beside the target under a name no listing can show when the private folder is on another filesystem', async () => {
    const privateDir = fs.mkdtempSync(path.join(shm, 'burrow-staging-'));
    try {
      fs.writeFileSync(target, 'old');
      const paused = pausedBody();
      const writing = writeAtomically(target, paused.body, { fileMode: 0o640, stagingDir: privateDir });
      await paused.running;
      expect(fs.readdirSync(privateDir)).toEqual([]);
      // On disk the name starts with 0xFF, a byte no UTF-8 name (no name a user can send) has.
      const raw = fs.readdirSync(dir, { encoding: 'buffer' }).filter((name) => !name.equals(Buffer.from('target.bin')));
      expect(raw).toHaveLength(1);
      expect(raw[0]![0]).toBe(0xff);
      // Read as UTF-8 it comes back as U+FFFD, a different name that cannot be opened.
      const [shown] = leftovers();
      expect(shown!.startsWith('\uFFFD')).toBe(true);
      expect(fs.existsSync(path.join(dir, shown!))).toBe(false);
      paused.release();
      await writing;
      expect(fs.readFileSync(target, 'utf8')).toBe('first second');
      expect(leftovers()).toEqual([]);
    } finally {
      fs.rmSync(privateDir, { recursive: true, force: true });
    }
  });
});
