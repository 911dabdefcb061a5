import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { SharesTable } from '../../storage/schema.js';
import { sharePathKey, type ShareRecord, type TargetIdentity } from './shares.model.js';

function toRecord(row: Selectable<SharesTable>): ShareRecord {
  return {
    hash: row.hash,
    path: row.path,
    userId: Number(row.user_id),
    expire: Number(row.expire),
    passwordHash: row.password_hash,
    token: row.token,
    createdAt: Number(row.created_at),
    target: row.target_dev !== null && row.target_ino !== null ? { dev: row.target_dev, ino: row.target_ino, birth: row.target_birth ?? undefined } : undefined,
    request: Number(row.upload_only)
      ? { note: row.note, maxFileSize: Number(row.max_file_size), maxTotalSize: Number(row.max_total_size), maxFiles: Number(row.max_files) }
      : undefined,
  };
}

export type SharesRepository = ReturnType<typeof createSharesRepository>;

/** Share links in the database. Ordering matches the wire protocol: owner, then expiry. */
export function createSharesRepository(db: Db) {
  return {
    async insert(share: ShareRecord): Promise<void> {
      await db
        .insertInto('shares')
        .values({
          hash: share.hash,
          path: share.path,
          user_id: share.userId,
          expire: share.expire,
          password_hash: share.passwordHash,
          token: share.token,
          created_at: share.createdAt,
          target_dev: share.target?.dev ?? null,
          target_ino: share.target?.ino ?? null,
          target_birth: share.target?.birth ?? null,
          upload_only: share.request ? 1 : 0,
          note: share.request?.note ?? '',
          max_file_size: share.request?.maxFileSize ?? 0,
          max_total_size: share.request?.maxTotalSize ?? 0,
          max_files: share.request?.maxFiles ?? 0,
        })
        .execute();
    },
    /** Records the identity of a link's target (links made before identities were kept, or retargeted by a write through Burrow). */
    async setTarget(hash: string, target: TargetIdentity): Promise<void> {
      await db.updateTable('shares').set({ target_dev: target.dev, target_ino: target.ino, target_birth: target.birth ?? null }).where('hash', '=', hash).execute();
    },
    async findByHash(hash: string): Promise<ShareRecord | undefined> {
      const row = await db.selectFrom('shares').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async list(): Promise<ShareRecord[]> {
      const rows = await db.selectFrom('shares').selectAll().orderBy('user_id').orderBy('expire').orderBy('created_at').execute();
      return rows.map(toRecord);
    },
    async listByUser(userId: number): Promise<ShareRecord[]> {
      const rows = await db.selectFrom('shares').selectAll().where('user_id', '=', userId).orderBy('expire').orderBy('created_at').execute();
      return rows.map(toRecord);
    },
    /** Links of one owner whose path is one of `paths` (a folder is stored with its `/`). */
    async listByUserAndPaths(userId: number, paths: string[]): Promise<ShareRecord[]> {
      if (!paths.length) return [];
      const rows = await db
        .selectFrom('shares')
        .selectAll()
        .where('user_id', '=', userId)
        .where('path', 'in', paths)
        .orderBy('expire')
        .orderBy('created_at')
        .execute();
      return rows.map(toRecord);
    },
    async remove(hash: string): Promise<void> {
      await db.deleteFrom('shares').where('hash', '=', hash).execute();
    },
    async removeMany(hashes: string[]): Promise<number> {
      if (!hashes.length) return 0;
      const result = await db.deleteFrom('shares').where('hash', 'in', hashes).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /**
     * Deletes one owner's links on `virtual` and below, on path boundaries (`/a` never takes
     * `/ab`'s links) and whether or not a link was stored with a trailing slash.
     */
    async removeByOwnerUnder(userId: number, virtual: string): Promise<number> {
      const base = sharePathKey(virtual);
      const prefix = base === '/' ? '/' : `${base}/`;
      const rows = await db.selectFrom('shares').select(['hash', 'path']).where('user_id', '=', userId).execute();
      const doomed = rows.filter((row) => sharePathKey(row.path) === base || row.path.startsWith(prefix)).map((row) => row.hash);
      if (!doomed.length) return 0;
      const result = await db.deleteFrom('shares').where('hash', 'in', doomed).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeByUser(userId: number): Promise<number> {
      const result = await db.deleteFrom('shares').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /** Deletes links whose expiry (Unix seconds) has passed. */
    async purgeExpired(nowMs = Date.now()): Promise<number> {
      const result = await db
        .deleteFrom('shares')
        .where('expire', '!=', 0)
        .where('expire', '<=', Math.floor(nowMs / 1000))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
