import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenApiPath } from '@burrow/protocol';
import { createTestApp, makeUser, loginAs, type TestApp } from '../test-support/app.js';

type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('route schemas', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, { beforeRoutes: (app) => void app.addHook('onRoute', (route) => void routes.push(route)) });
  });
  afterAll(async () => t.close());

  it('are declared by every route: its responses, and a schema for each path parameter', () => {
    expect(routes.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const route of routes) {
      const name = `${String(route.method)} ${route.url}`;
      const schema = route.schema as { response?: object; params?: { properties?: Record<string, unknown> } } | undefined;
      if (!schema?.response) missing.push(`${name}: no responses`);
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      if (route.url.endsWith('*')) names.push('*');
      for (const param of names) {
        if (!schema?.params?.properties?.[param]) missing.push(`${name}: no schema for the path parameter ${param}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  let t: TestApp;
  let token: string;
  let doc: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

  /** Checks a real response against the document's schema for its path, method, status and media type. */
  function conforms(path: string, method: string, response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const status = String(response.statusCode);
    const declared = operation!.responses[status] ?? operation!.responses[`${status[0]}XX`];
    expect(declared, `${method} ${path} documents ${status}`).toBeDefined();
    const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!declared!.content) {
      expect(response.body, `${method} ${path} ${status} has no body`).toBe('');
      return;
    }
    const media = declared!.content[mediaType] ?? declared!.content['*/*'];
    expect(media, `${method} ${path} ${status} documents ${mediaType}`).toBeDefined();
    if (mediaType !== 'application/json') return;
    const validate = ajv.compile(media!.schema as object);
    const body: unknown = JSON.parse(response.body);
    expect(validate(body) ? [] : validate.errors, `${method} ${path} ${status}`).toEqual([]);
  }

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    const response = await t.request(token, { method: 'GET', url: OpenApiPath });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(async () => t.close());

  it('is OpenAPI 3.1 and follows the API auth rules', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((await t.app.inject({ method: 'GET', url: OpenApiPath })).statusCode).toBe(401);
    await makeUser(t, { username: 'reader' });
    expect((await t.request(await loginAs(t, 'reader'), { method: 'GET', url: OpenApiPath })).statusCode).toBe(200);
  });

  it('documents the main endpoints, and leaves WebDAV out', () => {
    for (const path of ['/api/login', '/api/resources/{*}', '/api/raw/{*}', '/api/users/{id}', '/api/settings', '/api/share/{*}', '/api/public/share/{*}', '/api/tus/{*}', '/api/search/{*}', '/api/trash']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(doc.paths['/api/resources/{*}']!.patch).toBeDefined();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/dav'))).toEqual([]);
  });

  it('matches what the main endpoints answer', async () => {
    const call = async (method: string, url: string, path: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const response = await t.request(token, { method: method as 'GET', url, payload: payload as string, headers });
      conforms(path, method, response);
      return response;
    };
    await call('POST', '/api/resources/docs/', '/api/resources/{*}');
    const created = await call('POST', '/api/resources/docs/a.txt', '/api/resources/{*}', 'hello', { 'content-type': 'application/octet-stream' });
    expect(created.statusCode).toBe(200);
    expect((await call('GET', '/api/resources/docs/', '/api/resources/{*}')).statusCode).toBe(200);
    expect((await call('GET', '/api/resources/docs/a.txt?checksum=sha256', '/api/resources/{*}')).json().checksums.sha256).toHaveLength(64);
    await call('GET', '/api/resources/docs/missing.txt', '/api/resources/{*}');
    await call('GET', '/api/resources/recursive/docs', '/api/resources/recursive/{*}');
    await call('PATCH', '/api/resources/docs/a.txt?action=copy&destination=%2Fdocs%2Fb.txt', '/api/resources/{*}');
    await call('GET', '/api/raw/docs/a.txt', '/api/raw/{*}');
    await call('GET', '/api/usage/docs', '/api/usage/{*}');
    await call('GET', '/api/users', '/api/users');
    await call('GET', '/api/users/1', '/api/users/{id}');
    await call('GET', '/api/settings', '/api/settings');
    const share = await call('POST', '/api/share/docs/a.txt', '/api/share/{*}', JSON.stringify({ expires: '1', unit: 'days' }));
    expect(share.statusCode).toBe(200);
    await call('GET', '/api/shares', '/api/shares');
    const hash = share.json().hash as string;
    const publicShare = await t.app.inject({ method: 'GET', url: `/api/public/share/${hash}` });
    conforms('/api/public/share/{*}', 'GET', publicShare);
    expect(publicShare.json().name).toBe('a.txt');
    await call('GET', '/api/trash', '/api/trash');
    await call('DELETE', '/api/resources/docs/b.txt', '/api/resources/{*}');
    await call('GET', '/api/tokens', '/api/tokens');
    await call('POST', '/api/tokens', '/api/tokens', { name: 'ci', preset: 'readOnly' });
    await call('GET', '/api/two-factor', '/api/two-factor');
    await call('GET', '/api/search/docs?query=a', '/api/search/{*}');
    await call('GET', '/api/audit', '/api/audit');
    await call('GET', '/health', '/health');
  });
});
