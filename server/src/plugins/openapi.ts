import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { ErrorResponses, OpenApiPath } from '@burrow/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * A request body the route reads itself rather than through the router (file contents and
     * tus chunks as bytes, JSON that may be absent or sent as text). It appears in the OpenAPI
     * document as the request body; the router neither parses nor validates it.
     */
    documentedBody?: unknown;
  }
}

/**
 * Collects every route's schema for the OpenAPI 3.1 document. Registered before any route, since
 * routes are collected as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Burrow API',
        version,
        description:
          "Burrow's HTTP API, which follows filebrowser's wire protocol. Errors are plain-text status lines. " +
          'Paths ending in `/{*}` also answer without the wildcard part, for the scope root.',
      },
      components: {
        securitySchemes: {
          xAuth: { type: 'apiKey', in: 'header', name: 'X-Auth', description: 'The JWT from POST /api/login, or a personal API token' },
          authQuery: { type: 'apiKey', in: 'query', name: 'auth', description: 'The same token as a query parameter' },
          authCookie: { type: 'apiKey', in: 'cookie', name: 'auth', description: 'The same token as a cookie (GET requests only)' },
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (burrow_pat_…)' },
        },
      },
      security: [{ xAuth: [] }, { authQuery: [] }, { authCookie: [] }, { bearer: [] }],
    },
    // A body the route reads itself is documented as the request body, and only here.
    transform: ({ schema, url }) => {
      if (!schema || schema.documentedBody === undefined) return { schema, url };
      const { documentedBody, ...rest } = schema;
      return { schema: { ...rest, body: documentedBody }, url };
    },
  });
}

/**
 * `GET /api/openapi.json`: the generated document. It describes no secret, but it is part of the
 * API and so follows the API's rules: any signed-in user (or API token) may read it.
 */
export const openApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    OpenApiPath,
    {
      preHandler: app.requireUser,
      schema: {
        summary: 'This OpenAPI 3.1 document',
        tags: ['meta'],
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }), ...ErrorResponses },
      },
    },
    async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
};
