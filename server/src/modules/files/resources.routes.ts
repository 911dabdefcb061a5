import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPaths, Headers } from '@burrow/protocol';
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

export const resourcesRoutes: FastifyPluginAsync<ResourcesDeps> = async (app, options) => {
  const files = options.files;
  const resources = ApiPaths.resources;
  const recursive = ApiPaths.resourcesRecursive;
  const maxBodyBytes = options.config.maxUploadSize;

  // Bodies are file contents of any size: they are streamed to disk by the service, so fastify
  // must neither parse nor buffer them (and no body limit applies).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const guard = { preHandler: app.requireUser };

  const getRecursive = async (request: FastifyRequest, reply: FastifyReply) => {
    const items = await files.recursive(request.auth!.user, pathAfter(request.url, recursive), disconnectSignal(reply));
    return reply.send(items);
  };
  app.get(recursive, guard, getRecursive);
  app.get(`${recursive}/*`, guard, getRecursive);

  const getResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.get(request.auth!.user, pathAfter(request.url, resources), {
      checksum: queryValue(request, 'checksum') || undefined,
      rawText: request.headers[Headers.encoding] === 'true',
    });
    if (result.kind === 'accepted') return reply.code(202).send();
    if (result.kind === 'raw') {
      return reply.header('content-type', 'application/octet-stream').header('content-length', String(result.size)).send(result.stream);
    }
    if (result.kind === 'jsonText') return reply.header('content-type', 'application/json; charset=utf-8').send(result.text);
    return reply.send(result.resource);
  };
  app.get(resources, guard, getResource);
  app.get(`${resources}/*`, guard, getResource);

  const postResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.create(request.auth!.user, pathAfter(request.url, resources), {
      override: isTrue(queryValue(request, 'override')),
      body: streamedBody(request, reply, maxBodyBytes),
    });
    if (result.etag) reply.header('etag', result.etag);
    return sendStatus(reply, 200);
  };
  app.post(resources, guard, postResource);
  app.post(`${resources}/*`, guard, postResource);

  const putResource = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await files.save(request.auth!.user, pathAfter(request.url, resources), streamedBody(request, reply, maxBodyBytes));
    if (result.etag) reply.header('etag', result.etag);
    return sendStatus(reply, 200);
  };
  app.put(resources, guard, putResource);
  app.put(`${resources}/*`, guard, putResource);

  const deleteResource = async (request: FastifyRequest, reply: FastifyReply) => {
    await files.remove(request.auth!.user, pathAfter(request.url, resources));
    return sendStatus(reply, 204);
  };
  app.delete(resources, guard, deleteResource);
  app.delete(`${resources}/*`, guard, deleteResource);

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
  app.patch(resources, guard, patchResource);
  app.patch(`${resources}/*`, guard, patchResource);

  // Known paths answer other methods with 405, as upstream's router does.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => sendStatus(reply, 405);
  for (const url of [resources, `${resources}/*`]) app.route({ method: ['OPTIONS', 'TRACE'], url, handler: notAllowed });
};
