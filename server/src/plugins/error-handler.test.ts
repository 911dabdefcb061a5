import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { badRequest, conflict, forbidden, tooManyRequests } from '../errors.js';
import { errorHandlerPlugin, sendStatus, toAppError } from './error-handler.js';
import { readCookie } from './cookies.js';

let app: FastifyInstance;
let logged: string[];

beforeEach(async () => {
  logged = [];
  const stream = { write: (line: string) => logged.push(line) };
  app = Fastify({ logger: { level: 'error', stream } });
  await app.register(errorHandlerPlugin);
  const systemError = (code: string) => Object.assign(new Error(`${code}: /srv/secret/path`), { code });
  app.get('/throw/:kind', async (request) => {
    const { kind } = request.params as { kind: string };
    switch (kind) {
      case 'bad-request':
        throw badRequest('password is too easy');
      case 'forbidden':
        throw forbidden('detail never shown');
      case 'conflict':
        throw conflict();
      case 'limited':
        throw tooManyRequests(12.2);
      case 'internal':
        throw new Error('database password is hunter2');
      default:
        throw systemError(kind);
    }
  });
  app.post('/typed', { schema: { body: Type.Object({ count: Type.Integer() }) } }, async () => 'ok');
  app.get('/status/:code', async (request, reply) => sendStatus(reply, Number((request.params as { code: string }).code)));
  await app.ready();
});
afterEach(async () => {
  await app.close();
});

describe('the error translator', () => {
  it('writes filebrowser status lines, with a detail on 400 only', async () => {
    const bad = await app.inject({ method: 'GET', url: '/throw/bad-request' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe('400 Bad Request (password is too easy)\n');
    expect(bad.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
    const denied = await app.inject({ method: 'GET', url: '/throw/forbidden' });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toBe('403 Forbidden\n');
    expect((await app.inject({ method: 'GET', url: '/throw/conflict' })).body).toBe('409 Conflict\n');
  });

  it('maps system errors and never echoes their paths', async () => {
    const cases: Array<[string, number]> = [
      ['ENOENT', 404],
      ['ENOTDIR', 404],
      ['EEXIST', 409],
      ['ENOTEMPTY', 409],
      ['EACCES', 403],
      ['EPERM', 403],
      ['ENOSPC', 507],
      ['ENAMETOOLONG', 400],
      ['EISDIR', 400],
      ['EIO', 500],
    ];
    for (const [code, status] of cases) {
      const response = await app.inject({ method: 'GET', url: `/throw/${code}` });
      expect(response.statusCode, code).toBe(status);
      expect(response.body, code).not.toContain('/srv/secret');
    }
  });

  it('hides unexpected errors behind 500 and logs them with the request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/throw/internal' });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('500 Internal Server Error\n');
    expect(response.body).not.toContain('hunter2');
    const entry = logged.map((line) => JSON.parse(line) as { msg: string; reqId?: string; err?: { message: string } }).find((line) => line.msg === 'request failed');
    expect(entry?.err?.message).toContain('hunter2');
    expect(entry?.reqId).toBeTruthy();
  });

  it('turns schema failures, malformed JSON and oversized bodies into 400 and 413', async () => {
    const invalid = await app.inject({ method: 'POST', url: '/typed', payload: { count: 'many' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toMatch(/^400 Bad Request \(.*count.*\)\n$/);
    const malformed = await app.inject({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: '{"count":' });
    expect(malformed.body).toBe('400 Bad Request (malformed JSON)\n');
    const empty = await app.inject({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    const large = await app.inject({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: `{"count":1,"pad":"${'x'.repeat(1024 * 1024)}"}` });
    expect(large.statusCode).toBe(413);
    const type = await app.inject({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/x-unknown' }, payload: 'x' });
    expect(type.statusCode).toBe(415);
  });

  it('passes Retry-After along with 429', async () => {
    const response = await app.inject({ method: 'GET', url: '/throw/limited' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('13');
    expect(response.body).toBe('429 Too Many Requests\n');
  });

  it('writes success lines too, and nothing for 204', async () => {
    expect((await app.inject({ method: 'GET', url: '/status/200' })).body).toBe('200 OK\n');
    expect((await app.inject({ method: 'GET', url: '/status/201' })).body).toBe('201 Created\n');
    const empty = await app.inject({ method: 'GET', url: '/status/204' });
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
  });

  it('maps values that are not errors at all to 500', () => {
    expect(toAppError(undefined).status).toBe(500);
    expect(toAppError('text').status).toBe(500);
  });

  it('keeps the status of other client errors where the taxonomy knows it', () => {
    expect(toAppError({ statusCode: 404 }).status).toBe(404);
    expect(toAppError({ statusCode: 405 }).status).toBe(405);
    expect(toAppError({ statusCode: 413 }).status).toBe(413);
    expect(toAppError({ statusCode: 415 }).status).toBe(415);
    expect(toAppError({ statusCode: 418 }).status).toBe(400);
    expect(toAppError({ statusCode: 503 }).status).toBe(500);
  });
});

describe('readCookie', () => {
  it('finds one cookie among many, decoded, and ignores look-alikes', () => {
    expect(readCookie('a=1; auth=x.y.z; b=2', 'auth')).toBe('x.y.z');
    expect(readCookie('xauth=nope; auth=%61b', 'auth')).toBe('ab');
    expect(readCookie(' auth = "quoted" ', 'auth')).toBe('quoted');
    expect(readCookie('other=1', 'auth')).toBeUndefined();
    expect(readCookie(undefined, 'auth')).toBeUndefined();
    expect(readCookie('auth=%E0%A4%A', 'auth')).toBeUndefined();
    expect(readCookie('garbage; auth=t', 'auth')).toBe('t');
  });
});
