// Type declarations for the compression and archive packages that ship without their own.
// Only the parts this module uses are described.

declare module 'lzma-native' {
  import type { Transform } from 'node:stream';
  export type CompressorOptions = { preset?: number; threads?: number; check?: number; memlimit?: number };
  const lzma: {
    createCompressor(options?: CompressorOptions): Transform;
    createDecompressor(options?: Record<string, unknown>): Transform;
  };
  export default lzma;
}

declare module 'zip-stream' {
  import { Transform, type Readable } from 'node:stream';
  export type ZipStreamOptions = { zlib?: { level?: number }; store?: boolean; forceZip64?: boolean; comment?: string };
  export type ZipEntryData = {
    name: string;
    type?: 'file' | 'directory';
    date?: Date;
    mode?: number;
    store?: boolean;
  };
  export default class ZipStream extends Transform {
    constructor(options?: ZipStreamOptions);
    entry(source: Readable | Buffer | string | null, data: ZipEntryData, callback: (error?: Error | null) => void): this;
    finalize(): void;
  }
}
