import { describe, expect, it } from 'vitest';
import { chunkSizeOrFallback, FallbackChunkSize, formatChunkSize, parseChunkSize } from './chunk-size';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

describe('parseChunkSize', () => {
  it.each([
    ['4096', 4096],
    ['100B', 100],
    ['100 b', 100],
    ['1K', KiB],
    ['1kb', KiB],
    ['1.5KB', 1536],
    ['10M', 10 * MiB],
    ['10MB', 10 * MiB],
    ['10mb', 10 * MiB],
    ['  10 Mb  ', 10 * MiB],
    ['0.5M', 512 * KiB],
    ['.5m', 512 * KiB],
    ['2.', 2],
    ['1G', GiB],
    ['1.25GB', 1.25 * GiB],
    ['2t', 2 * TiB],
    ['1TB', TiB],
    ['1.5B', 2],
  ])('%j is %d bytes', (text, bytes) => {
    expect(parseChunkSize(text)).toBe(bytes);
  });

  it.each(['', '   ', 'MB', 'ten MB', '10 XB', '10 KiB', '10MBs', '-1M', '1,5M', '1e3', '0', '0 MB', '0.1B', '1.2.3M', '99999999999 TB'])(
    '%j is not a chunk size',
    (text) => {
      expect(parseChunkSize(text)).toBeUndefined();
    },
  );

  it('falls back to 1 MB for anything unreadable', () => {
    expect(FallbackChunkSize).toBe(MiB);
    expect(chunkSizeOrFallback('nonsense')).toBe(MiB);
    expect(chunkSizeOrFallback('')).toBe(MiB);
    expect(chunkSizeOrFallback('3 k')).toBe(3 * KiB);
  });
});

describe('formatChunkSize', () => {
  it.each([
    [1, '1 B'],
    [1023, '1023 B'],
    [KiB, '1 KB'],
    [1536, '1.5 KB'],
    [MiB - 1, '1023.999 KB'],
    [MiB, '1 MB'],
    [10 * MiB, '10 MB'],
    [1.5 * MiB, '1.5 MB'],
    [GiB, '1 GB'],
    [5 * TiB, '5 TB'],
    [2048 * TiB, '2048 TB'],
  ])('%d bytes read as %j', (bytes, text) => {
    expect(formatChunkSize(bytes)).toBe(text);
  });

  it('reads back to the same size for whole-unit values', () => {
    for (const bytes of [1, 700, KiB, 3 * MiB, 1.5 * MiB, 7 * GiB, 2 * TiB]) {
      expect(parseChunkSize(formatChunkSize(bytes))).toBe(bytes);
    }
  });
});
