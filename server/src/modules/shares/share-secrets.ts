import crypto from 'node:crypto';

/** 16 random bytes: 128 bits, far beyond guessing; 22 base64url characters in URLs. */
const HASH_BYTES = 16;
/** 32 random bytes: 256 bits for the bearer token that stands in for the password. */
const TOKEN_BYTES = 32;

export function newShareHash(): string {
  return crypto.randomBytes(HASH_BYTES).toString('base64url');
}

export function newShareToken(): string {
  return crypto.randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Only strings that could be a hash reach the database (base64url, bounded length). */
export function looksLikeShareHash(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

/**
 * Compares a presented token with the stored one in constant time. Both sides are hashed first so
 * the comparison never depends on where they differ or on their lengths; an empty stored token
 * (an open link) never matches.
 */
export function tokensMatch(presented: string | undefined, stored: string): boolean {
  if (!stored || !presented) return false;
  const left = crypto.createHash('sha256').update(presented).digest();
  const right = crypto.createHash('sha256').update(stored).digest();
  return crypto.timingSafeEqual(left, right);
}
