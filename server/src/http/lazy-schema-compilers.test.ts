import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import Fastify, { type RouteOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('lazy schema compilers', () => {
  it('validate and serialize as Fastify does, compiling each route on its first request', async () => {
    const app = Fastify({ schemaController: lazySchemaCompilers() });
    app.post(
      '/items',
      {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer' } } },
          querystring: { type: 'object', properties: { dry: { type: 'boolean' } } },
          response: { 200: { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' }, dry: { type: 'boolean' } } } },
        },
      },
      async (request) => ({ ...(request.body as object), dry: (request.query as { dry?: boolean }).dry, secret: 'never sent' }),
    );
    // A schema that cannot compile does not stop the start: its route fails on use.
    app.get('/broken', { schema: { querystring: { type: 'no such type' } } }, async () => 'unreachable');
    await app.ready();

    const missing = await app.inject({ method: 'POST', url: '/items', payload: { count: 2 } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("body must have required property 'name'");
    const wrongType = await app.inject({ method: 'POST', url: '/items', payload: { name: 'a', count: 'many' } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe('body/count must be integer');

    const good = await app.inject({ method: 'POST', url: '/items?dry=true', payload: { name: 'a', count: 2 } });
    expect(good.statusCode).toBe(200);
    // Coerced from the query string, and only the declared fields go out.
    expect(good.json()).toEqual({ name: 'a', count: 2, dry: true });
    // The compiled functions are kept: a second failure reports its own errors, not the first's.
    const again = await app.inject({ method: 'POST', url: '/items', payload: { name: '' } });
    expect(again.json().message).toBe('body/name must NOT have fewer than 1 characters');

    expect((await app.inject({ method: 'GET', url: '/broken' })).statusCode).toBe(500);
    await app.close();
  });

  it('leave no route of the server with a schema that does not compile', async () => {
    const routes: RouteOptions[] = [];
    t = await createTestApp({}, { beforeRoutes: (app) => void app.addHook('onRoute', (route) => void routes.push(route)) });
    const validator = AjvCompiler()({}, { customOptions: {}, plugins: [] });
    const serializer = SerializerSelector()({}, {});
    let compiled = 0;
    for (const route of routes) {
      const schema = route.schema as Record<string, unknown> | undefined;
      if (!schema) continue;
      const method = String(route.method);
      for (const httpPart of ['body', 'querystring', 'params', 'headers'] as const) {
        if (!schema[httpPart]) continue;
        expect(() => validator({ schema: schema[httpPart] as object, method, url: route.url, httpPart }), `${method} ${route.url} ${httpPart}`).not.toThrow();
        compiled++;
      }
      for (const [httpStatus, response] of Object.entries((schema.response ?? {}) as Record<string, Record<string, unknown>>)) {
        const content = response.content as Record<string, { schema: object }> | undefined;
        const schemas = content ? Object.entries(content).map(([contentType, entry]) => ({ contentType, schema: entry.schema })) : [{ contentType: undefined, schema: response }];
        for (const { contentType, schema: body } of schemas) {
          if (contentType !== undefined && !contentType.includes('json')) continue;
          expect(() => serializer({ schema: body, method, url: route.url, httpStatus }), `${method} ${route.url} ${httpStatus}`).not.toThrow();
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });
});
