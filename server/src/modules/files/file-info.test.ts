import { describe, expect, it } from 'vitest';
import { etagOf, extensionOf, formatModified, goFileMode } from './file-info.js';

/** The same instant formatted by the Date API, for comparison. */
function viaDate(nanoseconds: bigint): string {
  const ms = Number(nanoseconds / 1_000_000n);
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  const fraction = (nanoseconds % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  return `${local}${fraction ? '.' + fraction : ''}${zone}`;
}

describe('formatModified', () => {
  it('writes RFC 3339 with trimmed nanoseconds and the local offset, as Go does', () => {
    const samples = [0n, 1_700_000_000_123_456_789n, 1_700_000_000_100_000_000n, 951_782_400_000_000_001n, 4_102_444_799_999_999_999n, 1_711_846_800_000_000_000n];
    for (const sample of samples) expect(formatModified(sample)).toBe(viaDate(sample));
    // Every day over a few years, across leap days.
    for (let day = 0; day < 4 * 366; day++) {
      const instant = (1_577_836_800n + BigInt(day) * 86_400n + 3_599n) * 1_000_000_000n + 5n;
      expect(formatModified(instant)).toBe(viaDate(instant));
    }
    // Every 7.5 minutes through 2024, so each daylight-saving change of the local zone is crossed.
    for (let step = 0n; step < 366n * 192n; step++) {
      const instant = (1_704_067_200n + step * 450n + 1n) * 1_000_000_000n;
      if (formatModified(instant) !== viaDate(instant)) expect(formatModified(instant)).toBe(viaDate(instant));
    }
    expect(formatModified(1_700_000_000_120_000_000n)).toMatch(/:20\.12(Z|[+-]\d\d:\d\d)$/);
    expect(formatModified(1_700_000_000_000_000_000n)).toMatch(/:20(Z|[+-]\d\d:\d\d)$/);
  });
});

describe('goFileMode', () => {
  it('maps POSIX modes to Go FileMode numbers', () => {
    expect(goFileMode(0o040755)).toBe(2147484141);
    expect(goFileMode(0o100644)).toBe(420);
    expect(goFileMode(0o120777)).toBe(2 ** 27 + 0o777);
    expect(goFileMode(0o010644)).toBe(2 ** 25 + 0o644);
    expect(goFileMode(0o104755)).toBe(2 ** 23 + 0o755);
    expect(goFileMode(0o041777)).toBe(2 ** 31 + 2 ** 20 + 0o777);
  });
});

describe('etagOf and extensionOf', () => {
  it('formats the ETag from nanosecond mtime and size in hex', () => {
    const stat = { mtimeMs: 0n, mtimeNs: 0x1234n, size: 255n } as unknown as import('node:fs').BigIntStats;
    expect(etagOf(stat)).toBe('"1234ff"');
  });
  it('returns the extension with its dot, like filepath.Ext', () => {
    expect(extensionOf('a.tar.gz')).toBe('.gz');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.bashrc')).toBe('.bashrc');
  });
});
