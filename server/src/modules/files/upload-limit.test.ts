import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilesHarness, namesIn, type FilesHarness } from './files.test-support.js';

// The maxUploadSize setting, over real sockets: a declared length and a chunked body alike.
const Limit = 64 * 1024;
let h: FilesHarness;
let port: number;
beforeEach(async () => {
  h = await createFilesHarness({ maxUploadSize: Limit });
  await h.t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.t.app.server.address() as AddressInfo).port;
});
afterEach(async () => {
  await h.close();
});

type Answer = { status: number; body: string; connection?: string };

function send(method: string, path: string, headers: Record<string, string>, body: Buffer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers: { 'x-auth': h.admin, ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, connection: response.headers.connection }));
    });
    // The server may close the connection before the whole body is sent; the answer still counts.
    request.on('error', (error) => (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error));
    for (const part of body) request.write(part);
    request.end();
  });
}

describe('the upload size limit', () => {
  it('refuses a body declared larger than the limit before writing anything', async () => {
    h.put('up/kept.bin', 'original');
    const body = Buffer.alloc(Limit + 1, 7);
    const answer = await send('POST', '/api/resources/up/kept.bin?override=true', { 'content-length': String(body.length) }, [body]);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe('413 Request Entity Too Large\n');
    expect(answer.connection).toBe('close');
    expect(h.read('up/kept.bin')).toBe('original');
    expect(namesIn(h.real('up'))).toEqual(['kept.bin']);
  });

  it('stops a chunked body once it passes the limit and leaves nothing behind', async () => {
    h.put('up/kept.bin', 'original');
    const parts = Array.from({ length: 4 }, () => Buffer.alloc(Limit / 2, 3));
    const answer = await send('PUT', '/api/resources/up/kept.bin', { 'transfer-encoding': 'chunked' }, parts);
    expect(answer.status).toBe(413);
    expect(h.read('up/kept.bin')).toBe('original');
    expect(namesIn(h.real('up'))).toEqual(['kept.bin']);
    const created = await send('POST', '/api/resources/up/new.bin', { 'transfer-encoding': 'chunked' }, parts);
    expect(created.status).toBe(413);
    expect(namesIn(h.real('up'))).toEqual(['kept.bin']);
  });

  it('accepts bodies up to the limit, with or without a declared length', async () => {
    const exact = Buffer.alloc(Limit, 1);
    expect((await send('POST', '/api/resources/exact.bin', { 'content-length': String(exact.length) }, [exact])).status).toBe(200);
    expect((await send('POST', '/api/resources/chunked.bin', { 'transfer-encoding': 'chunked' }, [exact.subarray(0, 1000), exact.subarray(1000)])).status).toBe(200);
    expect(h.read('exact.bin').length).toBe(Limit);
    expect(h.read('chunked.bin').length).toBe(Limit);
  });

  it('applies to a resumable upload’s declared length too', async () => {
    const refused = await send('POST', '/api/tus/big.bin', { 'upload-length': String(Limit + 1), 'tus-resumable': '1.0.0' }, []);
    expect(refused.status).toBe(413);
    const accepted = await send('POST', '/api/tus/small.bin', { 'upload-length': String(Limit), 'tus-resumable': '1.0.0' }, []);
    expect(accepted.status).toBe(201);
  });
});
