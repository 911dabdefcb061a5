import { describe, expect, it } from 'vitest';
import { MaxShareDuration } from '@burrow/protocol';
import { expiryFor, parseDuration, unitSeconds } from './share-expiry.js';
import { isExpired } from './shares.model.js';

describe('share expiry', () => {
  it('reads whole numbers as strings or numbers, and empty as permanent', () => {
    expect(parseDuration(undefined)).toBe(0);
    expect(parseDuration('')).toBe(0);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration(' 12 ')).toBe(12);
    expect(parseDuration(12)).toBe(12);
    expect(parseDuration(MaxShareDuration)).toBe(MaxShareDuration);
    for (const bad of ['x', '-3', -3, '2.5', 2.5, MaxShareDuration + 1, '0x10', '1e2', Number.NaN, Infinity]) {
      expect(() => parseDuration(bad), String(bad)).toThrowError(expect.objectContaining({ status: 400 }));
    }
  });

  it('treats unknown units as hours', () => {
    expect(unitSeconds('seconds')).toBe(1);
    expect(unitSeconds('minutes')).toBe(60);
    expect(unitSeconds('days')).toBe(86400);
    expect(unitSeconds('hours')).toBe(3600);
    expect(unitSeconds('fortnights')).toBe(3600);
    expect(unitSeconds('constructor')).toBe(3600);
    expect(unitSeconds(undefined)).toBe(3600);
  });

  it('rounds the start up so a link lives at least as long as asked', () => {
    const now = 1_700_000_000_250;
    const expire = expiryFor('1', 'seconds', now);
    expect(expire).toBe(1_700_000_002);
    expect(isExpired({ expire } as never, now + 999)).toBe(false);
    expect(isExpired({ expire } as never, 1_700_000_002_000)).toBe(true);
    expect(expiryFor('0', 'days', now)).toBe(0);
    expect(isExpired({ expire: 0 } as never, Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
