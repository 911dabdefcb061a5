import diagnostics from 'node:diagnostics_channel';
import type { FastifyReply } from 'fastify';
import { ArchiveFormats, type ArchiveFormat } from '@burrow/protocol';
import type { Scope } from '../../storage/scoped-fs.js';
import { planArchive } from './archive-entries.js';
import { createArchiveStream } from './archive-stream.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { RAW_CSP } from '../../http/inline-policy.js';
import { parseArchiveFormat } from './request-input.js';

const ARCHIVE_TYPES: Record<ArchiveFormat, string> = {
  zip: 'application/zip',
  tar: 'application/x-tar',
  targz: 'application/gzip',
  tarbz2: 'application/x-bzip2',
  tarxz: 'application/x-xz',
  tarlz4: 'application/x-lz4',
  tarsz: 'application/x-snappy-framed',
  tarbr: 'application/x-brotli',
  tarzst: 'application/zstd',
};

/** Where archive streams are announced: `{ format, ended }` once when one starts (ended resolves when it is over), for monitoring. */
export const archiveChannel = diagnostics.channel('burrow.archive');
export type ArchiveAnnouncement = { format: ArchiveFormat; ended: Promise<void> };

/**
 * Streams an archive of a folder, or of a selection inside it, as `/api/raw` does for folders.
 * `baseVirtual` is the requested folder in `scope`; `fileList` holds the decoded `files=`
 * elements relative to it (empty: the folder itself); `algo` is the raw `algo=` value.
 * Everything is checked before the first byte, so errors still get a proper status; after that
 * the archive has no length and cannot be ranged. Public share downloads call this with a
 * narrowed scope.
 */
export async function sendArchive(reply: FastifyReply, scope: Scope, baseVirtual: string, fileList: string[], algo: string | undefined): Promise<FastifyReply> {
  const format = parseArchiveFormat(algo);
  const plan = await planArchive(scope, baseVirtual, fileList);
  reply.header('content-disposition', contentDisposition('attachment', plan.baseName + ArchiveFormats[format]));
  reply.header('content-type', ARCHIVE_TYPES[format]);
  reply.header('cache-control', 'private');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', RAW_CSP);
  if (reply.request.method === 'HEAD') return reply.send();
  const stream = await createArchiveStream(scope, plan, format);
  if (archiveChannel.hasSubscribers) {
    const ended = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
    archiveChannel.publish({ format, ended } satisfies ArchiveAnnouncement);
  }
  return reply.send(stream);
}
