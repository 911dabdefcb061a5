import type { Db } from '../../storage/db.js';

export type OidcIdentitiesRepository = ReturnType<typeof createOidcIdentitiesRepository>;

/** Which provider account (issuer and subject) signs in as which Burrow user. */
export function createOidcIdentitiesRepository(db: Db) {
  return {
    /** The user an account is bound to, by id. */
    async userOf(issuer: string, subject: string): Promise<number | undefined> {
      const row = await db.selectFrom('oidc_identities').select('user_id').where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      return row === undefined ? undefined : Number(row.user_id);
    },
    /** Whether some provider account is bound to this user. */
    async isBound(userId: number): Promise<boolean> {
      const row = await db.selectFrom('oidc_identities').select(['issuer', 'subject']).where('user_id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },
    async bind(issuer: string, subject: string, userId: number, at = Date.now()): Promise<void> {
      await db.insertInto('oidc_identities').values({ issuer, subject, user_id: userId, created_at: at }).execute();
    },
    async unbind(issuer: string, subject: string): Promise<void> {
      await db.deleteFrom('oidc_identities').where('issuer', '=', issuer).where('subject', '=', subject).execute();
    },
  };
}
