import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test-support/app.js';
import { isAllowedHost } from './allowed-hosts.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('allowed hosts', () => {
  it('matches names with any port, name:port exactly, sub-domain patterns and *', () => {
    const allowed = ['files.example.com', 'nas:8080', '*.home.arpa', '[::1]', '127.0.0.1'];
    for (const host of ['files.example.com', 'FILES.example.com:443', 'files.example.com.', 'nas:8080', 'a.home.arpa', 'b.c.home.arpa:80', '[::1]:8080', '127.0.0.1:1']) {
      expect(isAllowedHost(host, allowed), host).toBe(true);
    }
    for (const host of [undefined, '', 'attacker.example', 'files.example.com.attacker.example', 'nas', 'nas:8081', 'home.arpa', 'xhome.arpa', '[::2]', '127.0.0.2', 'a b', 'files.example.com:x']) {
      expect(isAllowedHost(host, allowed), String(host)).toBe(false);
    }
    expect(isAllowedHost('anything.example', ['*'])).toBe(true);
  });

  it('defaults to the listen address and the loopback names, or any host on every interface', () => {
    expect(resolveConfig({}).allowedHosts).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(resolveConfig({ address: '192.168.1.20' }).allowedHosts).toEqual(['192.168.1.20', 'localhost', '127.0.0.1', '[::1]']);
    expect(resolveConfig({ address: 'fd00::5' }).allowedHosts).toContain('[fd00::5]');
    expect(resolveConfig({ address: '0.0.0.0' }).allowedHosts).toEqual(['*']);
    expect(resolveConfig({ address: '::' }).allowedHosts).toEqual(['*']);
    // Set explicitly, the list holds on every interface too.
    expect(resolveConfig({ address: '0.0.0.0', allowedHosts: 'Files.Example.com, *.home.arpa' }).allowedHosts).toEqual(['files.example.com', '*.home.arpa']);
    expect(() => resolveConfig({ allowedHosts: 'http://files.example.com' })).toThrow(/allowedHosts/);
    expect(() => resolveConfig({ allowedHosts: ' , ' })).toThrow(/allowedHosts/);
  });

  it('answers 403 to a foreign Host before authentication, and leaves /health open', async () => {
    t = await createTestApp({ allowedHosts: 'files.example.com' });
    const evil = await t.app.inject({ method: 'POST', url: '/api/login', headers: { host: 'attacker.example' }, payload: { username: 'admin', password: 'x' } });
    expect(evil.statusCode).toBe(403);
    expect(evil.body).toBe('403 Forbidden\n');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { host: 'attacker.example' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/', headers: { host: 'attacker.example' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/health', headers: { host: 'attacker.example' } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { host: 'files.example.com' } })).statusCode).toBe(401);
  });
});
