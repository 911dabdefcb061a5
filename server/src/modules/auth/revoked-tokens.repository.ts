import type { Db } from '../../storage/db.js';

export type RevokedTokensRepository = ReturnType<typeof createRevokedTokensRepository>;

/** Session tokens ended by a logout before they expire, by token id (`jti`). */
export function createRevokedTokensRepository(db: Db) {
  return {
    /** Records a revocation until `expiresAtMs`; revoking twice is harmless. */
    async add(jti: string, expiresAtMs: number): Promise<void> {
      await db
        .insertInto('revoked_tokens')
        .values({ jti, expires_at: expiresAtMs })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },
    async has(jti: string): Promise<boolean> {
      const row = await db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
      return row !== undefined;
    },
    /** Forgets revocations of tokens that have expired anyway. */
    async purgeExpired(nowMs = Date.now()): Promise<void> {
      await db.deleteFrom('revoked_tokens').where('expires_at', '<', nowMs).execute();
    },
  };
}
