import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { NO_FAST_PATHS_ENV } from '../../storage/libc.js';
import { writeFile } from './test-fixtures.js';

// A download whose client stops reading is cut after `sendTimeout`, so it does not hold its
// connection, the file and the kernel path's descriptors for as long as it stays connected; a
// client that reads slowly but steadily keeps its download.

const SIZE = 48 * 1024 * 1024;
/**
 * Seconds of the send timeout. Without the C library fast paths the socket's queue cannot be
 * read, so progress shows only when the kernel takes more, once half its buffer (a few MiB on
 * loopback) has gone: a 1 MiB/s reader needs a window longer than that.
 */
const SEND_TIMEOUT_S = process.env[NO_FAST_PATHS_ENV] === '1' ? 3 : 1;

let t: TestApp;
let token: string;
let port: number;

beforeEach(async () => {
  t = await createTestApp({ sendTimeout: SEND_TIMEOUT_S });
  token = await t.login();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  // Larger than the socket buffers of both ends together, so a client that stops reading stalls the sender.
  writeFile(t.root, '/big.bin', crypto.randomBytes(SIZE));
});
afterEach(async () => {
  await t.close();
});

const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;

/** Sends a GET for the big file on a raw socket; `onSocket` decides how the client reads. */
function download(onSocket: (socket: net.Socket) => void): Promise<{ bytes: number; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let bytes = 0;
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/raw/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth: ${token}\r\n\r\n`);
      onSocket(socket);
    });
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ bytes, closedAfterMs: Date.now() - started }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`still connected after 20 s with ${bytes} bytes`));
    }, 20_000).unref();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== 'linux')('sendTimeout over a socket', () => {
  it('cuts a download whose client stops reading, and frees its descriptors', async () => {
    // The client's own socket is one descriptor more in this process.
    const before = openDescriptors() + 1;
    let during = 0;
    let after = 0;
    const result = await download((socket) => {
      // Reads the headers and a little, then nothing more until the server had time to give up.
      // (The first bytes, not a time: a fast machine sends the whole file within milliseconds.)
      socket.once('data', () => {
        socket.pause();
        void (async () => {
          await sleep(300);
          during = openDescriptors();
          // The file and the duplicated descriptors go with the connection, within two timeouts.
          const until = Date.now() + 5000 * SEND_TIMEOUT_S;
          while (openDescriptors() > before && Date.now() < until) await sleep(50);
          after = openDescriptors();
          // A paused socket sees nothing: read again to learn the connection is gone.
          socket.resume();
        })();
      });
    });
    expect(during).toBeGreaterThan(before);
    expect(after).toBeLessThanOrEqual(before);
    expect(result.bytes).toBeLessThan(SIZE);
  });

  it('keeps a download whose client reads slowly but steadily', async () => {
    const steadyMs = 4000;
    const rate = 1024 * 1024;
    const result = await download((socket) => {
      // 1 MiB a second for four send timeouts, then as fast as it can.
      const started = Date.now();
      let bytes = 0;
      let timer: NodeJS.Timeout | undefined;
      socket.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // The server closes nothing on its own once all bytes are sent: end the exchange there.
        if (bytes >= SIZE) socket.end();
        const elapsed = Date.now() - started;
        const ahead = elapsed < steadyMs ? (bytes / rate) * 1000 - elapsed : 0;
        if (ahead > 0) {
          socket.pause();
          clearTimeout(timer);
          timer = setTimeout(() => socket.resume(), Math.min(ahead, steadyMs - elapsed));
        }
      });
      socket.on('close', () => clearTimeout(timer));
    });
    expect(result.closedAfterMs).toBeGreaterThan(steadyMs);
    // Headers plus the whole body.
    expect(result.bytes).toBeGreaterThan(SIZE);
  });
});
