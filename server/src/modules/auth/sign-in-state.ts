import type { Db } from '../../storage/db.js';
import { memoryLimits, type LimitStore } from './attempt-limiter.js';
import { createSharedLimits, sweepSharedLimits } from './shared-limits.js';
import { createChallenges, createSharedChallenges, sweepSharedChallenges, type Challenges } from '../two-factor/challenges.js';
import { createSharedFlows, memoryFlows, sweepSharedFlows, type FlowStores } from '../oidc/oidc.flows.js';

/**
 * Where sign-in keeps what it remembers between requests: guess counts, two-factor login
 * challenges and single sign-on flows. One instance (SQLite) keeps them in memory; instances
 * sharing a PostgreSQL database keep them there, so each sees what the others counted and can
 * finish what another started.
 */
export type SignInState = {
  /** True when the state is in the database, shared by instances. */
  shared: boolean;
  limits: LimitStore;
  challenges: (lifetimeMs: number, now: () => number) => Challenges;
  flows: FlowStores;
  /** Deletes expired rows (nothing to do in memory, where they go as they are met). */
  sweep(): Promise<void>;
};

export function createSignInState(db: Db, shared: boolean): SignInState {
  if (!shared) return { shared, limits: memoryLimits, challenges: createChallenges, flows: memoryFlows, sweep: async () => undefined };
  return {
    shared,
    limits: createSharedLimits(db),
    challenges: (lifetimeMs, now) => createSharedChallenges(db, lifetimeMs, now),
    flows: createSharedFlows(db),
    async sweep() {
      const at = Date.now();
      await sweepSharedLimits(db, at);
      await sweepSharedChallenges(db, at);
      await sweepSharedFlows(db, at);
    },
  };
}
