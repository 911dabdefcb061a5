import { WildcardParams, mediaResponse } from '@burrow/protocol';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Scopes } from '../../storage/scopes.js';
import { pathAfter } from '../../http/request-path.js';
import { toAppError } from '../../plugins/error-handler.js';
import type { FilesService } from '../files/files.service.js';
import type { DavContext } from './context.js';
import type { DeadProperties } from './dead-properties.js';
import { lock, unlock } from './lock-methods.js';
import type { LockStore } from './locks.js';
import { copyOrMove, DAV_METHODS, get, mkcol, options, put, remove } from './methods.js';
import { DAV_PREFIX } from './paths.js';
import { propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import { DavError, sendCondition, sendPlain } from './responses.js';
import type { DavAuthenticator } from './webdav-auth.js';

export type WebdavDeps = {
  config: Config;
  scopes: Pick<Scopes, 'forUser'>;
  files: FilesService;
  /** Locks and dead properties, kept current by file events in the composition root. */
  webdav: { locks: LockStore; properties: DeadProperties; authenticator: DavAuthenticator };
};

/** Methods fastify does not know by default, and whether they carry a body. */
const EXTRA_METHODS: Array<[string, boolean]> = [
  ['PROPFIND', true],
  ['PROPPATCH', true],
  ['MKCOL', true],
  ['COPY', true],
  ['MOVE', true],
  ['LOCK', true],
  ['UNLOCK', true],
];

const BASIC_CHALLENGE = 'Basic realm="Burrow", charset="UTF-8"';

type Handler = (ctx: DavContext) => Promise<unknown>;

const HANDLERS: Record<string, Handler> = {
  GET: get,
  HEAD: get,
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  COPY: (ctx) => copyOrMove(ctx, 'copy'),
  MOVE: (ctx) => copyOrMove(ctx, 'move'),
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  LOCK: lock,
  UNLOCK: unlock,
};

/**
 * WebDAV (RFC 4918, classes 1 and 2) at `/dav/`: each user sees their own scope, through the
 * same gate, permissions, hooks, file events and atomic writer as the files API, by calling
 * the files service. Users sign in with HTTP Basic (their Burrow password, under the login's
 * guess limits) or send an API token.
 */
export const webdavModule: FastifyPluginAsync<WebdavDeps> = async (app, { config, scopes, files, webdav }) => {
  const { locks, properties, authenticator } = webdav;

  for (const [method, hasBody] of EXTRA_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody });
  }

  // Bodies are file contents or XML, read (or streamed) by the handlers themselves.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.setErrorHandler((error: FastifyError | DavError, request: FastifyRequest, reply: FastifyReply) => {
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    if (error instanceof DavError) {
      return error.condition ? sendCondition(reply, error.status, error.condition) : sendPlain(reply, error.status);
    }
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error, reqId: request.id }, 'WebDAV request failed');
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    if (appError.status === 401) reply.header('www-authenticate', BASIC_CHALLENGE);
    return sendPlain(reply, appError.status);
  });

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    if (request.method === 'OPTIONS') return options({ reply });
    const handler = HANDLERS[request.method];
    if (!handler) return sendPlain(reply.header('allow', DAV_METHODS.join(', ')), 405);
    const user = await authenticator.authenticate(request);
    // Locks taken through other instances count here too.
    await locks.sync();
    const ctx: DavContext = {
      request,
      reply,
      user,
      scope: await scopes.forUser(user),
      path: pathAfter(request.url, DAV_PREFIX),
      config,
      files,
      locks,
      properties,
    };
    return handler(ctx);
  }

  const methods = [...DAV_METHODS];
  // WebDAV (RFC 4918) is a protocol of its own, with XML bodies and methods OpenAPI cannot name:
  // its routes are declared (any status, any media type) but left out of the OpenAPI document.
  const davSchema = (url: string) => ({
    hide: true,
    description: 'WebDAV class 1 and 2 (see the README)',
    ...(url.endsWith('/*') ? { params: WildcardParams } : {}),
    response: { default: mediaResponse('A WebDAV answer', ['*/*']) },
  });
  app.route({ method: methods, url: DAV_PREFIX, schema: davSchema(DAV_PREFIX), handler: handle });
  app.route({ method: methods, url: `${DAV_PREFIX}/*`, schema: davSchema(`${DAV_PREFIX}/*`), handler: handle });
  // Windows' WebDAV client asks the server root what it offers before it opens a folder below.
  app.route({ method: 'OPTIONS', url: '/', schema: davSchema('/'), handler: async (_request, reply) => options({ reply }) });
};
