import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { privateStagingDir, WRITE_STAGING_NAME } from '../../storage/staging-place.js';

/** Uploads stage in `<uuid>.part`, replacing writes in `<hex>.write`; nothing else is ever touched. */
const STAGING_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

// Opening with O_NOFOLLOW means a link planted where a staging file should be is refused
// instead of written through.
const OPEN_WRITE = fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW;
const OPEN_CREATE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

/**
 * A file in the staging folder: an upload's `<uuid>.part`, or (`write`) a write about to replace
 * a file, which no upload refers to and which exists only while its request runs.
 */
export type StagingFile = { path: string; size: number; mtimeMs: number; write: boolean };

export type StagingArea = ReturnType<typeof createStagingArea>;

/**
 * The folder (inside the cache folder, private to the server) that holds the bytes of uploads in
 * progress. Targets are only replaced once an upload is complete, so an aborted or abandoned
 * upload never touches a user's files.
 */
export function createStagingArea(cacheDir: string, fileMode: number) {
  const dir = privateStagingDir(cacheDir);

  function owns(file: string): boolean {
    const name = path.basename(file);
    return path.dirname(file) === dir && (STAGING_NAME.test(name) || WRITE_STAGING_NAME.test(name));
  }

  return {
    dir,
    owns,

    async prepare(): Promise<void> {
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    },

    pathFor(id: string): string {
      return path.join(dir, `${id}.part`);
    },

    /** Creates the empty staging file of a new upload; fails if the name is taken. */
    async create(id: string): Promise<string> {
      const file = path.join(dir, `${id}.part`);
      const handle = await fsp.open(file, OPEN_CREATE, fileMode);
      await handle.close();
      return file;
    },

    async openForWrite(file: string): Promise<FileHandle> {
      if (!owns(file)) throw new Error('not a staging file');
      return fsp.open(file, OPEN_WRITE);
    },

    /** Size of a staging file, or undefined when it is missing or not a regular file. */
    async sizeOf(file: string): Promise<number | undefined> {
      if (!owns(file)) return undefined;
      try {
        const stat = await fsp.lstat(file);
        return stat.isFile() ? stat.size : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async truncate(file: string, length: number): Promise<void> {
      const handle = await fsp.open(file, OPEN_WRITE);
      try {
        await handle.truncate(length);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },

    /**
     * Removes a staging file. Only names this server created inside its own folder qualify, and
     * unlink removes a link itself, never what it points to.
     */
    async discard(file: string): Promise<void> {
      if (!owns(file)) return;
      try {
        await fsp.unlink(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },

    /** Staging files present on disk (for finding ones no upload refers to any more). */
    async list(): Promise<StagingFile[]> {
      let names: string[];
      try {
        names = await fsp.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const files: StagingFile[] = [];
      for (const name of names) {
        const write = WRITE_STAGING_NAME.test(name);
        if (!write && !STAGING_NAME.test(name)) continue;
        const file = path.join(dir, name);
        const stat = await fsp.lstat(file).catch(() => undefined);
        if (stat) files.push({ path: file, size: stat.size, mtimeMs: stat.mtimeMs, write });
      }
      return files;
    },

    /** Bytes available to the server on the staging filesystem. */
    async freeBytes(): Promise<number> {
      return freeBytesAt(dir);
    },

    async device(): Promise<number> {
      return (await fsp.stat(dir)).dev;
    },
  };
}

/** Bytes available to unprivileged writers on the filesystem holding `dir`. */
export async function freeBytesAt(dir: string): Promise<number> {
  const stats = await fsp.statfs(dir);
  return stats.bavail * stats.bsize;
}
