import type http from 'node:http';
import type net from 'node:net';

/**
 * Cuts a connection that sends no request within the server's `headersTimeout`.
 *
 * Node applies `headersTimeout` only once a request has begun, and Fastify turns the socket
 * inactivity timeout off, so a client could open connections that never send a byte and hold
 * them (and a descriptor each) for ever; enough of them exhaust the process's descriptors. The
 * timer stops at the first request: from then on a request may take as long as it needs, and
 * between requests `keepAliveTimeout` applies. An upgraded connection (WebSocket) is left to its
 * own handler, as Node leaves it. The value is read at each connection, so a changed
 * `headersTimeout` applies to the next one.
 */
export function cutSilentConnections(server: http.Server): void {
  const waiting = new WeakSet<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    if (!server.headersTimeout) return;
    waiting.add(socket);
    // With no request under way, Node's own timeout handler destroys the socket.
    socket.setTimeout(server.headersTimeout);
  });
  server.on('request', (request: http.IncomingMessage) => {
    if (waiting.delete(request.socket)) request.socket.setTimeout(0);
  });
}
