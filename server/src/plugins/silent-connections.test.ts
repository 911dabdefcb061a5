import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app.js';

// Over real sockets: a connection that never sends a request is closed after headersTimeout;
// one that sends a request keeps its connection for that request however long it takes, and for
// the keep-alive time after it.

const TIMEOUT_MS = 800;
let t: TestApp;
let token: string;
let port: number;

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  t.app.server.headersTimeout = TIMEOUT_MS;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterEach(async () => {
  await t.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw connection that records what it receives and when it closed. */
function connect(): Promise<{ socket: net.Socket; received: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let closed = false;
    const socket = net.connect(port, '127.0.0.1', () => resolve({ socket, received: () => text, closed: () => closed }));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => (closed = true));
    socket.on('error', reject);
  });
}

describe('connections that send nothing', () => {
  it('are closed once headersTimeout has passed without a request', async () => {
    const silent = await connect();
    await sleep(TIMEOUT_MS * 3);
    expect(silent.closed()).toBe(true);
    expect(silent.received()).toBe('');
  });

  it('keep a request that takes longer than headersTimeout, and the keep-alive time after it', async () => {
    const client = await connect();
    const body = Buffer.alloc(4000, 'b');
    client.socket.write(`POST /api/resources/slow.txt?override=true HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth: ${token}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`);
    // The body trickles in over three timeouts.
    for (let index = 0; index < 4; index++) {
      await sleep(TIMEOUT_MS * 0.75);
      client.socket.write(body.subarray(index * 1000, (index + 1) * 1000));
    }
    const until = Date.now() + 10_000;
    while (!client.received().includes('\r\n\r\n') && Date.now() < until) await sleep(20);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(fs.readFileSync(path.join(t.root, 'slow.txt'), 'utf8')).toBe(body.toString());
    // Idle after its request, the connection waits for the next one (keepAliveTimeout).
    await sleep(TIMEOUT_MS * 2);
    expect(client.closed()).toBe(false);
    client.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await sleep(300);
    expect(client.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    client.socket.destroy();
  });
});
