import path from 'node:path';
import type { Resource } from '@burrow/protocol';
import { notFound } from '../../errors.js';
import type { Scope } from '../../storage/scoped-fs.js';
import { describeFile, listFolder } from '../files/listing.js';
import type { ReadTarget } from '../downloads/downloads.service.js';
import type { PreviewResult, PreviewsService } from '../previews/previews.service.js';
import type { SubtitlesService } from '../previews/subtitles.service.js';
import type { OpenShare, ShareAccess, ShareCredentials } from './share-access.js';
import { isProtected } from './shares.model.js';

/** Public listings always sort folders first, then A→Z (upstream's inverted `asc:false`). */
const PUBLIC_SORTING = { by: 'name', asc: false };

export type PublicSharesDeps = {
  access: ShareAccess;
  previews: Pick<PreviewsService, 'previewOf'>;
  subtitles: Pick<SubtitlesService, 'subtitleOf'>;
};

/** What a visitor's download is: a folder streamed as an archive, or one file. */
export type PublicDownload = { kind: 'archive'; scope: Scope; virtual: string } | { kind: 'file'; resolved: ReadTarget['resolved'] };

export type PublicSharesService = ReturnType<typeof createPublicSharesService>;

/** An entry a visitor may read: it exists and is not a dangling link. */
function existing(resolved: Awaited<ReturnType<OpenShare['resolve']>>): ReadTarget['resolved'] {
  if (!resolved.stat || resolved.stat.isSymbolicLink()) throw notFound();
  return resolved as ReadTarget['resolved'];
}

/** The share root's name: its base name, or the real folder name for a shared scope root. */
function rootName(open: OpenShare): string {
  return open.name || path.basename(open.target.real);
}

/**
 * What visitors of a public link may do, each through `ShareAccess` first (which applies the
 * protocol's checks in order: 404, 401/429, 403) and then inside the shared item only: read its
 * listing or details, download it, see previews and subtitles.
 */
export function createPublicSharesService(deps: PublicSharesDeps) {
  const { access, previews, subtitles } = deps;

  /** Opens the link and resolves the visitor's sub-path in it. */
  async function openAt(hash: string, subPath: string, credentials: ShareCredentials) {
    const open = await access.open(hash, credentials);
    const resolved = await open.resolve(subPath);
    return { open, resolved };
  }

  return {
    /** The JSON a visitor sees: the folder listing or the file, never the file's content. */
    async resource(hash: string, subPath: string, credentials: ShareCredentials): Promise<Resource> {
      const { open, resolved } = await openAt(hash, subPath, credentials);
      let resource: Resource;
      if (resolved.stat?.isDirectory()) {
        resource = await listFolder(open.scope, resolved, PUBLIC_SORTING);
        resource.name = rootName(open);
        if (resolved.virtual === '/') resource.path = '/';
      } else {
        // Visitors never edit: text is reported immutable, and the content stays behind downloads.
        resource = await describeFile(open.scope, resolved, { content: false, user: { perm: { modify: false } } });
        resource.path = open.isDir ? resolved.virtual : '';
        // Subtitle paths of a shared file would be owner-scope paths; within a folder they are share-relative.
        if (!open.isDir) delete resource.subtitles;
      }
      if (isProtected(open.share)) resource.token = open.share.token;
      return resource;
    },

    /** A download: folders as archives (their selection judged by the archive plan, as the owner's own would be), files as they are. */
    async download(hash: string, subPath: string, credentials: ShareCredentials): Promise<PublicDownload> {
      const { open, resolved } = await openAt(hash, subPath, credentials);
      const target = existing(resolved);
      if (target.stat.isDirectory()) return { kind: 'archive', scope: open.scope, virtual: target.virtual };
      return { kind: 'file', resolved: target };
    },

    /**
     * A preview of a shared image (or a video thumbnail). The link is checked before anything
     * about the request is judged, so a protected link answers 401 whatever else is wrong.
     */
    async preview(hash: string, subPath: string, size: string, credentials: ShareCredentials): Promise<PreviewResult> {
      const open = await access.open(hash, credentials);
      const resolved = existing(await open.resolve(subPath));
      return previews.previewOf(resolved, size);
    },

    /** A shared subtitle converted to WebVTT. */
    async subtitle(hash: string, subPath: string, credentials: ShareCredentials): Promise<{ name: string; vtt: string }> {
      const { resolved } = await openAt(hash, subPath, credentials);
      return subtitles.subtitleOf(existing(resolved));
    },
  };
}
