import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectStageBytes } from '../../storage/direct-io.js';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { fileSha256, randomBytes, rawRequest, type RawResponse, sha256, sleep, tusUrl, uploadRows, waitFor } from './tus.test-support.js';

// A large body reaches the staging file in aligned blocks gathered in memory: a test sends at least
// one stage buffer's worth, and the first of it on disk tells it that the server is writing.
const FIRST = DirectStageBytes;
const writing = async () => (await stagingSize()) > 0;

// Real HTTP on 127.0.0.1: concurrent writers, client aborts and keep-alive need a socket.
let t: TestApp;
let token: string;
let port: number;

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterEach(async () => {
  await t.close();
});

const patchHeaders = (offset: number, length: number) => ({
  'x-auth': token,
  'tus-resumable': '1.0.0',
  'content-type': 'application/offset+octet-stream',
  'upload-offset': offset,
  'content-length': length,
});

async function create(virtual: string, length: number, override = false) {
  const response = await rawRequest(port, { method: 'POST', path: tusUrl(virtual, override), headers: { 'x-auth': token, 'upload-length': length } });
  expect(response.status).toBe(201);
}

const stagingSize = async () => {
  const [row] = await uploadRows(t);
  return row ? fs.statSync(row.stagingPath).size : -1;
};

/** Starts a PATCH whose body the test feeds by hand; returns the request and its pending response. */
function slowPatch(virtual: string, offset: number, length: number) {
  let request!: http.ClientRequest;
  const response = rawRequest(port, {
    method: 'PATCH',
    path: tusUrl(virtual),
    headers: patchHeaders(offset, length),
    body: (outgoing) => {
      request = outgoing;
      outgoing.flushHeaders();
    },
  });
  return { request: () => request, response };
}

describe('one writer per upload', () => {
  it('answers 423 to a second PATCH (and to a replacing POST) while the first is running; a DELETE waits for it', async () => {
    const data = randomBytes(FIRST + 300_000, 5);
    await create('/locked.bin', data.length);
    const first = slowPatch('/locked.bin', 0, data.length);
    first.request().write(data.subarray(0, FIRST));
    await waitFor(writing, 10_000, 'first bytes on disk');

    const second = await rawRequest(port, { method: 'PATCH', path: tusUrl('/locked.bin'), headers: patchHeaders(0, 10), body: Buffer.alloc(10) });
    expect(second.status).toBe(423);
    expect(second.body).toBe('423 Locked\n');
    // A terminating client usually drops its PATCH just before the DELETE: the DELETE waits a
    // moment for the writer instead of failing at once.
    const remove = rawRequest(port, { method: 'DELETE', path: tusUrl('/locked.bin'), headers: { 'x-auth': token } });
    const replace = await rawRequest(port, { method: 'POST', path: tusUrl('/locked.bin', true), headers: { 'x-auth': token, 'upload-length': 5 } });
    expect(replace.status).toBe(423);
    const head = await rawRequest(port, { method: 'HEAD', path: tusUrl('/locked.bin'), headers: { 'x-auth': token } });
    expect(head.status).toBe(200);
    expect(head.headers['upload-length']).toBe(String(data.length));

    first.request().end(data.subarray(FIRST));
    const done = await first.response;
    expect(done.status).toBe(204);
    expect(done.headers['upload-offset']).toBe(String(data.length));
    expect(fileSha256(path.join(t.root, 'locked.bin'))).toBe(sha256(data));
    // The DELETE ran after the writer finished: it forgets the finished upload and leaves the
    // file that upload placed alone.
    expect((await remove).status).toBe(204);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fileSha256(path.join(t.root, 'locked.bin'))).toBe(sha256(data));
  });

  it('a DELETE still held off after its wait gets 423 and removes nothing', async () => {
    const data = randomBytes(FIRST + 200_000, 7);
    await create('/held.bin', data.length);
    const first = slowPatch('/held.bin', 0, data.length);
    first.request().write(data.subarray(0, FIRST));
    await waitFor(writing, 10_000, 'first bytes on disk');
    const remove = await rawRequest(port, { method: 'DELETE', path: tusUrl('/held.bin'), headers: { 'x-auth': token } });
    expect(remove.status).toBe(423);
    expect(await stagingSize()).toBeGreaterThan(0);
    first.request().end(data.subarray(FIRST));
    expect((await first.response).status).toBe(204);
  });

  it('a DELETE right after the client dropped its PATCH terminates the upload', async () => {
    const data = randomBytes(FIRST + 250_000, 8);
    await create('/dropped.bin', data.length);
    const patch = slowPatch('/dropped.bin', 0, data.length);
    patch.response.catch(() => undefined);
    patch.request().write(data.subarray(0, FIRST));
    await waitFor(writing, 10_000, 'bytes on disk');
    patch.request().destroy();
    const remove = await rawRequest(port, { method: 'DELETE', path: tusUrl('/dropped.bin'), headers: { 'x-auth': token } });
    expect(remove.status).toBe(204);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fs.readdirSync(path.join(t.config.cacheDir, 'uploads'))).toEqual([]);
    expect(fs.existsSync(path.join(t.root, 'dropped.bin'))).toBe(false);
  });
});

