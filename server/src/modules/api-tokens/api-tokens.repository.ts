import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { ApiTokensTable } from '../../storage/schema.js';

export type ApiTokenRow = Selectable<ApiTokensTable>;

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;

/** The api_tokens table: tokens are found by the hash of their secret, never by the secret. */
export function createApiTokensRepository(db: Db) {
  return {
    /** One user's tokens, newest first. */
    async listByUser(userId: number): Promise<ApiTokenRow[]> {
      return db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
    },
    async countByUser(userId: number): Promise<number> {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(row: Insertable<ApiTokensTable>): Promise<void> {
      await db.insertInto('api_tokens').values(row).execute();
    },
    /** Deletes one user's token; false when that user has no token with this id. */
    async removeOwned(userId: number, id: string): Promise<boolean> {
      const result = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async findByHash(tokenHash: string): Promise<ApiTokenRow | undefined> {
      return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    async setLastUsed(id: string, at: number): Promise<void> {
      await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
    async removeByUser(userId: number): Promise<void> {
      await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    },
  };
}
