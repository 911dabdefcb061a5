import { MaxShareDuration, ShareUnitSeconds, type ShareUnit } from '@burrow/protocol';
import { badRequest } from '../../errors.js';

/** Seconds per unit name; anything that is not a known unit counts as hours (as upstream). */
export function unitSeconds(unit: unknown): number {
  return typeof unit === 'string' && Object.hasOwn(ShareUnitSeconds, unit) ? ShareUnitSeconds[unit as ShareUnit] : ShareUnitSeconds.hours;
}

/**
 * Parses `expires`: a whole number 0…MaxShareDuration as a string or a number. Empty (or absent)
 * and 0 mean permanent. Anything else is a 400, where upstream answered 500.
 */
export function parseDuration(expires: unknown): number {
  if (expires === undefined || expires === null || expires === '') return 0;
  let value: number;
  if (typeof expires === 'number') {
    value = expires;
  } else if (typeof expires === 'string' && /^\s*\d+\s*$/.test(expires)) {
    value = Number(expires.trim());
  } else {
    throw badRequest('expires must be a whole number');
  }
  if (!Number.isInteger(value) || value < 0 || value > MaxShareDuration) {
    throw badRequest(`expires must be between 0 and ${MaxShareDuration}`);
  }
  return value;
}

/**
 * The link's expiry in Unix seconds, or 0 for a permanent link. Rounded up to the next whole
 * second so a link always lives at least as long as asked.
 */
export function expiryFor(expires: unknown, unit: unknown, nowMs = Date.now()): number {
  const duration = parseDuration(expires);
  if (duration === 0) return 0;
  return Math.ceil(nowMs / 1000) + duration * unitSeconds(unit);
}
