import crypto from 'node:crypto';

export type ChallengeKind = 'code' | 'enrol';

type Challenge = { userId: number; kind: ChallengeKind; expiresAt: number; wrongCodes: number };

/** Wrong codes one challenge takes before it is withdrawn (the limiter counts them too). */
const WRONG_CODES_PER_CHALLENGE = 5;
const MAX_CHALLENGES = 10_000;

/**
 * Login challenges between a right password and a right code. Only a SHA-256 of each challenge
 * is kept (in memory: a restart asks for the password again). A challenge is good for one
 * login, for a few minutes, and a few wrong codes.
 */
export function createChallenges(lifetimeMs: number, now: () => number = Date.now) {
  const byHash = new Map<string, Challenge>();
  const hashOf = (challenge: string) => crypto.createHash('sha256').update(challenge).digest('hex');

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
    create(userId: number, kind: ChallengeKind): string {
      if (byHash.size >= MAX_CHALLENGES) sweep();
      const challenge = crypto.randomBytes(32).toString('base64url');
      byHash.set(hashOf(challenge), { userId, kind, expiresAt: now() + lifetimeMs, wrongCodes: 0 });
      return challenge;
    },

    /** The live challenge of that kind, or undefined. */
    find(challenge: string, kind: ChallengeKind): { userId: number } | undefined {
      const hash = hashOf(challenge);
      const entry = byHash.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        byHash.delete(hash);
        return undefined;
      }
      return entry.kind === kind ? { userId: entry.userId } : undefined;
    },

    /** Counts a wrong code; the challenge is withdrawn after a few. */
    wrongCode(challenge: string): void {
      const hash = hashOf(challenge);
      const entry = byHash.get(hash);
      if (entry && ++entry.wrongCodes >= WRONG_CODES_PER_CHALLENGE) byHash.delete(hash);
    },

    /** Used up: a challenge signs in once. */
    consume(challenge: string): void {
      byHash.delete(hashOf(challenge));
    },

    /** Withdraws every challenge of a user (two-factor reset, account deleted). */
    forgetUser(userId: number): void {
      for (const [hash, entry] of byHash) if (entry.userId === userId) byHash.delete(hash);
    },
  };
}
