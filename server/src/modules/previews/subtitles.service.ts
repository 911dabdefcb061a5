import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { badRequest, payloadTooLarge } from '../../errors.js';
import { baseName } from '../../storage/virtual-path.js';
import type { DownloadsService, ReadTarget } from '../downloads/downloads.service.js';
import type { UserRecord } from '../users/users.model.js';
import { decodeSubtitle, SUBTITLE_EXTENSIONS, toWebVtt, type SubtitleExtension } from './subtitles.js';

/** Subtitle files are small; anything larger is not one worth converting in memory. */
export const MAX_SUBTITLE_BYTES = 10 * 1024 * 1024;

export type SubtitlesService = ReturnType<typeof createSubtitlesService>;

export function createSubtitlesService({ downloads }: { downloads: DownloadsService }) {
  return {
    /** A subtitle file as WebVTT, with the name to offer for it. 400 for folders and other files. */
    async subtitle(user: UserRecord, decoded: string): Promise<{ name: string; vtt: string }> {
      const { resolved } = await downloads.resolveExisting(user, decoded);
      return subtitleOf(resolved);
    },

    subtitleOf,
  };
}

/**
 * A subtitle entry already resolved through a scope gate, as WebVTT: `subtitle` resolves in the
 * user's scope, public share links resolve inside the shared folder.
 */
export async function subtitleOf(resolved: ReadTarget['resolved']): Promise<{ name: string; vtt: string }> {
  const name = baseName(resolved.virtual);
  const extension = path.extname(name).toLowerCase();
  if (!resolved.stat.isFile() || !(SUBTITLE_EXTENSIONS as readonly string[]).includes(extension)) throw badRequest('not a subtitle file');
  if (resolved.stat.size > MAX_SUBTITLE_BYTES) throw payloadTooLarge('subtitle file too large');
  const handle = await fsp.open(resolved.real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  let bytes: Buffer;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw badRequest('not a subtitle file');
    if (stat.size > MAX_SUBTITLE_BYTES) throw payloadTooLarge('subtitle file too large');
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const vtt = toWebVtt(extension as SubtitleExtension, decodeSubtitle(bytes));
  return { name: name.slice(0, name.length - extension.length) + '.vtt', vtt };
}
