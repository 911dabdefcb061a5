import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiTags,
  DownloadQuery,
  FileResponses,
  Headers,
  PublicSharePaths,
  Resource,
  ShareTokenParam,
  ShareTokenQuery,
  WildcardParams,
  mediaResponse,
  responses,
} from '@burrow/protocol';
import { notFound } from '../../errors.js';
import { describeFile, listFolder } from '../files/listing.js';
import { sendFile } from '../downloads/send-file.js';
import { sendArchive } from '../downloads/send-archive.js';
import { parseFilesParam } from '../downloads/request-input.js';
import type { ReadTarget } from '../downloads/downloads.service.js';
import type { PreviewsService } from '../previews/previews.service.js';
import { sendPreview } from '../previews/preview.routes.js';
import { subtitleOf } from '../previews/subtitles.service.js';
import { sendSubtitle } from '../previews/subtitle.routes.js';
import type { OpenShare, ShareAccess, ShareCredentials } from './share-access.js';
import { isProtected } from './shares.model.js';
import { decodedPathAfter, queryParam, splitHashAndPath } from './request-path.js';

/** Public listings always sort folders first, then A→Z (upstream's inverted `asc:false`). */
const PUBLIC_SORTING = { by: 'name', asc: false };

function credentialsOf(request: FastifyRequest): ShareCredentials {
  const header = request.headers[Headers.sharePassword];
  return {
    token: queryParam(request, ShareTokenParam),
    password: Array.isArray(header) ? header[0] : header,
    clientAddress: request.clientAddress,
  };
}

/** Opens the link named in the URL after `prefix` and resolves the visitor's sub-path in it. */
async function openFromUrl(access: ShareAccess, request: FastifyRequest, prefix: string) {
  const { hash, subPath } = splitHashAndPath(decodedPathAfter(request, prefix));
  const open = await access.open(hash, credentialsOf(request));
  const resolved = await open.resolve(subPath);
  return { open, resolved };
}

/** An entry a visitor may read: it exists and is not a dangling link. */
function existing(resolved: Awaited<ReturnType<OpenShare['resolve']>>): ReadTarget['resolved'] {
  if (!resolved.stat || resolved.stat.isSymbolicLink()) throw notFound();
  return resolved as ReadTarget['resolved'];
}

/** The share root's name: its base name, or the real folder name for a shared scope root. */
function rootName(open: OpenShare): string {
  return open.name || path.basename(open.target.real);
}

/** The JSON a visitor sees: the folder listing or the file, never the file's content. */
async function publicResource(open: OpenShare, resolved: Awaited<ReturnType<OpenShare['resolve']>>): Promise<Resource> {
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
}

/**
 * Public share endpoints (no login). Every one opens the link through `ShareAccess`, which
 * applies the protocol's checks in order (404, 401/429, 403) before anything is read; paths then
 * resolve inside the shared item only.
 */
export const publicSharesRoutes: FastifyPluginAsyncTypebox<{ access: ShareAccess; previews: PreviewsService }> = async (app, { access, previews }) => {
  const tags = [ApiTags.publicShares];
  // No login: the link itself (and its password or token, when protected) is the credential.
  const security: never[] = [];
  const pathParams = (url: string) => (url.endsWith('/*') ? { params: WildcardParams } : {});
  for (const url of [PublicSharePaths.share, `${PublicSharePaths.share}/*`]) {
    const schema = {
      summary: 'A shared folder listing or file (`{hash}/{path inside}`); X-SHARE-PASSWORD for a protected link',
      tags,
      security,
      ...pathParams(url),
      querystring: ShareTokenQuery,
      response: responses({ 200: Resource }),
    };
    app.get(url, { schema }, async (request) => {
      const { open, resolved } = await openFromUrl(access, request, PublicSharePaths.share);
      return publicResource(open, resolved);
    });
  }

  async function download(request: FastifyRequest, reply: FastifyReply) {
    const { open, resolved } = await openFromUrl(access, request, PublicSharePaths.download);
    const inline = queryParam(request, 'inline') === 'true';
    if (existing(resolved).stat.isDirectory()) {
      // Denied and hidden selections are judged by the archive plan, as the owner's own would be.
      return sendArchive(reply, open.scope, resolved.virtual, parseFilesParam(queryParam(request, 'files')), queryParam(request, 'algo'));
    }
    return sendFile(request, reply, resolved, { inline });
  }

  for (const url of [PublicSharePaths.download, `${PublicSharePaths.download}/*`]) {
    const schema = {
      summary: 'Download a shared file, or a shared folder (or a selection in it) as an archive',
      tags,
      security,
      ...pathParams(url),
      querystring: DownloadQuery,
      response: responses(FileResponses),
    };
    app.route({ method: ['GET', 'HEAD'], url, schema, handler: download });
  }

  /** `/api/public/preview/{thumb|big}/{hash}[/sub]`: previews of shared images (and video thumbnails). */
  async function preview(request: FastifyRequest, reply: FastifyReply) {
    const rest = decodedPathAfter(request, PublicSharePaths.preview).replace(/^\/+/, '');
    const slash = rest.indexOf('/');
    const size = slash === -1 ? rest : rest.slice(0, slash);
    const { hash, subPath } = splitHashAndPath(slash === -1 ? '' : rest.slice(slash));
    // The link is checked before anything about the request is judged, so a protected link
    // answers 401 whatever else is wrong.
    const open = await access.open(hash, credentialsOf(request));
    const resolved = existing(await open.resolve(subPath));
    return sendPreview(request, reply, await previews.previewOf(resolved, size), queryParam(request, 'inline') === 'true');
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PublicSharePaths.preview}/*`,
    schema: { summary: 'A preview (`{thumb|big}/{hash}/{path inside}`) of a shared image or video', tags, security, params: WildcardParams, querystring: ShareTokenQuery, response: responses(FileResponses) },
    handler: preview,
  });

  /** `/api/public/subtitle/{hash}[/sub]`: a shared subtitle converted to WebVTT for the player. */
  const subtitleSchema = {
    summary: 'A shared subtitle (`{hash}/{path inside}`) as WebVTT',
    tags,
    security,
    params: WildcardParams,
    querystring: ShareTokenQuery,
    response: responses({ 200: mediaResponse('The subtitle as WebVTT', ['text/vtt']) }),
  };
  app.get(`${PublicSharePaths.subtitle}/*`, { schema: subtitleSchema }, async (request, reply) => {
    const { resolved } = await openFromUrl(access, request, PublicSharePaths.subtitle);
    return sendSubtitle(reply, await subtitleOf(existing(resolved)), queryParam(request, 'inline') === 'true');
  });
};
