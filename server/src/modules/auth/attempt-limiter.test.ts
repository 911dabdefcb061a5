import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { createAttemptLimiter } from './attempt-limiter.js';

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

function refusal(action: () => unknown): AppError | undefined {
  try {
    action();
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

describe('attempt limiter', () => {
  it('counts attempts in flight, so parallel attempts cannot pass the budget together', () => {
    const limiter = createAttemptLimiter({ max: 3, windowMs: 60_000 });
    const held = [limiter.reserve('k'), limiter.reserve('k'), limiter.reserve('k')];
    const refused = refusal(() => limiter.reserve('k'));
    expect(refused?.status).toBe(429);
    expect(refused?.headers?.['retry-after']).toBe('1');
    // Released attempts (right secret) give their place back; failed ones keep it.
    held[0]!.release();
    held[1]!.fail();
    held[1]!.fail();
    const next = limiter.reserve('k');
    expect(refusal(() => limiter.reserve('k'))?.status).toBe(429);
    next.release();
    held[2]!.release();
    expect(limiter.failures('k')).toBe(1);
  });

  it('lets failures expire with the window, and says when in Retry-After', () => {
    const time = clock();
    const limiter = createAttemptLimiter({ max: 2, windowMs: 60_000, now: time.now });
    limiter.reserve('k').fail();
    time.state.now += 20_000;
    limiter.reserve('k').fail();
    expect(refusal(() => limiter.reserve('k'))?.headers?.['retry-after']).toBe('40');
    time.state.now += 40_000;
    expect(() => limiter.reserve('k').release()).not.toThrow();
    expect(limiter.failures('k')).toBe(1);
  });

  it('stays within maxKeys by dropping the least recently used keys, not every key at once', () => {
    const limiter = createAttemptLimiter({ max: 1, windowMs: 60_000, maxKeys: 100 });
    for (let index = 0; index < 1_000; index++) limiter.reserve(`flood-${index}`).fail();
    expect(limiter.size).toBeLessThanOrEqual(100);
    // The latest keys are still refused: filling the table did not wipe it.
    for (let index = 950; index < 1_000; index++) expect(refusal(() => limiter.reserve(`flood-${index}`))?.status).toBe(429);
  });

  it('never drops a key with an attempt in flight', () => {
    const limiter = createAttemptLimiter({ max: 1, windowMs: 60_000, maxKeys: 10 });
    const held = limiter.reserve('busy');
    for (let index = 0; index < 100; index++) limiter.reserve(`other-${index}`).fail();
    expect(refusal(() => limiter.reserve('busy'))?.status).toBe(429);
    held.fail();
    expect(limiter.failures('busy')).toBe(1);
  });

  it('settles a reservation once, whatever is called after', () => {
    const limiter = createAttemptLimiter({ max: 2, windowMs: 60_000 });
    const attempt = limiter.reserve('k');
    attempt.fail();
    attempt.fail();
    attempt.release();
    expect(limiter.failures('k')).toBe(1);
    expect(limiter.load('k')).toBe(1);
  });
});
