import { describe, expect, it } from 'vitest';
import { candidateExtensions, matchesName, parseSearchQuery } from './search-query.js';

describe('parseSearchQuery', () => {
  it('lower-cases and splits on single spaces by default', () => {
    expect(parseSearchQuery('Foo BAR')).toEqual({ caseSensitive: false, terms: ['foo', 'bar'], conditions: [] });
  });

  it('keeps case with case:sensitive anywhere and removes both case tokens', () => {
    expect(parseSearchQuery('Foo case:sensitive')).toEqual({ caseSensitive: true, terms: ['Foo'], conditions: [] });
    expect(parseSearchQuery('case:insensitive Foo')).toEqual({ caseSensitive: false, terms: ['foo'], conditions: [] });
  });

  it('turns type: words into conditions: families, music as audio, anything else an extension', () => {
    const query = parseSearchQuery('type:image type:music type:video type:pdf type:JPG holiday');
    expect(query.terms).toEqual(['holiday']);
    expect(query.conditions).toEqual([{ family: 'image' }, { family: 'audio' }, { family: 'video' }, { extension: '.pdf' }, { extension: '.JPG' }]);
  });

  it('takes a double-quoted value as one literal term', () => {
    expect(parseSearchQuery('"Annual Report"').terms).toEqual(['annual report']);
    expect(parseSearchQuery('case:sensitive "Annual Report"').terms).toEqual(['Annual Report']);
  });

  it('keeps the upstream quirks: a double space is an empty term, a lone quote too', () => {
    expect(parseSearchQuery('a  b').terms).toEqual(['a', '', 'b']);
    expect(parseSearchQuery('"').terms).toEqual(['']);
    expect(parseSearchQuery('   ').terms).toEqual([]);
    expect(parseSearchQuery('type:image').terms).toEqual([]);
  });
});

describe('matchesName', () => {
  it('matches ANY term in the base name, case-insensitively unless asked', () => {
    const query = parseSearchQuery('zebra report');
    expect(matchesName('Annual-REPORT.pdf', query)).toBe(true);
    expect(matchesName('notes.txt', query)).toBe(false);
    expect(matchesName('Report.pdf', parseSearchQuery('case:sensitive report'))).toBe(false);
    expect(matchesName('report.pdf', parseSearchQuery('case:sensitive report'))).toBe(true);
  });

  it('needs ANY type condition, and then ANY term', () => {
    const query = parseSearchQuery('type:image type:pdf cat');
    expect(matchesName('cat.PNG', query)).toBe(true);
    expect(matchesName('cat.pdf', query)).toBe(true);
    expect(matchesName('cat.txt', query)).toBe(false);
    expect(matchesName('dog.png', query)).toBe(false);
  });

  it('matches an extension condition exactly and case-sensitively, families by MIME type', () => {
    expect(matchesName('scan.PDF', parseSearchQuery('type:pdf'))).toBe(false);
    expect(matchesName('scan.PDF', parseSearchQuery('type:PDF'))).toBe(true);
    expect(matchesName('song.FLAC', parseSearchQuery('type:audio'))).toBe(true);
    expect(matchesName('clip.mkv', parseSearchQuery('type:video'))).toBe(true);
    expect(matchesName('clip.mkv', parseSearchQuery('type:image'))).toBe(false);
    expect(matchesName('README', parseSearchQuery('type:image'))).toBe(false);
  });

  it('lets an empty term or no term at all match everything', () => {
    expect(matchesName('anything', parseSearchQuery('zzz  yyy'))).toBe(true);
    expect(matchesName('anything', parseSearchQuery(''))).toBe(true);
  });
});

describe('candidateExtensions', () => {
  it('lists the lower-case extensions that can satisfy the conditions', () => {
    const image = candidateExtensions(parseSearchQuery('type:image'))!;
    expect(image).toContain('.jpg');
    expect(image).toContain('.svg');
    expect(image).not.toContain('.mp3');
    expect(candidateExtensions(parseSearchQuery('type:JPG'))).toEqual(['.jpg']);
    expect(candidateExtensions(parseSearchQuery('cat'))).toBeUndefined();
  });
});
