import fs from 'node:fs';
import net from 'node:net';
import { libcErrno, libcFunction } from '../storage/libc.js';

/**
 * Takes every connection waiting on a listening server in one turn of the event loop, instead of
 * one per turn.
 *
 * Node's event loop accepts a single connection each time the listening socket is reported
 * ready, then waits for the next turn to take another. While the server is busy, a turn lasts
 * tens of milliseconds, so a crowd arriving at once (a browser's six connections, a team opening
 * the app after a restart, a client pool) is let in at a dozen connections a second: the last of
 * 500 waited twenty seconds for its first byte, with the requests of everyone already connected
 * served meanwhile. Here, each connection Node accepts is followed by taking the rest of the
 * queue with `accept4(2)` and handing each to the server as Node would have.
 *
 * Needs the C library binding (see libc.ts); without it, Node's own pace stays.
 */
export function acceptWaitingConnections(server: net.Server): void {
  const accept4 = libcFunction('int accept4(int fd, void *address, void *length, int flags)') as ((fd: number, address: null, length: null, flags: number) => number) | null;
  if (!accept4) return;
  const internals = server as ServerInternals;
  let taking = false;
  server.on('connection', () => {
    // The connections handed over below come through this same event.
    if (taking) return;
    const fd = listeningFd(server);
    if (fd === undefined) return;
    taking = true;
    try {
      for (let count = 0; count < MAX_PER_TURN; count++) {
        // At a connection limit the rest wait for Node, which drops what is over it.
        if (internals.maxConnections && internals._connections >= internals.maxConnections) break;
        const accepted = accept4(fd, null, null, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (accepted >= 0) {
          handOver(server, accepted);
          continue;
        }
        const errno = libcErrno();
        if (errno === EINTR || errno === ECONNABORTED) continue;
        // EAGAIN: the queue is empty. Anything else (out of descriptors, say) is left to Node,
        // which meets it on its next turn and has its own way with it.
        break;
      }
    } finally {
      taking = false;
    }
  });
}

const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const EINTR = 4;
const ECONNABORTED = 103;
/** The kernel's queue holds at most the listen backlog (511 in Node); this only bounds a turn. */
const MAX_PER_TURN = 1024;

/** The listening socket's descriptor, once the server listens on TCP. */
function listeningFd(server: net.Server): number | undefined {
  if (!server.listening) return undefined;
  const fd = (server as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

type ServerInternals = net.Server & {
  allowHalfOpen?: boolean;
  pauseOnConnect?: boolean;
  highWaterMark?: number;
  noDelay?: boolean;
  keepAlive?: boolean;
  keepAliveInitialDelay?: number;
  _connections: number;
};

/** Wraps an accepted descriptor in a socket set up as Node sets up the ones it accepts. */
function handOver(server: net.Server, fd: number): void {
  const internals = server as ServerInternals;
  let socket: net.Socket;
  try {
    // The options Node gives the sockets it accepts (pauseOnCreate and the high-water marks are
    // taken by the constructor, though not in its published type).
    const options = {
      fd,
      allowHalfOpen: internals.allowHalfOpen,
      pauseOnCreate: internals.pauseOnConnect,
      readable: true,
      writable: true,
      readableHighWaterMark: internals.highWaterMark,
      writableHighWaterMark: internals.highWaterMark,
    };
    socket = new net.Socket(options as net.SocketConstructorOpts);
  } catch {
    // Not a socket Node can wrap: give the descriptor back rather than leak it.
    fs.closeSync(fd);
    return;
  }
  if (internals.noDelay) socket.setNoDelay(true);
  if (internals.keepAlive) socket.setKeepAlive(true, internals.keepAliveInitialDelay);
  // Counted as Node counts its own, so `close()` waits for these too (a socket's destroy
  // subtracts itself from its server's count).
  internals._connections++;
  Object.assign(socket, { server, _server: server });
  server.emit('connection', socket);
}
