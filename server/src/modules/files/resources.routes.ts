import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ApiPaths,
  ApiTags,
  FirstItemsMax,
  Headers,
  OverrideQuery,
  PatchQuery,
  RecursiveItem,
  Resource,
  ResourceQuery,
  WildcardParams,
  binaryBody,
  binaryResponse,
  emptyResponse,
  mediaResponse,
  responses,
  textResponse,
} from '@burrow/protocol';
import type { Config } from '../../config.js';
import { sendStatus } from '../../plugins/error-handler.js';
import { badRequest } from '../../errors.js';
import { decodePathComponent } from '../../storage/virtual-path.js';
import { queryValue } from '../../http/query.js';
import { pathAfter } from '../../http/request-path.js';
import type { FilesService } from './files.service.js';
import { streamedBody } from './request-body.js';

const isTrue = (value: string | undefined) => value === 'true';


/**
 * Fires when the client goes away before the response is complete. The response emits `close`
 * both after a normal finish and when the connection drops early; only the latter aborts.
 */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * `/api/resources/recursive…` and `/api/resources…`: listings, file details, create, save,
 * delete, copy and move. Handlers only translate HTTP to service calls and back.
 */
export type ResourcesDeps = { files: FilesService; config: Pick<Config, 'maxUploadSize'> };

export const resourcesRoutes: FastifyPluginAsyncTypebox<ResourcesDeps> = async (app, options) => {
  const files = options.files;
  const resources = ApiPaths.resources;
  const recursive = ApiPaths.resourcesRecursive;
  const maxBodyBytes = options.config.maxUploadSize;

  // Bodies are file contents of any size: they are streamed to disk by the service, so fastify
  // must neither parse nor buffer them (and no body limit applies).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const guard = { preHandler: app.requireUser };
  const tags = [ApiTags.resources];
  /** The path parameter of the wildcard form of a route. */
  const pathParams = (url: string) => (url.endsWith('/*') ? { params: WildcardParams } : {});
  const fileBody = binaryBody('The file contents');

  const getRecursive = async (request: FastifyRequest, reply: FastifyReply) => {
    const items = await files.recursive(request.auth!.user, pathAfter(request.url, recursive), disconnectSignal(reply));
    return reply.send(items);
  };
  for (const url of [recursive, `${recursive}/*`]) {
    app.get(url, { ...guard, schema: { summary: 'Everything below a folder, flat', tags, ...pathParams(url), response: responses({ 200: Type.Array(RecursiveItem) }) } }, getRecursive);
  }

  /** `?first=`: a whole number from 1 to `FirstItemsMax`, or absent. */
  const firstItems = (value: string | undefined) => {
    if (value === undefined || value === '') return undefined;
    const first = /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
    if (!(first >= 1 && first <= FirstItemsMax)) throw badRequest(`first must be a whole number from 1 to ${FirstItemsMax}`);
    return first;
  };

  const getResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.get(request.auth!.user, pathAfter(request.url, resources), {
      checksum: queryValue(request, 'checksum') || undefined,
      rawText: request.headers[Headers.encoding] === 'true',
      first: firstItems(queryValue(request, 'first')),
    });
    if (result.kind === 'accepted') return reply.code(202).send();
    if (result.kind === 'raw') {
      return reply.header('content-type', 'application/octet-stream').header('content-length', String(result.size)).send(result.stream);
    }
    if (result.kind === 'jsonText') {
      reply.header('content-type', 'application/json; charset=utf-8');
      if (result.text.length === 1) return reply.send(result.text[0]);
      const length = result.text.reduce((sum, part) => sum + part.length, 0);
      return reply.header('content-length', String(length)).send(Readable.from(result.text, { objectMode: false }));
    }
    return reply.send(result.resource);
  };
  for (const url of [resources, `${resources}/*`]) {
    app.get(
      url,
      {
        ...guard,
        schema: {
          summary: 'A folder listing, or a file with its details (and its text content up to 10 MiB); with `X-Encoding: true` the raw bytes of a text file',
          tags,
          ...pathParams(url),
          querystring: ResourceQuery,
          response: responses({
            200: { description: 'The folder or file', content: { ...mediaResponse('', ['application/json'], Resource).content, ...binaryResponse('').content } },
            202: emptyResponse('The user may not download, so no content is given'),
          }),
        },
      },
      getResource,
    );
  }

  const postResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.create(request.auth!.user, pathAfter(request.url, resources), {
      override: isTrue(queryValue(request, 'override')),
      body: streamedBody(request, reply, maxBodyBytes),
    });
    if (result.etag) reply.header('etag', result.etag);
    return sendStatus(reply, 200);
  };
  for (const url of [resources, `${resources}/*`]) {
    app.post(
      url,
      {
        ...guard,
        schema: {
          summary: 'Create a file with the body as contents, or a folder when the path ends in /',
          tags,
          ...pathParams(url),
          querystring: OverrideQuery,
          documentedBody: fileBody,
          response: responses({ 200: textResponse('Created; ETag names the new contents') }),
        },
      },
      postResource,
    );
  }

  const putResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.save(request.auth!.user, pathAfter(request.url, resources), streamedBody(request, reply, maxBodyBytes));
    if (result.etag) reply.header('etag', result.etag);
    return sendStatus(reply, 200);
  };
  for (const url of [resources, `${resources}/*`]) {
    app.put(
      url,
      { ...guard, schema: { summary: 'Replace the contents of an existing file', tags, ...pathParams(url), documentedBody: fileBody, response: responses({ 200: textResponse('Saved; ETag names the new contents') }) } },
      putResource,
    );
  }

  const deleteResource = async (request: FastifyRequest, reply: FastifyReply) => {
    await files.remove(request.auth!.user, pathAfter(request.url, resources));
    return sendStatus(reply, 204);
  };
  for (const url of [resources, `${resources}/*`]) {
    app.delete(url, { ...guard, schema: { summary: 'Delete (to the trash when it is on)', tags, ...pathParams(url), response: responses({ 204: emptyResponse('Deleted') }) } }, deleteResource);
  }

  const patchResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const destination = queryValue(request, 'destination');
    // The front end encodes the destination twice; the query parser undid one layer.
    if (destination === undefined) throw badRequest('missing destination');
    await files.patch(request.auth!.user, pathAfter(request.url, resources), {
      action: queryValue(request, 'action') ?? '',
      destination: decodePathComponent(destination),
      override: isTrue(queryValue(request, 'override')),
      rename: isTrue(queryValue(request, 'rename')),
    });
    return sendStatus(reply, 200);
  };
  for (const url of [resources, `${resources}/*`]) {
    app.patch(
      url,
      { ...guard, schema: { summary: 'Copy or move (rename) to `destination`', tags, ...pathParams(url), querystring: PatchQuery, response: responses({ 200: textResponse('Done') }) } },
      patchResource,
    );
  }

  // Known paths answer other methods with 405, as upstream's router does.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => sendStatus(reply, 405);
  for (const url of [resources, `${resources}/*`]) {
    app.route({ method: ['OPTIONS', 'TRACE'], url, schema: { hide: true, ...pathParams(url), response: responses({}) }, handler: notAllowed });
  }
};
