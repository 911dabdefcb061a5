import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { tooManyRequests } from '../../errors.js';
import type { AttemptLimiterOptions, HeldAttempt, LimitStore, Limiter, Pace, Turn } from './attempt-limiter.js';

/**
 * An attempt reserved and never settled (its instance stopped while verifying) stops counting
 * after this long; a verification takes seconds at most (a turn waits ten at most).
 */
const PENDING_TTL_MS = 2 * 60_000;

/** One key's counts, as the `sign_in_limits` row keeps them. */
type State = {
  /** Failure times inside the window, oldest first. */
  failures: number[];
  /** Attempts in flight: their id and when they were reserved. */
  pending: Array<[string, number]>;
  /** The earliest time the next paced verification may start. */
  nextSlot: number;
  /** The turns taken that are still ahead: requests waiting for them. */
  waiting: number[];
};

type Row = { failures: string; pending: string; next_slot: number | string; waiting: string };

function parse(row: Row | undefined): State {
  if (!row) return { failures: [], pending: [], nextSlot: 0, waiting: [] };
  return {
    failures: JSON.parse(row.failures) as number[],
    pending: JSON.parse(row.pending) as Array<[string, number]>,
    nextSlot: Number(row.next_slot),
    waiting: JSON.parse(row.waiting) as number[],
  };
}

/** Drops what no longer counts at `at`. */
function prune(state: State, at: number, windowMs: number): State {
  return {
    failures: state.failures.filter((time) => at - time < windowMs),
    pending: state.pending.filter(([, time]) => at - time < PENDING_TTL_MS),
    nextSlot: state.nextSlot,
    waiting: state.waiting.filter((slot) => slot > at),
  };
}

/**
 * Attempt counts in the database, for instances that share it: a guesser spreading guesses over
 * instances meets the budgets one instance would set. Each change to a key runs in a transaction
 * that locks its row, so parallel attempts on any instance see each other exactly as in
 * `createAttemptLimiter`. Keys are stored as SHA-256 digests (no account name or address in the
 * table, and no byte PostgreSQL's text refuses). A row whose counts have all expired is deleted
 * when next used, or by `sweepSharedLimits`.
 */
export function createSharedLimits(db: Db): LimitStore {
  return (name: string, options: AttemptLimiterOptions): Limiter => {
    const now = options.now ?? Date.now;
    const keep = Math.max(1, Math.min(options.keep ?? options.max, 10_000));
    const rowKey = (key: string) => crypto.createHash('sha256').update(name).update('\u0000').update(key).digest('hex');

    /**
     * Runs `change` on a key's counts with its row locked, then stores them (or deletes the row
     * when nothing is left to count). A throwing `change` leaves the row as it was.
     */
    async function update<R>(key: string, change: (state: State, at: number) => R): Promise<R> {
      const id = rowKey(key);
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sign_in_limits')
          .values({ key: id, failures: '[]', pending: '[]', next_slot: 0, waiting: '[]', expires_at: 0 })
          .onConflict((conflict) => conflict.column('key').doNothing())
          .execute();
        const row = await trx.selectFrom('sign_in_limits').select(['failures', 'pending', 'next_slot', 'waiting']).where('key', '=', id).forUpdate().executeTakeFirst();
        const at = now();
        const state = prune(parse(row), at, options.windowMs);
        const result = change(state, at);
        const expiresAt = Math.max(
          state.failures.length > 0 ? state.failures[state.failures.length - 1]! + options.windowMs : 0,
          ...state.pending.map(([, time]) => time + PENDING_TTL_MS),
          state.nextSlot,
        );
        if (expiresAt <= at) {
          await trx.deleteFrom('sign_in_limits').where('key', '=', id).execute();
        } else {
          await trx
            .updateTable('sign_in_limits')
            .set({
              failures: JSON.stringify(state.failures),
              pending: JSON.stringify(state.pending),
              next_slot: state.nextSlot,
              waiting: JSON.stringify(state.waiting),
              expires_at: expiresAt,
            })
            .where('key', '=', id)
            .execute();
        }
        return result;
      });
    }

    /** Settles an attempt in flight: a recorded failure, or released. */
    async function settle(key: string, attempt: string, failed: boolean): Promise<void> {
      await update(key, (state, at) => {
        state.pending = state.pending.filter(([id]) => id !== attempt);
        if (failed) {
          state.failures.push(at);
          if (state.failures.length > keep) state.failures.splice(0, state.failures.length - keep);
        }
      });
    }

    async function hold(key: string, budget: boolean, pace?: Pace): Promise<HeldAttempt> {
      const attempt = crypto.randomBytes(8).toString('hex');
      const counts = await update(key, (state, at) => {
        if (budget && state.failures.length + state.pending.length >= options.max) {
          // Only recorded failures have a known expiry; attempts in flight settle within moments.
          const oldestCounted = state.failures.length >= options.max ? state.failures[state.failures.length - options.max]! : undefined;
          throw tooManyRequests(oldestCounted === undefined ? 1 : (oldestCounted + options.windowMs - at) / 1000);
        }
        state.pending.push([attempt, at]);
        const load = state.failures.length + state.pending.length;
        const spacing = pace ? pace.spacingFor(load) : 0;
        let turn: Turn | undefined;
        if (pace && spacing > 0) {
          const slot = Math.max(at, state.nextSlot);
          const waitMs = slot - at;
          // Refused: the whole change is rolled back, the attempt included.
          if (waitMs > 0 && !pace.admit(waitMs, state.waiting.length)) throw tooManyRequests(waitMs / 1000);
          state.nextSlot = slot + spacing;
          // A waiting request counts as waiting until its slot comes: nothing to undo after it.
          if (waitMs > 0) state.waiting.push(slot);
          turn = { waitMs, done() {} };
        }
        return { failures: state.failures.length, load, turn };
      });
      let settled = false;
      const once = (failed: boolean) => async () => {
        if (settled) return;
        settled = true;
        await settle(key, attempt, failed);
      };
      return { ...counts, fail: once(true), release: once(false) };
    }

    return {
      reserve: (key) => hold(key, true),
      track: (key, pace) => hold(key, false, pace),
      async clear(key) {
        await update(key, (state) => {
          state.failures = [];
        });
      },
    };
  };
}

/** Deletes the rows of keys whose counts have all expired (run periodically, on one instance). */
export async function sweepSharedLimits(db: Db, at = Date.now()): Promise<void> {
  await db.deleteFrom('sign_in_limits').where('expires_at', '<=', at).execute();
}
