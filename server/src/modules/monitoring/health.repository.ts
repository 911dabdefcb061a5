import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';

/** The readiness check's one query: whether the database answers at all. */
export function createHealthRepository(db: Db) {
  return {
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}