describe('completion re-checks the gate', () => {
  it('refuses (403) to finish into a folder swapped for an escaping link during the last PATCH', async () => {
    const data = randomBytes(FIRST + 100_000, 6);
    fs.mkdirSync(path.join(t.root, 'drop'));
    await create('/drop/file.bin', data.length);
    const last = slowPatch('/drop/file.bin', 0, data.length);
    last.request().write(data.subarray(0, FIRST));
    await waitFor(writing, 10_000, 'first bytes on disk');
    fs.renameSync(path.join(t.root, 'drop'), path.join(t.root, 'drop-away'));
    fs.symlinkSync(t.outside, path.join(t.root, 'drop'));
    last.request().end(data.subarray(FIRST));
    const response = await last.response;
    expect(response.status).toBe(403);
    expect(fs.readdirSync(t.outside)).toEqual([]);
    expect(fs.readdirSync(path.join(t.root, 'drop-away'))).toEqual([]);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fs.readdirSync(path.join(t.config.cacheDir, 'uploads'))).toEqual([]);
  });
});

describe('client aborts', () => {
  it('keeps the bytes received before the connection dropped, and the upload resumes from there', async () => {
    const data = randomBytes(FIRST + 600_000, 9);
    await create('/aborted.bin', data.length);
    const patch = slowPatch('/aborted.bin', 0, data.length);
    patch.response.catch(() => undefined);
    // A whole stage buffer and part of the next: what waits in the buffer is written when the
    // connection drops, however much of it had arrived by then.
    patch.request().write(data.subarray(0, FIRST + 250_001));
    await waitFor(writing, 10_000, 'bytes on disk');
    await sleep(100);
    patch.request().destroy();

    // The writer lets go once it has synced what arrived; the stored offset is what is on disk.
    await waitFor(async () => ((await uploadRows(t))[0]?.offset ?? 0) > 0, 10_000, 'offset recorded');
    const reached = (await uploadRows(t))[0]!.offset;
    expect(reached).toBeLessThanOrEqual(FIRST + 250_001);
    const head = await rawRequest(port, { method: 'HEAD', path: tusUrl('/aborted.bin'), headers: { 'x-auth': token } });
    expect(head.headers['upload-offset']).toBe(String(reached));
    expect(await stagingSize()).toBe(reached);
    expect(fs.existsSync(path.join(t.root, 'aborted.bin'))).toBe(false);

    const rest = await rawRequest(port, { method: 'PATCH', path: tusUrl('/aborted.bin'), headers: patchHeaders(reached, data.length - reached), body: data.subarray(reached) });
    expect(rest.status).toBe(204);
    expect(fileSha256(path.join(t.root, 'aborted.bin'))).toBe(sha256(data));
  });
});

describe('keep-alive after rejected bodies', () => {
  it('drains a rejected body so the next request reuses the connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await create('/ka.bin', 2_000_000);
      const chunk = randomBytes(1_000_000, 2);
      const stale = await rawRequest(port, { method: 'PATCH', path: tusUrl('/ka.bin'), headers: patchHeaders(5, chunk.length), body: chunk, agent });
      expect(stale.status).toBe(409);
      const tooLong = await rawRequest(port, { method: 'PATCH', path: tusUrl('/ka.bin'), headers: patchHeaders(0, 3_000_000), body: Buffer.alloc(3_000_000), agent });
      expect(tooLong.status).toBe(413);
      const wrongType = await rawRequest(port, { method: 'PATCH', path: tusUrl('/ka.bin'), headers: { ...patchHeaders(0, chunk.length), 'content-type': 'text/plain' }, body: chunk, agent });
      expect(wrongType.status).toBe(415);
      expect(wrongType.reusedSocket).toBe(true);
      const good = await rawRequest(port, { method: 'PATCH', path: tusUrl('/ka.bin'), headers: patchHeaders(0, chunk.length), body: chunk, agent });
      expect(good.status).toBe(204);
      expect(good.reusedSocket).toBe(true);
      expect(await stagingSize()).toBe(chunk.length);
    } finally {
      agent.destroy();
    }
  });

  it('closes the connection instead of reading more than 32 MiB of a rejected body', async () => {
    await create('/big-reject.bin', 10);
    const size = 40 * 1024 * 1024;
    let closed = false;
    const response = await rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/big-reject.bin'),
      headers: patchHeaders(3, size),
      body: (request) => {
        request.on('socket', (socket) => socket.on('close', () => (closed = true)));
        const piece = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += piece.length;
            if (!request.write(piece)) return void request.once('drain', pump);
          }
          request.end();
        };
        request.on('error', () => undefined);
        pump();
      },
    }).catch((error: Error): RawResponse => ({ status: 0, headers: {}, body: error.message, reusedSocket: false }));
    // Depending on timing the client sees the 409 or a reset while still sending; either way the
    // server stopped reading and closed the connection.
    if (response.status !== 0) {
      expect(response.status).toBe(409);
      expect(response.headers.connection).toBe('close');
    }
    await waitFor(() => closed, 10_000, 'connection closed');
    await sleep(10);
    expect(await stagingSize()).toBe(0);
  });
});
