import { describe, expect, it } from 'vitest';
import { groupDigits } from './group-digits';

describe('groupDigits', () => {
  it('groups a large count the way the locale does', () => {
    expect(groupDigits('100000 files', 100000, 'en')).toBe('100,000 files');
    expect(groupDigits('100000 Dateien', 100000, 'de')).toBe('100.000 Dateien');
    expect(groupDigits('Delete 12345 items?', 12345, 'en')).toBe('Delete 12,345 items?');
  });

  it('leaves small counts and other numbers alone', () => {
    expect(groupDigits('3 files', 3, 'en')).toBe('3 files');
    expect(groupDigits('20000 of 2000', 2000, 'en')).toBe('20000 of 2,000');
    expect(groupDigits('120000 files', 20000, 'en')).toBe('120000 files');
  });
});
