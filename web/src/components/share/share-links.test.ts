import type { Share } from '@burrow/protocol';
import { describe, expect, it } from 'vitest';
import { parseDuration, sortLinks } from './share-links';

const link = (hash: string, expire: number): Share => ({ hash, expire, path: '/a', userID: 1 });

describe('sortLinks', () => {
  it('puts permanent links first, then the soonest to expire', () => {
    const sorted = sortLinks([link('c', 300), link('b', 0), link('d', 100), link('a', 0), link('e', 200)]);
    expect(sorted.map((item) => item.hash)).toEqual(['a', 'b', 'd', 'e', 'c']);
  });

  it('leaves the input untouched', () => {
    const links = [link('x', 5), link('y', 0)];
    sortLinks(links);
    expect(links.map((item) => item.hash)).toEqual(['x', 'y']);
  });
});

describe('parseDuration', () => {
  it('reads empty as 0 and whole numbers up to 2147483647', () => {
    expect(parseDuration('')).toBe(0);
    expect(parseDuration('  ')).toBe(0);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration(' 24 ')).toBe(24);
    expect(parseDuration('2147483647')).toBe(2147483647);
  });

  it('refuses negative, fractional, exponent and too large values', () => {
    for (const text of ['-1', '1.5', '1e3', '2147483648', '99999999999999999999', 'abc', '+3']) {
      expect(parseDuration(text), text).toBeUndefined();
    }
  });
});
