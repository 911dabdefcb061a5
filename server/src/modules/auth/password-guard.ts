import { setTimeout as sleep } from 'node:timers/promises';
import { memoryLimits, type LimitStore, type Turn } from './attempt-limiter.js';

/**
 * How many wrong secrets are tolerated, and from whom. An "account" is what the secret guards
 * (a username, a share link); a "client" is the address the guess came from.
 */
export type GuessPolicy = {
  windowMs: number;
  /** Failures allowed per (account, client) in the window; then 429. */
  perAccountClient: number;
  /** Failures allowed per client, whatever the account, in the window; then 429. */
  perClient: number;
  /**
   * From this many failures on one account in the window (attempts in flight included), its
   * verifications are spaced out instead of refused: a guesser spread over many addresses is
   * slowed down, and the owner can still get in.
   */
  slowAfter: number;
  /** Spacing once slowed down; it grows by `delayStepMs` per further failure, up to `maxDelayMs`. */
  delayMs: number;
  delayStepMs: number;
  maxDelayMs: number;
  /**
   * A client that has not failed on the account waits for its turn up to this long (and at most
   * `maxWaiting` wait at once); a client that has failed there is answered 429 instead.
   */
  maxWaitMs: number;
  maxWaiting: number;
  /** Keys tracked per limiter (memory bound). */
  maxKeys?: number;
};

/** Logins and current-password checks: see the README's security section for the numbers. */
export const LoginPolicy: GuessPolicy = {
  windowMs: 15 * 60_000,
  perAccountClient: 5,
  perClient: 20,
  slowAfter: 10,
  delayMs: 1_000,
  delayStepMs: 1_000,
  maxDelayMs: 30_000,
  maxWaitMs: 10_000,
  maxWaiting: 8,
};

/** Share link passwords: the account is the link. */
export const SharePasswordPolicy: GuessPolicy = {
  ...LoginPolicy,
  windowMs: 5 * 60_000,
  perAccountClient: 5,
  perClient: 20,
  slowAfter: 20,
};

export type GuessSource = { account: string; client: string };

/** The account key of a username (names match case-insensitively), for logins and updates alike. */
export function loginAccount(username: string): string {
  return `user:${username.toLowerCase()}`;
}
export type PasswordGuard = ReturnType<typeof createPasswordGuard>;

/**
 * Runs secret checks under a `GuessPolicy`. Every attempt is reserved (counted as in flight)
 * before the secret is verified, so parallel requests cannot exceed the budgets; it then becomes
 * a failure or is released. The counts live in `limits` (this process by default; the database
 * when several instances share it), under `name`, which keeps guards of different secrets apart.
 */
export function createPasswordGuard(
  policy: GuessPolicy,
  deps: { now?: () => number; sleep?: (ms: number) => Promise<unknown>; limits?: LimitStore; name?: string } = {},
) {
  const now = deps.now ?? Date.now;
  const wait = deps.sleep ?? ((ms: number) => sleep(ms));
  const limits = deps.limits ?? memoryLimits;
  const name = deps.name ?? 'login';
  const limiterOptions = { windowMs: policy.windowMs, maxKeys: policy.maxKeys, now };
  const pairs = limits(`${name}.pair`, { ...limiterOptions, max: policy.perAccountClient });
  const clients = limits(`${name}.client`, { ...limiterOptions, max: policy.perClient });
  // Counted, never capped: enough failure times are kept to reach the largest spacing.
  const accounts = limits(`${name}.account`, {
    ...limiterOptions,
    max: Number.POSITIVE_INFINITY,
    keep: policy.slowAfter + Math.ceil(Math.max(0, policy.maxDelayMs - policy.delayMs) / Math.max(1, policy.delayStepMs)) + 1,
  });

  function spacingFor(load: number): number {
    if (load <= policy.slowAfter) return 0;
    return Math.min(policy.maxDelayMs, policy.delayMs + policy.delayStepMs * (load - policy.slowAfter - 1));
  }

  /** Waits for a verification turn taken with the attempt, if it was paced. */
  async function awaitTurn(turn: Turn | undefined): Promise<void> {
    if (!turn) return;
    try {
      if (turn.waitMs > 0) await wait(turn.waitMs);
    } finally {
      turn.done();
    }
  }

  return {
    /**
     * Verifies a secret for `source` with `check`, which runs only within the budgets.
     * Resolves to its answer; throws 429 with Retry-After when refused before checking.
     */
    async verify(source: GuessSource, check: () => Promise<boolean>): Promise<boolean> {
      const pairKey = `${source.account}\u0000${source.client}`;
      const pair = await pairs.reserve(pairKey);
      const held = [pair];
      let account;
      try {
        held.push(await clients.reserve(source.client));
        // The account's load, this attempt included, sets the pace; a client that has failed on
        // it is told when to come back rather than kept waiting, and only a few wait at once.
        const hasFailedHere = pair.failures > 0;
        account = await accounts.track(source.account, {
          spacingFor,
          admit: (waitMs, waiting) => !hasFailedHere && waitMs <= policy.maxWaitMs && waiting < policy.maxWaiting,
        });
        held.push(account);
      } catch (error) {
        for (const reservation of held) await reservation.release();
        throw error;
      }
      let valid: boolean;
      try {
        await awaitTurn(account.turn);
        valid = await check();
      } catch (error) {
        for (const reservation of held) await reservation.release();
        throw error;
      }
      if (valid) {
        for (const reservation of held) await reservation.release();
        await pairs.clear(pairKey);
      } else {
        for (const reservation of held) await reservation.fail();
      }
      return valid;
    },
  };
}
