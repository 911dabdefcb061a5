import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app.js';
import { acceptWaitingConnections } from './accept-waiting.js';

// Over real sockets on 127.0.0.1: a crowd connects while the server's event loop is busy, and
// the server must take all of them at its next turn, not one per turn.

const CROWD = 40;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Opens `count` connections while the event loop is held up, so that all of them wait in the
 * kernel's queue when the loop next looks; resolves with how many the server had taken by the end
 * of that turn, and the sockets.
 */
async function crowdWhileBusy(server: net.Server, port: number, count: number): Promise<{ takenInOneTurn: number; sockets: net.Socket[] }> {
  let taken = 0;
  const onConnection = () => taken++;
  server.on('connection', onConnection);
  const sockets = Array.from({ length: count }, () => net.connect(port, '127.0.0.1'));
  for (const socket of sockets) closers.push(async () => void socket.destroy());
  // Connecting to an address starts on the next tick; the loop is held after those, until the
  // kernel has completed every handshake.
  process.nextTick(() => {
    const until = performance.now() + 150;
    while (performance.now() < until);
  });
  // The turn in which the first of them is taken ends with the immediates that follow its poll.
  await new Promise((resolve) => server.once('connection', resolve));
  await new Promise((resolve) => setImmediate(resolve));
  server.off('connection', onConnection);
  const takenInOneTurn = taken;
  await Promise.all(sockets.map((socket) => (socket.connecting ? new Promise((resolve) => socket.once('connect', resolve)) : undefined)));
  return { takenInOneTurn, sockets };
}

/** Sends one GET over a raw socket and resolves with the response head and body. */
function get(socket: net.Socket, path: string, headers = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (head >= 0 && length !== undefined && text.length >= head + 4 + Number(length)) resolve(text);
    });
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  });
}

describe('connections waiting to be accepted', () => {
  it('Node alone takes one per turn of a busy loop (why this exists)', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    const port = await listen(server);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { takenInOneTurn } = await crowdWhileBusy(server, port, CROWD);
    expect(takenInOneTurn).toBeLessThan(CROWD);
  });

  it('are all taken in one turn, and each is served as an ordinary connection', async () => {
    const server = http.createServer((request, response) => {
      response.setHeader('content-length', String(`${request.socket.remoteAddress} ${request.url}`.length));
      response.end(`${request.socket.remoteAddress} ${request.url}`);
    });
    acceptWaitingConnections(server);
    const port = await listen(server);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { takenInOneTurn, sockets } = await crowdWhileBusy(server, port, CROWD);
    expect(takenInOneTurn).toBe(CROWD);

    const answers = await Promise.all(sockets.map((socket, index) => get(socket, `/n${index}`)));
    answers.forEach((answer, index) => {
      expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
      expect(answer.endsWith(`127.0.0.1 /n${index}`)).toBe(true);
    });
    // Counted as the server's own, in and out, as close() relies on.
    const connections = () => new Promise<number>((resolve, reject) => server.getConnections((error, value) => (error ? reject(error) : resolve(value))));
    expect(await connections()).toBe(CROWD);
    for (const socket of sockets) socket.destroy();
    const until = Date.now() + 5000;
    while ((await connections()) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await connections()).toBe(0);
  });

  describe('Burrow', () => {
    let t: TestApp;
    afterEach(async () => {
      await t?.close();
    });

    it('answers a crowd that connected while it was busy, all let in at its next turn', async () => {
      t = await createTestApp();
      const token = await t.login();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const { takenInOneTurn, sockets } = await crowdWhileBusy(t.app.server, port, CROWD);
      expect(takenInOneTurn).toBe(CROWD);
      const answers = await Promise.all(sockets.map((socket) => get(socket, '/api/resources/', `X-Auth: ${token}\r\n`)));
      for (const answer of answers) {
        expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
        expect(answer).toContain('"isDir":true');
      }
    });
  });
});
