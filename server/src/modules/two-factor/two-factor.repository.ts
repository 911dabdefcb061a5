import type { Db } from '../../storage/db.js';

/** A user's two-factor state: the sealed secret, when it was confirmed, whether it is required, the last time step used. */
export type TwoFactorRow = { secret: string | null; enabled_at: number | null; required: number; last_step: number | null };

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;

/** The two_factor and recovery_codes tables. */
export function createTwoFactorRepository(db: Db) {
  return {
    async find(userId: number): Promise<TwoFactorRow | undefined> {
      return db.selectFrom('two_factor').select(['secret', 'enabled_at', 'required', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
    },

    /** Stores a new secret awaiting its first code, replacing one that never got it. */
    async startEnrolment(userId: number, sealed: string): Promise<void> {
      await db
        .insertInto('two_factor')
        .values({ user_id: userId, secret: sealed, enabled_at: null, required: 0, last_step: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: sealed, enabled_at: null, last_step: null }))
        .execute();
    },

    async markEnabled(userId: number, at: number): Promise<void> {
      await db.updateTable('two_factor').set({ enabled_at: at }).where('user_id', '=', userId).execute();
    },

    /** Claims a time step in one conditional update: true only when it is later than the last one used. */
    async claimStep(userId: number, step: number): Promise<boolean> {
      const claimed = await db
        .updateTable('two_factor')
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    },

    async setRequired(userId: number, required: boolean): Promise<void> {
      const value = required ? 1 : 0;
      await db
        .insertInto('two_factor')
        .values({ user_id: userId, secret: null, enabled_at: null, required: value, last_step: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ required: value }))
        .execute();
    },

    /** Removes the secret and the recovery codes; the requirement stays. */
    async reset(userId: number): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('two_factor').set({ secret: null, enabled_at: null, last_step: null }).where('user_id', '=', userId).execute();
        await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
    },

    /** Removes everything stored for a user. */
    async removeUser(userId: number): Promise<void> {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
    },

    async countRecoveryCodes(userId: number): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Replaces a user's recovery codes by these hashes. */
    async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await tx
          .insertInto('recovery_codes')
          .values(hashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      });
    },

    /** Uses up a recovery code: true only for the one caller that deleted it. */
    async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
      const used = await db.deleteFrom('recovery_codes').where('user_id', '=', userId).where('code_hash', '=', codeHash).executeTakeFirst();
      return Number(used.numDeletedRows) === 1;
    },
  };
}
