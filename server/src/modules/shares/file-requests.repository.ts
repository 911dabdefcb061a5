import type { Db } from '../../storage/db.js';

/** An upload made through a file request: its tus upload, where it goes, and its declared size. */
export type FileRequestUpload = {
  uploadId: string;
  shareHash: string;
  /** Virtual path in the owner's scope. */
  path: string;
  length: number;
  createdAt: number;
  /** When the file was placed (Unix ms); undefined while in progress. */
  finishedAt?: number;
};

/** What arrived through one link. */
export type FileRequestStats = { files: number; bytes: number; lastAt: number };

export type FileRequestsRepository = ReturnType<typeof createFileRequestsRepository>;

export function createFileRequestsRepository(db: Db) {
  const toRecord = (row: { upload_id: string; share_hash: string; path: string; length: number; created_at: number; finished_at: number | null }): FileRequestUpload => ({
    uploadId: row.upload_id,
    shareHash: row.share_hash,
    path: row.path,
    length: Number(row.length),
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? undefined : Number(row.finished_at),
  });
  return {
    async insert(upload: FileRequestUpload): Promise<void> {
      await db
        .insertInto('file_request_uploads')
        .values({
          upload_id: upload.uploadId,
          share_hash: upload.shareHash,
          path: upload.path,
          length: upload.length,
          created_at: upload.createdAt,
          finished_at: upload.finishedAt ?? null,
        })
        .execute();
    },
    async find(shareHash: string, uploadId: string): Promise<FileRequestUpload | undefined> {
      const row = await db.selectFrom('file_request_uploads').selectAll().where('share_hash', '=', shareHash).where('upload_id', '=', uploadId).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async listByShare(shareHash: string): Promise<FileRequestUpload[]> {
      const rows = await db.selectFrom('file_request_uploads').selectAll().where('share_hash', '=', shareHash).execute();
      return rows.map(toRecord);
    },
    async markFinished(uploadId: string, at: number): Promise<void> {
      await db.updateTable('file_request_uploads').set({ finished_at: at }).where('upload_id', '=', uploadId).where('finished_at', 'is', null).execute();
    },
    async remove(uploadId: string): Promise<void> {
      await db.deleteFrom('file_request_uploads').where('upload_id', '=', uploadId).execute();
    },
    /** Files that arrived through each of `hashes` (finished uploads only). */
    async statsOf(hashes: string[]): Promise<Map<string, FileRequestStats>> {
      const stats = new Map<string, FileRequestStats>();
      if (!hashes.length) return stats;
      const rows = await db
        .selectFrom('file_request_uploads')
        .select((eb) => ['share_hash', eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('length').as('bytes'), eb.fn.max('finished_at').as('last')])
        .where('share_hash', 'in', hashes)
        .where('finished_at', 'is not', null)
        .groupBy('share_hash')
        .execute();
      for (const row of rows) stats.set(row.share_hash, { files: Number(row.files), bytes: Number(row.bytes ?? 0), lastAt: Number(row.last ?? 0) });
      return stats;
    },
  };
}
