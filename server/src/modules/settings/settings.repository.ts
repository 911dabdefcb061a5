import type { Db } from '../../storage/db.js';

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

/** The settings table: one text value (JSON or base64) per key. */
export function createSettingsRepository(db: Db) {
  return {
    /** Every stored key with its value. */
    async all(): Promise<Map<string, string>> {
      const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
      return new Map(rows.map((row) => [row.key, row.value]));
    },
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },
    /** Adds a key that is not stored yet. */
    async insert(key: string, value: string): Promise<void> {
      await db.insertInto('settings').values({ key, value }).execute();
    },
    /** Changes the value of a stored key. */
    async update(key: string, value: string): Promise<void> {
      await db.updateTable('settings').set({ value }).where('key', '=', key).execute();
    },
    /** Stores a value whether or not the key exists yet. */
    async put(key: string, value: string): Promise<void> {
      await db.insertInto('settings').values({ key, value }).onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
    },
  };
}
