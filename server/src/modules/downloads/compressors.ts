import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import bzip2 from 'node-bzip2';
import lzma from 'lzma-native';
import { compressFrame } from 'lz4-napi';
import { Compressor as SnappyCompressor } from 'snappy';
import { CompressStream as ZstdCompressStream } from 'zstd-napi';
import type { ArchiveFormat } from '@burrow/protocol';

/**
 * Collects input into blocks of a fixed size and compresses each block on its own. Every block
 * becomes a complete stream of the target format; bzip2 and LZ4 decoders read such concatenated
 * streams as one file. Memory stays at about two blocks whatever the input size, and the
 * compression itself runs off the event loop.
 */
export class BlockCompressor extends Transform {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(
    private readonly blockSize: number,
    private readonly compressBlock: (block: Buffer) => Promise<Buffer>,
  ) {
    super({ highWaterMark: 64 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.blockSize) {
      done();
      return;
    }
    this.emitBlock().then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    if (this.buffered === 0) {
      done();
      return;
    }
    this.emitBlock().then(() => done(), done);
  }

  private async emitBlock(): Promise<void> {
    const block = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    this.push(await this.compressBlock(block));
  }
}

/** Snappy framing format (the `.sz` files of the snappy tools), written incrementally. */
export class SnappyFramedStream extends Transform {
  private readonly compressor = new SnappyCompressor();

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      const framed = this.compressor.update(chunk);
      if (framed.length > 0) this.push(framed);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    this.compressor.finish().then((tail) => {
      if (tail.length > 0) this.push(tail);
      done();
    }, done);
  }
}

/** 8 MiB blocks: large enough that bzip2's 900 kB blocks fill up, small enough to stay flat. */
const BZIP2_BLOCK = 8 * 1024 * 1024;
const LZ4_BLOCK = 4 * 1024 * 1024;

/**
 * The compression stage for a tar-based format, or undefined for plain tar and zip (zip
 * compresses entry by entry itself). Levels favour streaming speed over the last few percent.
 */
export function createCompressor(format: ArchiveFormat): Transform | undefined {
  switch (format) {
    case 'zip':
    case 'tar':
      return undefined;
    case 'targz':
      return zlib.createGzip({ level: 6 });
    case 'tarbz2':
      return new BlockCompressor(BZIP2_BLOCK, (block) => bzip2.compressAsync(block, { level: 9 }));
    case 'tarxz':
      // Preset 2 keeps the encoder at about 17 MB; the default preset 6 needs about 94 MB.
      return lzma.createCompressor({ preset: 2, threads: 1 });
    case 'tarlz4':
      return new BlockCompressor(LZ4_BLOCK, (block) => compressFrame(block));
    case 'tarsz':
      return new SnappyFramedStream();
    case 'tarbr':
      // Brotli's default quality (11) runs at about 1 MB/s; 4 streams at tens of MB/s.
      return zlib.createBrotliCompress({
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_GENERIC },
      });
    case 'tarzst':
      return new ZstdCompressStream({ compressionLevel: 3 });
  }
}
