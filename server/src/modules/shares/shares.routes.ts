import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, CreateShareRequest, Share, ShareList, WildcardParams, jsonBody, responses, textResponse } from '@burrow/protocol';
import { pathAfter } from '../../http/request-path.js';
import { sendStatus } from '../../plugins/error-handler.js';
import type { SharesService } from './shares.service.js';

/** The authenticated share API (wire protocol §6). */
export const sharesRoutes: FastifyPluginAsyncTypebox<{ service: SharesService }> = async (app, { service }) => {
  // filebrowser's client posts the JSON body without a JSON content type: take any body as text
  // and let the service parse it (an empty body is a 400 there).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const tags = [ApiTags.shares];
  app.get(ApiPaths.shares, { preHandler: app.requireUser, schema: { summary: "The caller's share links (every link, for admins)", tags, response: responses({ 200: ShareList }) } }, async (request) => service.list(request.auth!.user));

  for (const url of [ApiPaths.share, `${ApiPaths.share}/*`]) {
    const params = url.endsWith('/*') ? { params: WildcardParams } : {};
    app.get(url, { preHandler: app.requireUser, schema: { summary: "The caller's links to a path", tags, ...params, response: responses({ 200: ShareList }) } }, async (request) => {
      return service.forPath(request.auth!.user, pathAfter(request.url, ApiPaths.share) || '/');
    });

    // Response schemas serialise through a whitelist too: a stray field could never leave.
    app.post(
      url,
      {
        preHandler: app.requireUser,
        schema: { summary: 'Share a path (or make a file request for a folder)', tags, ...params, documentedBody: jsonBody(CreateShareRequest, 'The link to make'), response: responses({ 200: Share }) },
      },
      async (request) => {
      return service.create(request.auth!.user, pathAfter(request.url, ApiPaths.share) || '/', request.body);
    });

    app.delete(url, { preHandler: app.requireUser, schema: { summary: 'Delete a link; the path is its hash', tags, ...params, response: responses({ 200: textResponse('Deleted') }) } }, async (request, reply) => {
      const hash = pathAfter(request.url, ApiPaths.share).replace(/^\/+|\/+$/g, '');
      await service.remove(request.auth!.user, hash);
      return sendStatus(reply, 200);
    });
  }
};
