import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { looksLikeShareHash, newShareHash, newShareToken, tokensMatch } from './share-secrets.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('share secrets', () => {
  it('makes 128-bit hashes and 256-bit tokens, all distinct', () => {
    const hashes = new Set(Array.from({ length: 500 }, () => newShareHash()));
    expect(hashes.size).toBe(500);
    for (const hash of hashes) {
      expect(hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(looksLikeShareHash(hash)).toBe(true);
    }
    const token = newShareToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newShareToken()).not.toBe(token);
  });

  it('accepts only base64url-shaped hashes', () => {
    for (const bad of ['', 'a/b', '../x', 'a%2Fb', 'x'.repeat(65), 'a b', 'ä']) expect(looksLikeShareHash(bad)).toBe(false);
  });

  it('compares tokens with crypto.timingSafeEqual on fixed-length digests', () => {
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    const stored = newShareToken();
    expect(tokensMatch(stored, stored)).toBe(true);
    expect(tokensMatch(stored.slice(0, -1) + (stored.endsWith('A') ? 'B' : 'A'), stored)).toBe(false);
    // Different lengths must neither throw nor short-circuit before the constant-time compare.
    expect(tokensMatch('short', stored)).toBe(false);
    expect(tokensMatch(stored + stored, stored)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(4);
    for (const [left, right] of spy.mock.calls) {
      expect((left as Buffer).length).toBe(32);
      expect((right as Buffer).length).toBe(32);
    }
  });

  it('never matches a missing token or an open link', () => {
    expect(tokensMatch(undefined, newShareToken())).toBe(false);
    expect(tokensMatch('', newShareToken())).toBe(false);
    expect(tokensMatch('', '')).toBe(false);
    expect(tokensMatch('anything', '')).toBe(false);
  });
});
