import type { Selectable } from 'kysely';
import type { TrashSortField } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import type { TrashTable } from '../../storage/schema.js';

/** A deleted item as the server works with it. */
export type TrashRecord = {
  id: string;
  userId: number;
  name: string;
  /** Virtual path in the owner's scope when it was deleted. */
  path: string;
  realPath: string;
  storedPath: string;
  isDir: boolean;
  size: number;
  deletedAt: number;
  deletedBy: string;
};

function toRecord(row: Selectable<TrashTable>): TrashRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    name: row.name,
    path: row.path,
    realPath: row.real_path,
    storedPath: row.stored_path,
    isDir: row.is_dir === 1,
    size: Number(row.size),
    deletedAt: Number(row.deleted_at),
    deletedBy: row.deleted_by,
  };
}

const sortColumns: Record<TrashSortField, 'name' | 'deleted_at' | 'size'> = { name: 'name', deleted: 'deleted_at', size: 'size' };

export type TrashRepository = ReturnType<typeof createTrashRepository>;

export function createTrashRepository(db: Db) {
  return {
    async insert(record: TrashRecord): Promise<void> {
      await db
        .insertInto('trash')
        .values({
          id: record.id,
          user_id: record.userId,
          name: record.name,
          path: record.path,
          real_path: record.realPath,
          stored_path: record.storedPath,
          is_dir: record.isDir ? 1 : 0,
          size: record.size,
          deleted_at: record.deletedAt,
          deleted_by: record.deletedBy,
        })
        .execute();
    },
    async find(userId: number, id: string): Promise<TrashRecord | undefined> {
      const row = await db.selectFrom('trash').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    /** A page of one user's trash; ties are broken by id so pages never overlap. */
    async page(userId: number, options: { sort: TrashSortField; asc: boolean; offset: number; limit?: number }): Promise<TrashRecord[]> {
      const direction = options.asc ? 'asc' : 'desc';
      let query = db
        .selectFrom('trash')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy(options.sort === 'name' ? (eb) => eb.fn('lower', ['name']) : sortColumns[options.sort], direction)
        .orderBy('id', direction);
      if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset);
      else if (options.offset > 0) query = query.limit(-1).offset(options.offset);
      return (await query.execute()).map(toRecord);
    },
    async totals(userId: number): Promise<{ count: number; size: number }> {
      const row = await db
        .selectFrom('trash')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('size')])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), size: Number(row.size) };
    },
    /** One user's items, oldest first. */
    async oldestFirst(userId: number): Promise<TrashRecord[]> {
      const rows = await db.selectFrom('trash').selectAll().where('user_id', '=', userId).orderBy('deleted_at', 'asc').orderBy('id', 'asc').execute();
      return rows.map(toRecord);
    },
    async deletedBefore(time: number): Promise<TrashRecord[]> {
      return (await db.selectFrom('trash').selectAll().where('deleted_at', '<', time).execute()).map(toRecord);
    },
    async all(): Promise<TrashRecord[]> {
      return (await db.selectFrom('trash').selectAll().execute()).map(toRecord);
    },
    async userIds(): Promise<number[]> {
      return (await db.selectFrom('trash').select('user_id').distinct().execute()).map((row) => Number(row.user_id));
    },
    async remove(id: string): Promise<void> {
      await db.deleteFrom('trash').where('id', '=', id).execute();
    },
    /** Deletes a row; true only for the one caller that actually removed it. */
    async claim(id: string): Promise<boolean> {
      const result = await db.deleteFrom('trash').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
