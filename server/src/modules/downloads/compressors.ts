import { Transform, type Duplex, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { Compressor as SnappyCompressor } from 'snappy';
import type { ArchiveFormat } from '@burrow/protocol';
import { createBzip2Stream } from './bzip2-stream.js';

/** Snappy framing format (the `.sz` files of the snappy tools), written incrementally. */
class SnappyFramedStream extends Transform {
  constructor(private readonly compressor: SnappyCompressor) {
    super();
  }

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

/** Output chunk of the zlib streams (gzip, brotli). */
const ZLIB_CHUNK = 128 * 1024;

/**
 * The compression stage for a tar-based format, or undefined for plain tar and zip (zip
 * compresses entry by entry itself). Levels favour streaming speed over the last few percent.
 * Each codec loads on first use, so the server only carries the ones it is asked for.
 */
export async function createCompressor(format: ArchiveFormat): Promise<Duplex | undefined> {
  switch (format) {
    case 'zip':
    case 'tar':
      return undefined;
    case 'targz':
      // gzip's own level. Output comes back from the thread pool a chunk at a time: 128 KiB
      // chunks instead of the default 16 KiB take eight times fewer trips for the same bytes.
      return zlib.createGzip({ level: 6, chunkSize: ZLIB_CHUNK });
    case 'tarbz2':
      return createBzip2Stream();
    case 'tarxz': {
      const { default: lzma } = await import('lzma-native');
      // Preset 2 keeps the encoder at about 17 MB; the default preset 6 needs about 94 MB.
      return lzma.createCompressor({ preset: 2, threads: 1 });
    }
    case 'tarlz4': {
      const { Lz4FrameStream } = await import('./lz4-frame.js');
      return new Lz4FrameStream();
    }
    case 'tarsz': {
      const { Compressor } = await import('snappy');
      return new SnappyFramedStream(new Compressor());
    }
    case 'tarbr':
      // Brotli's default quality (11) runs at about 1 MB/s; 4 streams at tens of MB/s.
      return zlib.createBrotliCompress({
        chunkSize: ZLIB_CHUNK,
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_GENERIC },
      });
    case 'tarzst': {
      const { CompressStream } = await import('zstd-napi');
      return new CompressStream({ compressionLevel: 3 });
    }
  }
}
