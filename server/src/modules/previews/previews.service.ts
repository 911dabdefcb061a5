import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { AppError, badRequest, notImplemented, payloadTooLarge } from '../../errors.js';
import type { ResolvedPath } from '../../storage/scoped-fs.js';
import type { FileEvent } from '../../storage/file-events.js';
import { baseName } from '../../storage/virtual-path.js';
import type { UserRecord } from '../users/users.model.js';
import type { DownloadsService, ReadTarget } from '../downloads/downloads.service.js';
import { detectType } from '../files/file-types.js';
import { IMAGE_MAGIC_LENGTH, imageKind } from './image-kind.js';
import { checkDimensions, OUTPUT_TYPES, outputFormat, renderImage, type OutputFormat, type PreviewSize } from './image-render.js';
import { createLimiter } from './limiter.js';
import type { CacheKey, ThumbnailCache } from './thumbnail-cache.js';
import type { VideoFrames } from './video-frame.js';

/** Larger sources are refused (413) rather than decoded. */
export const MAX_PREVIEW_INPUT_BYTES = 200 * 1024 * 1024;

export type PreviewResult =
  /** Serve the file itself (resizing off, GIF, or a format we do not decode). */
  | { kind: 'raw'; resolved: ResolvedPath }
  | { kind: 'rendered'; data: Buffer; contentType: string; name: string; etag: string; mtimeMs: number };

export type PreviewsService = ReturnType<typeof createPreviewsService>;

type Deps = {
  config: Pick<Config, 'enableThumbs' | 'resizePreview'>;
  downloads: DownloadsService;
  cache: ThumbnailCache;
  videoFrames: VideoFrames;
};

async function readHead(real: string): Promise<Buffer> {
  const handle = await fsp.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(IMAGE_MAGIC_LENGTH);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function renamed(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name) + extension;
}

/**
 * Thumbnails and resized previews of images (and thumbnails of videos through ffmpeg), cached on
 * disk. Decoding is bounded: sources over 200 MiB or 10,000 px a side are refused with 413, at
 * most two renderings run at once, and concurrent requests for the same rendering share it.
 */
export function createPreviewsService({ config, downloads, cache, videoFrames }: Deps) {
  const limit = createLimiter(2);
  const inflight = new Map<string, Promise<Buffer | undefined>>();

  /** Looks in the cache, else renders once (shared by concurrent callers) and stores it. */
  async function cached(key: CacheKey, render: () => Promise<Buffer | undefined>): Promise<Buffer | undefined> {
    const hit = await cache.get(key);
    if (hit) return hit;
    const id = cache.tagOf(key) + key.real;
    let pending = inflight.get(id);
    if (!pending) {
      pending = limit(render)
        .then(async (data) => {
          if (data) await cache.put(key, data);
          return data;
        })
        .finally(() => inflight.delete(id));
      inflight.set(id, pending);
    }
    return pending;
  }

  async function versionOf(real: string) {
    const stat = await fsp.stat(real, { bigint: true });
    return { size: stat.size, mtimeNs: stat.mtimeNs, mtimeMs: Number(stat.mtimeMs) };
  }

  function rendered(key: CacheKey, data: Buffer, format: OutputFormat, name: string, mtimeMs: number): PreviewResult {
    return { kind: 'rendered', data, contentType: OUTPUT_TYPES[format].mime, name: renamed(name, OUTPUT_TYPES[format].extension), etag: cache.tagOf(key), mtimeMs };
  }

  async function videoThumbnail(resolved: ResolvedPath, name: string): Promise<PreviewResult> {
    if (!config.enableThumbs || !(await videoFrames.available())) throw notImplemented();
    const version = await versionOf(resolved.real);
    const key: CacheKey = { real: resolved.real, ...version, variant: 'video-thumb', extension: '.jpg' };
    const data = await cached(key, async () => {
      const frame = await videoFrames.extract(resolved.real);
      return frame ? renderImage(frame, 'thumb', 'jpeg') : undefined;
    });
    if (!data) throw notImplemented();
    return rendered(key, data, 'jpeg', name, version.mtimeMs);
  }

  /**
   * The preview of an entry already resolved through a scope gate: `preview` resolves in the
   * user's scope, public share links resolve inside the shared folder.
   */
  async function previewOf(resolved: ReadTarget['resolved'], size: string): Promise<PreviewResult> {
    if (size !== 'thumb' && size !== 'big') throw badRequest('invalid preview size');
    const stat = resolved.stat;
    const name = resolved.virtual === '/' ? path.basename(resolved.real) : baseName(resolved.virtual);
    const type = stat.isFile() ? await detectType(name, resolved.real, stat, { sniff: true }) : '';
    if (type === 'video' && size === 'thumb') return videoThumbnail(resolved, name);
    if (type !== 'image') throw notImplemented();

    const enabled = size === 'thumb' ? config.enableThumbs : config.resizePreview;
    if (!enabled) return { kind: 'raw', resolved };
    const kind = imageKind(await readHead(resolved.real));
    if (!kind || kind === 'gif') return { kind: 'raw', resolved };
    if (stat.size > MAX_PREVIEW_INPUT_BYTES) throw payloadTooLarge('image too large');

    const format = outputFormat(size as PreviewSize, kind);
    const version = await versionOf(resolved.real);
    const key: CacheKey = { real: resolved.real, ...version, variant: size, extension: OUTPUT_TYPES[format].extension };
    try {
      const data = await cached(key, async () => {
        await checkDimensions(resolved.real);
        return renderImage(resolved.real, size as PreviewSize, format);
      });
      if (!data) return { kind: 'raw', resolved };
      return rendered(key, data, format, name, version.mtimeMs);
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The decoder could not read it (damaged, or a codec this build lacks): let the
      // browser try the original.
      return { kind: 'raw', resolved };
    }
  }

  async function onFileChanged(real: string, isDir: boolean): Promise<void> {
    if (isDir) await cache.purgeUnder(real);
    else await cache.purge(real);
  }

  return {
    /**
     * A preview of `decoded` at `size`. Errors come in the protocol's order: a bad size 400,
     * then the path (403/404), then 501 for anything that is not an image (or a video, for
     * thumbnails).
     */
    async preview(user: UserRecord, size: string, decoded: string): Promise<PreviewResult> {
      if (size !== 'thumb' && size !== 'big') throw badRequest('invalid preview size');
      const { resolved } = await downloads.resolveExisting(user, decoded);
      return previewOf(resolved, size);
    },

    previewOf,

    /** Keeps the cache in step with changes made through Burrow. */
    onFileChanged,

    /** Drops the cached previews of whatever a file event changed, moved or removed. */
    async onFileEvent(event: FileEvent): Promise<void> {
      switch (event.kind) {
        case 'created':
        case 'modified':
          await onFileChanged(event.real, false);
          break;
        case 'deleted':
          await onFileChanged(event.real, event.isDir);
          break;
        case 'moved':
          await onFileChanged(event.fromReal, event.isDir);
          await onFileChanged(event.toReal, event.isDir);
          break;
        case 'copied':
          await onFileChanged(event.toReal, event.isDir);
          break;
      }
    },
  };
}
