import type { Db } from '../../storage/db.js';
import type { UploadsTable } from '../../storage/schema.js';

/**
 * One resumable upload. While it is in progress `stagingPath` names the file holding the bytes
 * received so far. Once the upload has replaced its target, the row stays for a short while as
 * a record that it finished (`stagingPath` empty, `offset === length`), so a client whose last
 * response got lost learns from HEAD that it is done instead of starting over.
 */
export type UploadRecord = {
  id: string;
  userId: number;
  /** Canonical virtual path inside the user's scope. */
  path: string;
  stagingPath: string;
  /** Declared length; negative while it is not known yet (see `DEFERRED_LENGTH`). */
  length: number;
  offset: number;
  override: boolean;
  createdAt: number;
  /** Last activity (milliseconds); expiry counts from here. */
  updatedAt: number;
};

export const isFinished = (upload: UploadRecord): boolean => upload.stagingPath === '';

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;

function toRecord(row: UploadsTable): UploadRecord {
  return {
    id: row.id,
    userId: Number(row.user_id),
    path: row.path,
    stagingPath: row.staging_path,
    length: Number(row.length),
    offset: Number(row.offset),
    override: Boolean(row.override),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createUploadsRepository(db: Db) {
  return {
    /** The newest upload of a user for a path (a new POST replaces older ones). */
    async findByUserPath(userId: number, path: string): Promise<UploadRecord | undefined> {
      const row = await db
        .selectFrom('uploads')
        .selectAll()
        .where('user_id', '=', userId)
        .where('path', '=', path)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async listByUserPath(userId: number, path: string): Promise<UploadRecord[]> {
      const rows = await db.selectFrom('uploads').selectAll().where('user_id', '=', userId).where('path', '=', path).execute();
      return rows.map(toRecord);
    },

    async findById(id: string): Promise<UploadRecord | undefined> {
      const row = await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async list(): Promise<UploadRecord[]> {
      const rows = await db.selectFrom('uploads').selectAll().execute();
      return rows.map(toRecord);
    },

    async insert(upload: UploadRecord): Promise<void> {
      await db
        .insertInto('uploads')
        .values({
          id: upload.id,
          user_id: upload.userId,
          path: upload.path,
          staging_path: upload.stagingPath,
          length: upload.length,
          offset: upload.offset,
          override: upload.override ? 1 : 0,
          created_at: upload.createdAt,
          updated_at: upload.updatedAt,
        })
        .execute();
    },

    async setOffset(id: string, offset: number, updatedAt: number): Promise<void> {
      await db.updateTable('uploads').set({ offset, updated_at: updatedAt }).where('id', '=', id).execute();
    },

    /** Records the length of an upload created without one, once a client declares it. */
    async setLength(id: string, length: number): Promise<void> {
      await db.updateTable('uploads').set({ length }).where('id', '=', id).execute();
    },

    /** Records that the upload replaced its target; the staging file is gone. */
    async markFinished(id: string, updatedAt: number): Promise<void> {
      await db.updateTable('uploads').set((eb) => ({ staging_path: '', offset: eb.ref('length'), updated_at: updatedAt })).where('id', '=', id).execute();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
    },

    /** Uploads begun and not yet finished or expired. */
    async count(): Promise<number> {
      const row = await db.selectFrom('uploads').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}
