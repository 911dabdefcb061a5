import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** What identifies one rendered preview: the source file version and the variant. */
export type CacheKey = {
  /** Real path of the source file. */
  real: string;
  size: number | bigint;
  mtimeNs: bigint;
  /** Rendering variant (`thumb`, `big`) and output extension. */
  variant: string;
  extension: string;
};

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** Bump when rendering changes so old files stop matching. */
const RENDER_VERSION = 1;

/**
 * Disk cache of rendered previews under `<cacheDir>/thumbs`. Each source path gets a folder
 * named by the hash of its real path, holding its variants and a `source` file with the path
 * itself, so every variant of a path can be dropped at once and a folder's worth found by prefix.
 * Variant names hash the size and modification time, so a changed file never matches stale
 * output even before a purge. Files are written atomically (temporary name, fsync, rename).
 */
export function createThumbnailCache(cacheDir: string, log: { warn: (object: unknown, message: string) => void }) {
  const root = path.join(cacheDir, 'thumbs');

  function folderOf(real: string): string {
    const hash = sha256(real).slice(0, 40);
    return path.join(root, hash.slice(0, 2), hash);
  }

  function fileOf(key: CacheKey): string {
    const version = sha256(`${RENDER_VERSION}:${key.size}:${key.mtimeNs}`).slice(0, 24);
    return path.join(folderOf(key.real), `${key.variant}-${version}${key.extension}`);
  }

  async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
    const temporary = `${file}.tmp-${crypto.randomBytes(6).toString('hex')}`;
    const handle = await fsp.open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fsp.rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    try {
      await fsp.rename(temporary, file);
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
  }

  return {
    root,
    /** Entity tag for a rendered variant (stable while the source is unchanged). */
    tagOf(key: CacheKey): string {
      return `"${path.basename(fileOf(key), key.extension)}"`;
    },

    async get(key: CacheKey): Promise<Buffer | undefined> {
      try {
        return await fsp.readFile(fileOf(key));
      } catch {
        return undefined;
      }
    },

    /** Stores a rendering; a failure to cache is logged, never fatal. */
    async put(key: CacheKey, data: Buffer): Promise<void> {
      const folder = folderOf(key.real);
      try {
        await fsp.mkdir(folder, { recursive: true, mode: 0o700 });
        const source = path.join(folder, 'source');
        await fsp.access(source).catch(() => writeAtomic(source, key.real));
        await writeAtomic(fileOf(key), data);
      } catch (error) {
        log.warn({ err: error }, 'could not cache a preview');
      }
    },

    /** Drops every variant of one source path. */
    async purge(real: string): Promise<void> {
      await fsp.rm(folderOf(real), { recursive: true, force: true });
    },

    /** Drops every variant of every source at or below a folder's real path. */
    async purgeUnder(realFolder: string): Promise<void> {
      let shards: string[];
      try {
        shards = await fsp.readdir(root);
      } catch {
        return;
      }
      for (const shard of shards) {
        let folders: string[];
        try {
          folders = await fsp.readdir(path.join(root, shard));
        } catch {
          continue;
        }
        for (const folder of folders) {
          const full = path.join(root, shard, folder);
          const source = await fsp.readFile(path.join(full, 'source'), 'utf8').catch(() => undefined);
          if (source === undefined || source === realFolder || source.startsWith(realFolder + path.sep)) {
            await fsp.rm(full, { recursive: true, force: true });
          }
        }
      }
    },
  };
}

export type ThumbnailCache = ReturnType<typeof createThumbnailCache>;
