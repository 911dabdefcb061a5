import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OverLengthError, StagingWriter } from '../../storage/staging-writer.js';
import { drainBody, receiveBody } from './body-writer.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-body-'));
  file = path.join(dir, 'staging.part');
  fs.writeFileSync(file, 'HEAD');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function receive(source: Readable, start: number, limit: number) {
  const handle = await fsp.open(file, 'r+');
  const writer = new StagingWriter(handle, start, limit);
  try {
    const outcome = await receiveBody(source, writer);
    return { outcome, position: writer.position };
  } catch (error) {
    return { error, position: writer.position };
  } finally {
    await handle.close();
  }
}

describe('receiveBody', () => {
  it('writes the body at the offset, in order', async () => {
    const chunks = Array.from({ length: 50 }, (_, index) => Buffer.alloc(10_000, index));
    const result = await receive(Readable.from(chunks), 4, 4 + 500_000);
    expect(result).toEqual({ outcome: 'complete', position: 500_004 });
    const written = fs.readFileSync(file);
    expect(written.subarray(0, 4).toString()).toBe('HEAD');
    expect(written.subarray(4).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('never writes past the limit and reports over-length', async () => {
    const result = await receive(Readable.from([Buffer.alloc(6, 1), Buffer.alloc(6, 2)]), 4, 14);
    expect(result.error).toBeInstanceOf(OverLengthError);
    expect(fs.statSync(file).size).toBeLessThanOrEqual(14);
    expect(result.position).toBeLessThanOrEqual(14);
  });

  it('keeps what arrived when the sender goes away', async () => {
    const source = new PassThrough();
    const pending = receive(source, 4, 1_000_000);
    source.write(Buffer.alloc(3000, 7));
    await new Promise((resolve) => setTimeout(resolve, 30));
    source.destroy(new Error('aborted'));
    const result = await pending;
    expect(result).toEqual({ outcome: 'aborted', position: 3004 });
    expect(fs.statSync(file).size).toBe(3004);
  });

  it('leaves the source readable after a writer error so it can be drained', async () => {
    const source = new PassThrough();
    const pending = receive(source, 4, 10);
    source.write(Buffer.alloc(20));
    const result = await pending;
    expect(result.error).toBeInstanceOf(OverLengthError);
    source.end(Buffer.alloc(100));
    expect(await drainBody(source, 1000)).toBe(true);
  });
});

describe('drainBody', () => {
  it('reads the rest of a body up to the cap', async () => {
    expect(await drainBody(Readable.from([Buffer.alloc(100), Buffer.alloc(100)]), 1000)).toBe(true);
    expect(await drainBody(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).toBe(false);
  });
});
