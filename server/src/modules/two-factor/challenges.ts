import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';

type ChallengeKind = 'code' | 'enrol';

type Challenge = { userId: number; kind: ChallengeKind; expiresAt: number; wrongCodes: number };

/** Wrong codes one challenge takes before it is withdrawn (the limiter counts them too). */
const WRONG_CODES_PER_CHALLENGE = 5;
const MAX_CHALLENGES = 10_000;

/**
 * Login challenges between a right password and a right code. Only a SHA-256 of each challenge
 * is kept. A challenge is good for one login, for a few minutes, and a few wrong codes.
 */
export type Challenges = {
  create(userId: number, kind: ChallengeKind): Promise<string>;
  /** The live challenge of that kind, or undefined. */
  find(challenge: string, kind: ChallengeKind): Promise<{ userId: number } | undefined>;
  /** Counts a wrong code; the challenge is withdrawn after a few. */
  wrongCode(challenge: string): Promise<void>;
  /** Uses the challenge up (it signs in once): true for the one call that did, while it was live. */
  consume(challenge: string, kind: ChallengeKind): Promise<boolean>;
  /** Withdraws every challenge of a user (two-factor reset, account deleted). */
  forgetUser(userId: number): Promise<void>;
};

const hashOf = (challenge: string) => crypto.createHash('sha256').update(challenge).digest('hex');

/** Challenges kept in memory, for a single instance: a restart asks for the password again. */
export function createChallenges(lifetimeMs: number, now: () => number = Date.now): Challenges {
  const byHash = new Map<string, Challenge>();

  function sweep(): void {
    const at = now();
    for (const [hash, entry] of byHash) if (entry.expiresAt <= at) byHash.delete(hash);
    // Still full of live ones: the oldest go first (Map order is insertion order).
    for (const hash of byHash.keys()) {
      if (byHash.size < MAX_CHALLENGES) break;
      byHash.delete(hash);
    }
  }

  return {
    async create(userId, kind) {
      if (byHash.size >= MAX_CHALLENGES) sweep();
      const challenge = crypto.randomBytes(32).toString('base64url');
      byHash.set(hashOf(challenge), { userId, kind, expiresAt: now() + lifetimeMs, wrongCodes: 0 });
      return challenge;
    },

    async find(challenge, kind) {
      const hash = hashOf(challenge);
      const entry = byHash.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        byHash.delete(hash);
        return undefined;
      }
      return entry.kind === kind ? { userId: entry.userId } : undefined;
    },

    async wrongCode(challenge) {
      const hash = hashOf(challenge);
      const entry = byHash.get(hash);
      if (entry && ++entry.wrongCodes >= WRONG_CODES_PER_CHALLENGE) byHash.delete(hash);
    },

    async consume(challenge, kind) {
      const hash = hashOf(challenge);
      const entry = byHash.get(hash);
      if (!entry || entry.kind !== kind) return false;
      byHash.delete(hash);
      return entry.expiresAt > now();
    },

    async forgetUser(userId) {
      for (const [hash, entry] of byHash) if (entry.userId === userId) byHash.delete(hash);
    },
  };
}

/**
 * Challenges in the database, for instances that share it: a login whose password was checked
 * on one instance finishes with its code on another. Using one up is a single conditional
 * delete, so two instances cannot both accept it.
 */
export function createSharedChallenges(db: Db, lifetimeMs: number, now: () => number = Date.now): Challenges {
  return {
    async create(userId, kind) {
      const challenge = crypto.randomBytes(32).toString('base64url');
      await db.insertInto('two_factor_challenges').values({ hash: hashOf(challenge), user_id: userId, kind, expires_at: now() + lifetimeMs, wrong_codes: 0 }).execute();
      return challenge;
    },
    async find(challenge, kind) {
      const row = await db
        .selectFrom('two_factor_challenges')
        .select('user_id')
        .where('hash', '=', hashOf(challenge))
        .where('kind', '=', kind)
        .where('expires_at', '>', now())
        .executeTakeFirst();
      return row ? { userId: Number(row.user_id) } : undefined;
    },
    async wrongCode(challenge) {
      const hash = hashOf(challenge);
      await db.updateTable('two_factor_challenges').set((eb) => ({ wrong_codes: eb('wrong_codes', '+', 1) })).where('hash', '=', hash).execute();
      await db.deleteFrom('two_factor_challenges').where('hash', '=', hash).where('wrong_codes', '>=', WRONG_CODES_PER_CHALLENGE).execute();
    },
    async consume(challenge, kind) {
      const used = await db
        .deleteFrom('two_factor_challenges')
        .where('hash', '=', hashOf(challenge))
        .where('kind', '=', kind)
        .where('expires_at', '>', now())
        .returning('user_id')
        .executeTakeFirst();
      return used !== undefined;
    },
    async forgetUser(userId) {
      await db.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
    },
  };
}

/** Deletes expired challenges (run periodically, on one instance). */
export async function sweepSharedChallenges(db: Db, at = Date.now()): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', at).execute();
}
