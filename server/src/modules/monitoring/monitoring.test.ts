import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listening(overrides: Record<string, unknown>): Promise<{ t: TestApp; url: string }> {
  t = await createTestApp(overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  it('is off by default', async () => {
    const { url } = await listening({});
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('burrow_');
  });

  it('answers 404 when off, also to a client that may not read it', async () => {
    const { t } = await listening({ metricsToken: 'scrape-secret-1' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.8.7' });
    expect(response.statusCode).toBe(404);
  });

  it('counts requests by route and status, bytes both ways and login failures', async () => {
    const { t, url } = await listening({ metrics: true });
    const token = await t.login();
    fs.writeFileSync(path.join(t.root, 'file.bin'), Buffer.alloc(100_000, 7));
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}/api/raw/file.bin`, { headers: { 'x-auth': token } });
      expect((await response.arrayBuffer()).byteLength).toBe(100_000);
    }
    const upload = await fetch(`${url}/api/resources/up.bin`, { method: 'POST', headers: { 'x-auth': token }, body: Buffer.alloc(50_000, 1) });
    expect(upload.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const failed = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'wrong-password' }) });
      expect(failed.status).toBe(403);
    }

    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(sample(text, 'burrow_http_requests_total', { method: 'GET', route: '/api/raw/*', status: '200' })).toBe(3);
    expect(sample(text, 'burrow_http_request_duration_seconds_count', { method: 'GET', route: '/api/raw/*' })).toBe(3);
    expect(sample(text, 'burrow_downloaded_bytes_total', { route: '/api/raw/*' })).toBeGreaterThanOrEqual(300_000);
    expect(sample(text, 'burrow_uploaded_bytes_total', { route: '/api/resources/*' })).toBeGreaterThanOrEqual(50_000);
    expect(sample(text, 'burrow_login_failures_total')).toBe(2);
    // Process figures from the default collectors.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // The requested path never becomes a label.
    expect(text).not.toContain('file.bin');
  });

  it('counts requests refused by a rate limit', async () => {
    const { url } = await listening({ metrics: true });
    let limited = 0;
    for (let i = 0; i < 40 && limited === 0; i++) {
      const response = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: `wrong-${i}` }) });
      if (response.status === 429) limited++;
    }
    expect(limited).toBe(1);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(sample(text, 'burrow_rate_limited_total', { route: '/api/login' })).toBe(1);
  });

  it('counts archive jobs by format, and none in progress once they are sent', async () => {
    const { t, url } = await listening({ metrics: true });
    const token = await t.login();
    fs.mkdirSync(path.join(t.root, 'folder'));
    fs.writeFileSync(path.join(t.root, 'folder', 'a.txt'), 'a');
    for (const algo of ['zip', 'tar', 'targz']) {
      const response = await fetch(`${url}/api/raw/folder?algo=${algo}`, { headers: { 'x-auth': token } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const format of ['zip', 'tar', 'targz']) expect(sample(text, 'burrow_archive_jobs_total', { format }), format).toBe(1);
    expect(sample(text, 'burrow_archive_jobs_in_progress')).toBe(0);
  });

  it('reports resumable uploads in progress and tus chunks', async () => {
    const { t, url } = await listening({ metrics: true });
    const token = await t.login();
    const created = await fetch(`${url}/api/tus/big.bin`, { method: 'POST', headers: { 'x-auth': token, 'tus-resumable': '1.0.0', 'upload-length': '10' } });
    expect(created.status).toBe(201);
    const chunk = await fetch(`${url}/api/tus/big.bin`, {
      method: 'PATCH',
      headers: { 'x-auth': token, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(4, 1),
    });
    expect(chunk.status).toBe(204);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(sample(text, 'burrow_uploads_in_progress')).toBe(1);
    expect(sample(text, 'burrow_tus_chunks_total', { status: '204' })).toBe(1);
  });

  it('reports the search index size once it is built', async () => {
    const { t, url } = await listening({ metrics: true });
    for (let i = 0; i < 25; i++) fs.writeFileSync(path.join(t.root, `n${i}.txt`), '');
    await t.app.services.search.rescan();
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(sample(text, 'burrow_search_index_entries')).toBeGreaterThanOrEqual(25);
    expect(sample(text, 'burrow_search_index_complete')).toBe(1);
    expect(sample(text, 'burrow_search_index_lag_seconds')).toBe(0);
  });

  it('asks for the bearer token when one is set, and compares it whole', async () => {
    const { url } = await listening({ metrics: true, metricsToken: 'scrape-secret-1' });
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(await none.text()).toBe('401 Unauthorized\n');
    expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-secret-1x' } })).status).toBe(401);
    const good = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-secret-1' } });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('burrow_http_requests_total');
  });

  it('serves only the listed addresses, judged by the direct peer and never by X-Forwarded-For', async () => {
    const { url } = await listening({ metrics: true, metricsAllowedAddresses: '10.1.2.3,192.168.0.0/16' });
    const refused = await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('403 Forbidden\n');
  });

  it('does not answer the metrics of another address when only loopback may read', async () => {
    const { t } = await listening({ metrics: true });
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
  });
});

describe('/health', () => {
  it('tells live from ready: ready waits for the first index build and a reachable database', async () => {
    const { t, url } = await listening({});
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'OK' });
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
    await t.app.services.search.ready();
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', index: 'ready' });

    await t.app.services.db.destroy();
    const broken = await fetch(`${url}/health/ready`);
    expect(broken.status).toBe(503);
    expect(await broken.json()).toMatchObject({ status: 'not ready', database: 'unreachable' });
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
  });
});
