import { describe, expect, it } from 'vitest';
import { formatModified } from './format-date';

const now = new Date('2025-03-01T12:00:00Z');

describe('formatModified', () => {
  it('is relative by default', () => {
    expect(formatModified('2025-03-01T11:57:00Z', { absolute: false, locale: 'en', now })).toBe('3 minutes ago');
    expect(formatModified('2025-02-27T12:00:00Z', { absolute: false, locale: 'en', now })).toBe('2 days ago');
    expect(formatModified('2025-02-28T12:00:00Z', { absolute: false, locale: 'de', now })).toBe('gestern');
  });

  it('is absolute with the dateFormat preference', () => {
    const text = formatModified('2025-02-27T12:00:00Z', { absolute: true, locale: 'en', now });
    expect(text).toContain('2025');
    expect(text).toContain('Feb');
  });

  it('returns unparsable input unchanged', () => {
    expect(formatModified('not a date', { absolute: false })).toBe('not a date');
  });
});
