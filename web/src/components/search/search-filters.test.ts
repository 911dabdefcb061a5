import { describe, expect, it } from 'vitest';
import { activeTypeFilter, withTypeFilter } from './search-filters';

describe('search quick filters', () => {
  it('puts the type word in front of the text', () => {
    expect(withTypeFilter('', 'image')).toBe('type:image ');
    expect(withTypeFilter('holiday', 'video')).toBe('type:video holiday');
    expect(withTypeFilter('  two words ', 'pdf')).toBe('type:pdf two words');
  });

  it('replaces an earlier type word wherever it stood', () => {
    expect(withTypeFilter('type:image cat', 'audio')).toBe('type:audio cat');
    expect(withTypeFilter('cat type:pdf', 'image')).toBe('type:image cat');
    expect(withTypeFilter('type:image ', 'image')).toBe('type:image ');
  });

  it('keeps other words that merely contain "type:"', () => {
    expect(withTypeFilter('prototype:x', 'pdf')).toBe('type:pdf prototype:x');
  });

  it('recognises the leading quick filter', () => {
    expect(activeTypeFilter('type:audio song')).toBe('audio');
    expect(activeTypeFilter('type:docx song')).toBeUndefined();
    expect(activeTypeFilter('song type:audio')).toBeUndefined();
  });
});
