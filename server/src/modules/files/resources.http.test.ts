import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFilesHarness, namesIn, type FilesHarness } from './files.test-support.js';
import { listRecursive } from './listing.js';

/** Real sockets on 127.0.0.1: what app.inject cannot show (a client vanishing mid-request). */
let h: FilesHarness;
let port: number;
beforeEach(async () => {
  h = await createFilesHarness();
  await h.t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.t.app.server.address() as AddressInfo).port;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
  return check();
}

describe('client disconnects', () => {
  it('an aborted upload leaves the old file intact and no staging file behind', async () => {
    h.put('up/target.bin', 'original');
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/resources/up/target.bin?override=true',
      headers: { 'x-auth': h.admin, 'content-type': 'application/octet-stream', 'content-length': String(8 * 1024 * 1024) },
    });
    request.on('error', () => undefined);
    request.write(Buffer.alloc(256 * 1024, 1));
    // Wait until the server has staged part of the body (in its own folder, not beside the
    // target), then vanish.
    const staging = path.join(h.t.config.cacheDir, 'uploads');
    const staged = () => fs.existsSync(staging) && namesIn(staging).some((name) => name.endsWith('.write'));
    expect(await waitFor(staged)).toBe(true);
    expect(namesIn(h.real('up'))).toEqual(['target.bin']);
    request.destroy();
    expect(await waitFor(() => !staged())).toBe(true);
    expect(namesIn(h.real('up'))).toEqual(['target.bin']);
    expect(h.read('up/target.bin')).toBe('original');
    // The listing never shows the staging file, even while it exists.
    const listing = await h.api(h.admin, 'GET', '/up/');
    expect(listing.json().items.map((item: { name: string }) => item.name)).toEqual(['target.bin']);
  });

  it('a streamed upload over a real socket is written completely', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 3);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/resources/streamed.bin', headers: { 'x-auth': h.admin, 'transfer-encoding': 'chunked' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      for (let offset = 0; offset < body.length; offset += 512 * 1024) request.write(body.subarray(offset, offset + 512 * 1024));
      request.end();
    });
    expect(status).toBe(200);
    expect(fs.readFileSync(h.real('streamed.bin')).equals(body)).toBe(true);
  });

  it('the recursive listing stops walking when the client goes away', async () => {
    for (let index = 0; index < 200; index++) h.put(`tree/d${String(index).padStart(3, '0')}/f.txt`, 'x');
    const realReaddir = fs.promises.readdir;
    let calls = 0;
    vi.spyOn(fs.promises, 'readdir').mockImplementation((async (...args: Parameters<typeof realReaddir>) => {
      // Only the walk of this request counts (other modules may index the tree meanwhile).
      if (new Error().stack?.includes('listRecursive')) {
        calls++;
        await sleep(30);
      }
      return realReaddir(...args);
    }) as typeof realReaddir);
    const request = http.get({ host: '127.0.0.1', port, path: '/api/resources/recursive/tree', headers: { 'x-auth': h.admin } });
    request.on('error', () => undefined);
    expect(await waitFor(() => calls >= 3)).toBe(true);
    request.destroy();
    await sleep(300);
    const afterDisconnect = calls;
    await sleep(400);
    // A full walk would read 201 folders (about 6 s here); it stopped right after the disconnect.
    expect(calls).toBe(afterDisconnect);
    expect(calls).toBeLessThan(40);
  });
});

describe('listRecursive', () => {
  it('throws AbortError once the signal fires', async () => {
    for (let index = 0; index < 20; index++) h.put(`walk/d${index}/f.txt`, 'x');
    const scope = await h.t.app.services.scopes.forUser((await h.t.app.services.usersRepository.findById(1))!);
    const resolved = await scope.resolve('/walk', 'read');
    const controller = new AbortController();
    controller.abort();
    await expect(listRecursive(scope, resolved, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await listRecursive(scope, resolved)).toHaveLength(40);
  });
});
