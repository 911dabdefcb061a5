import { describe, expect, it } from 'vitest';
import { formatSize, usagePercent } from './format-size';

describe('formatSize', () => {
  it('uses binary units', () => {
    expect(formatSize(0, 'en')).toBe('0 B');
    expect(formatSize(1023, 'en')).toBe('1,023 B');
    expect(formatSize(1024, 'en')).toBe('1 KiB');
    expect(formatSize(1536, 'en')).toBe('1.5 KiB');
    expect(formatSize(10 * 1024 * 1024, 'en')).toBe('10 MiB');
    expect(formatSize(123.4 * 1024 ** 3, 'en')).toBe('123 GiB');
    expect(formatSize(5 * 1024 ** 4, 'en')).toBe('5 TiB');
  });

  it('keeps two significant decimals for small values', () => {
    expect(formatSize(1.234 * 1024 * 1024, 'en')).toBe('1.23 MiB');
    expect(formatSize(12.34 * 1024 * 1024, 'en')).toBe('12.3 MiB');
  });

  it('moves to the next unit instead of showing 1024', () => {
    expect(formatSize(1024 * 1024 - 1, 'en')).toBe('1 MiB');
  });

  it("follows the locale's number format", () => {
    expect(formatSize(1536, 'de')).toBe('1,5 KiB');
  });

  it('shows a dash for impossible sizes', () => {
    expect(formatSize(-1)).toBe('—');
    expect(formatSize(Number.NaN)).toBe('—');
  });
});

describe('usagePercent', () => {
  it('rounds and bounds the percentage', () => {
    expect(usagePercent(1, 3)).toBe(33);
    expect(usagePercent(2, 3)).toBe(67);
    expect(usagePercent(5, 0)).toBe(0);
    expect(usagePercent(10, 5)).toBe(100);
  });
});
