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
