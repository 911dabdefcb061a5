import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app.js';
import { createRouteTable } from './route-table.js';

describe('the route table', () => {
  it('finds the methods of static, parametric and wildcard routes', () => {
    const table = createRouteTable();
    table.record({ method: 'POST', url: '/api/login', handler: () => undefined });
    table.record({ method: ['GET', 'HEAD'], url: '/api/raw/*', handler: () => undefined });
    table.record({ method: 'DELETE', url: '/api/share/:hash', handler: () => undefined });
    expect(table.allowedMethods('/api/login')).toEqual(['POST']);
    expect(table.allowedMethods('/api/raw/a/b.txt?inline=true')).toEqual(['GET', 'HEAD']);
    expect(table.allowedMethods('/api/share/abc')).toEqual(['DELETE']);
    expect(table.allowedMethods('/api/nothing')).toEqual([]);
  });
});

describe('a known API path asked with the wrong method', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('gets 405 with Allow; unknown paths still get 404', async () => {
    t = await createTestApp();
    const token = await t.login();
    const login = await t.app.inject({ method: 'DELETE', url: '/api/login' });
    expect(login.statusCode).toBe(405);
    expect(login.body).toBe('405 Method Not Allowed\n');
    expect(login.headers.allow).toBe('POST');
    const settings = await t.request(token, { method: 'PATCH', url: '/api/settings' });
    expect(settings.statusCode).toBe(405);
    expect(String(settings.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'PUT']));
    const unknown = await t.request(token, { method: 'POST', url: '/api/no-such-endpoint' });
    expect(unknown.statusCode).toBe(404);
    // Routes that exist keep answering as before.
    expect((await t.request(token, { method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
  });
});
