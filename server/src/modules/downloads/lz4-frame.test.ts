import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BLOCK_SIZE, frameHeader, Lz4FrameStream, xxh32Short } from './lz4-frame.js';

/** Streams `parts` through a frame stream and returns the frame. */
async function frameOf(parts: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(parts),
    new Lz4FrameStream(),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out);
}

const digest = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** What the `lz4` tool decodes from `frame` (it checks the header checksum and every block). */
function decoded(frame: Buffer): Buffer {
  const result = spawnSync('lz4', ['-dc'], { input: frame, maxBuffer: 64 * 1024 * 1024 });
  expect(result.status, result.stderr.toString()).toBe(0);
  return result.stdout;
}

describe('LZ4 frames', () => {
  it('computes xxHash32 like the reference vectors', () => {
    expect(xxh32Short(Buffer.alloc(0))).toBe(0x02cc5d05);
    expect(xxh32Short(Buffer.from('a'))).toBe(0x550d7456);
    expect(xxh32Short(Buffer.from('abc'))).toBe(0x32d153ff);
    expect(frameHeader().subarray(0, 4)).toEqual(Buffer.from([0x04, 0x22, 0x4d, 0x18]));
  });

  it('round-trips through the lz4 tool: empty, small, compressible and incompressible data over several blocks', async () => {
    expect(decoded(await frameOf([])).length).toBe(0);
    expect(decoded(await frameOf([Buffer.from('hello')]))).toEqual(Buffer.from('hello'));
    const random = crypto.randomBytes(BLOCK_SIZE + 12345);
    const text = Buffer.from('burrow '.repeat(400_000));
    const parts = [random.subarray(0, 1000), random.subarray(1000), text, Buffer.alloc(3 * BLOCK_SIZE, 7)];
    const frame = await frameOf(parts);
    // Compared by digest: a deep comparison of megabytes byte by byte takes minutes.
    expect(digest(decoded(frame))).toBe(digest(Buffer.concat(parts)));
    // Repetitive blocks shrink; the random one is stored, so the frame is not much larger than it.
    expect(frame.length).toBeLessThan(random.length + text.length / 10 + BLOCK_SIZE / 10);
  });

  it('keeps at most a few blocks in memory while a large input streams through', async () => {
    let produced = 0;
    const total = 96 * BLOCK_SIZE;
    const chunk = Buffer.concat([crypto.randomBytes(32 * 1024), Buffer.alloc(32 * 1024, 1)]);
    let peak = 0;
    let written = 0;
    const before = process.memoryUsage().rss;
    await pipeline(
      new Readable({
        read() {
          if (produced >= total) return void this.push(null);
          produced += chunk.length;
          this.push(Buffer.from(chunk));
        },
      }),
      new Lz4FrameStream(),
      new Writable({
        write(data: Buffer, _encoding, done) {
          written += data.length;
          peak = Math.max(peak, process.memoryUsage().rss);
          done();
        },
      }),
    );
    expect(written).toBeGreaterThan(total / 2);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  });
});
