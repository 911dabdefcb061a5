// Several Burrow instances as a load balancer sees them: a private, throwaway PostgreSQL cluster
// (initdb in a temporary folder, listening on a free 127.0.0.1 port, removed when stopped) and a
// round-robin HTTP proxy in front of the instances. Used by the benchmarks and the browser tests.
import http from 'node:http';
import { startPrivatePostgres } from './private-postgres.mjs';

/**
 * Starts a private PostgreSQL; `createDatabase(name)` resolves with a URL, `stop()` removes it all.
 * Durability is off: the data is thrown away.
 */
export function startPostgres() {
  return startPrivatePostgres(['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200']);
}

/**
 * A round-robin HTTP proxy on a free 127.0.0.1 port: each request, and each WebSocket upgrade,
 * goes to the next backend in turn. A backend that refuses the connection is skipped for that
 * request while nothing of the body has been sent, as a load balancer's health checks would
 * arrange; one that fails midway cuts the client's connection. `served[i]` counts the answers
 * backend i gave; `setBackend(i, port)` points backend i at a restarted instance.
 */
export async function startProxy(backends) {
  const ports = [...backends];
  const served = ports.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set();
  let next = 0;
  const pick = () => next++ % ports.length;
  const statusLine = (response) => {
    const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
    for (let at = 0; at < response.rawHeaders.length; at += 2) lines.push(`${response.rawHeaders[at]}: ${response.rawHeaders[at + 1]}`);
    return lines.join('\r\n') + '\r\n\r\n';
  };

  const forward = (incoming, outgoing, tries) => {
    const index = pick();
    const headers = { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '' };
    const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers, agent }, (response) => {
      served[index] += 1;
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
      response.on('error', () => outgoing.destroy());
    });
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      incoming.pipe(upstream);
    };
    upstream.on('error', (error) => {
      if (!started && error.code === 'ECONNREFUSED' && tries > 1) {
        forward(incoming, outgoing, tries - 1);
        return;
      }
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
      incoming.destroy();
    });
    upstream.on('socket', (socket) => {
      // A reused keep-alive socket is connected already.
      if (socket.connecting) socket.once('connect', start);
      else start();
    });
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
  };

  const server = http.createServer((incoming, outgoing) => forward(incoming, outgoing, ports.length));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (incoming, socket, head) => {
    const index = pick();
    const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers: incoming.headers });
    upstream.on('upgrade', (response, upstreamSocket, upstreamHead) => {
      served[index] += 1;
      socket.write(statusLine(response));
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('error', () => upstreamSocket.destroy());
    });
    upstream.on('response', (response) => {
      served[index] += 1;
      socket.write(statusLine(response));
      response.pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    upstream.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    served,
    setBackend(index, port) {
      ports[index] = port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
