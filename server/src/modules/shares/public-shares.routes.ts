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
import { sendFile } from '../../http/send-file.js';
import { sendArchive } from '../downloads/send-archive.js';
import { parseFilesParam } from '../downloads/request-input.js';
import { sendPreview, sendSubtitle } from '../previews/preview-replies.js';
import type { ShareCredentials } from './share-access.js';
import type { PublicSharesService } from './public-shares.service.js';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import { splitHashAndPath } from './request-path.js';

function credentialsOf(request: FastifyRequest): ShareCredentials {
  const header = request.headers[Headers.sharePassword];
  return {
    token: queryValue(request, ShareTokenParam),
    password: Array.isArray(header) ? header[0] : header,
    clientAddress: request.clientAddress,
  };
}

/** The link hash and the visitor's sub-path named in the URL after `prefix`. */
function linkFromUrl(request: FastifyRequest, prefix: string) {
  return splitHashAndPath(pathAfter(request.url, prefix));
}

/**
 * Public share endpoints (no login). Each hands the link named in the URL and the visitor's
 * credentials to the public shares service, which checks the link before anything is read, and
 * sends what it answers.
 */
export const publicSharesRoutes: FastifyPluginAsyncTypebox<{ publicShares: PublicSharesService }> = async (app, { publicShares }) => {
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
      const { hash, subPath } = linkFromUrl(request, PublicSharePaths.share);
      return publicShares.resource(hash, subPath, credentialsOf(request));
    });
  }

  async function download(request: FastifyRequest, reply: FastifyReply) {
    const { hash, subPath } = linkFromUrl(request, PublicSharePaths.download);
    const target = await publicShares.download(hash, subPath, credentialsOf(request));
    const inline = queryValue(request, 'inline') === 'true';
    if (target.kind === 'archive') {
      return sendArchive(reply, target.scope, target.virtual, parseFilesParam(queryValue(request, 'files')), queryValue(request, 'algo'));
    }
    return sendFile(request, reply, target.resolved, { inline });
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
    const rest = pathAfter(request.url, PublicSharePaths.preview).replace(/^\/+/, '');
    const slash = rest.indexOf('/');
    const size = slash === -1 ? rest : rest.slice(0, slash);
    const { hash, subPath } = splitHashAndPath(slash === -1 ? '' : rest.slice(slash));
    const result = await publicShares.preview(hash, subPath, size, credentialsOf(request));
    return sendPreview(request, reply, result, queryValue(request, 'inline') === 'true');
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
    const { hash, subPath } = linkFromUrl(request, PublicSharePaths.subtitle);
    return sendSubtitle(reply, await publicShares.subtitle(hash, subPath, credentialsOf(request)), queryValue(request, 'inline') === 'true');
  });
};
