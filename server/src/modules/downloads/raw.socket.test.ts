import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { writeFile } from './test-fixtures.js';

// /api/raw over a real socket, where files are sent by the kernel when it can: the bytes,
// lengths and headers must be those of the streamed path the injected tests see.

let t: TestApp;
let token: string;
let port: number;
const content = crypto.randomBytes(6 * 1024 * 1024 + 4321);

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  writeFile(t.root, '/media/big.bin', content);
});
afterEach(async () => {
  await t.close();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request on a kept-alive connection, so a response that sends too much or too little breaks the next. */
function get(agent: http.Agent, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: url, method, agent, headers: { 'x-auth': token, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.setTimeout(20_000, () => request.destroy(new Error('request timed out')));
    request.on('error', reject);
    request.end();
  });
}

describe('GET /api/raw over a socket', () => {
  it('sends whole files and ranges byte for byte with the usual headers, on one connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const whole = await get(agent, '/api/raw/media/big.bin');
      expect(whole.status).toBe(200);
      expect(whole.headers['content-length']).toBe(String(content.length));
      expect(whole.headers['content-type']).toBe('application/octet-stream');
      expect(whole.headers['content-disposition']).toContain('attachment');
      expect(whole.headers['x-frame-options']).toBe('DENY');
      expect(whole.body.equals(content)).toBe(true);

      const range = await get(agent, '/api/raw/media/big.bin', { range: 'bytes=1000-5000999' });
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 1000-5000999/${content.length}`);
      expect(range.body.equals(content.subarray(1000, 5001000))).toBe(true);

      const head = await get(agent, '/api/raw/media/big.bin', {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect(head.body.length).toBe(0);

      const again = await get(agent, '/api/raw/media/big.bin', { range: 'bytes=-10' });
      expect(again.body.equals(content.subarray(content.length - 10))).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
