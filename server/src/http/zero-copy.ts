import type net from 'node:net';
import { callOnPool, libcErrno, libcFunction } from '../storage/libc.js';

/**
 * The kernel's `sendfile(2)`: file bytes go from the page cache to a socket without passing
 * through the process. Node has no binding for it; a file streamed the ordinary way is copied
 * twice on the way (into a buffer, then into the socket), which caps a download at about half
 * of what nginx sends on the same machine.
 */
export type ZeroCopy = {
  /**
   * Sends up to `count` bytes of `fileFd` from `position` to the non-blocking socket `socketFd`,
   * on a thread of the pool: a file that is not cached yet is read from the disk there, never on
   * the event loop. Resolves to the bytes sent (0: the file ended), or 'again' when the socket is
   * full; rejects on any other failure, with `code` EPIPE or ECONNRESET when the peer went away.
   * Both descriptors must stay open until it settles: pass ones from `duplicate`, which nothing
   * else can close meanwhile.
   */
  send(socketFd: number, fileFd: number, position: number, count: number): Promise<number | 'again'>;
  /**
   * Sends as `send` does, but on the calling thread, and only when every page of the range is in
   * the page cache (`cachestat(2)`): such a call cannot wait for the disk, and skips the trip to
   * the pool and back, which costs a cached download about a tenth of its speed. 'uncached' when
   * some page is not (or the kernel cannot tell): `send` it then. Callers keep `count` small, as
   * the event loop waits for the copy into the socket.
   */
  sendCached(socketFd: number, fileFd: number, position: number, count: number): number | 'again' | 'uncached';
  /**
   * Asks the kernel to start reading `count` bytes of `fileFd` from `position` into the page
   * cache (posix_fadvise WILLNEED), on a thread of the pool; pages already cached are skipped.
   * Ahead of `send`, the disk works while the socket drains. Never rejects: it is only advice.
   */
  prefetch(fileFd: number, position: number, count: number): Promise<void>;
  /** A descriptor of the caller's own for the same socket or file; give it back with `release`. */
  duplicate(fd: number): number;
  release(fd: number): void;
  /**
   * Asks for a larger send buffer on the socket. Every time it fills, the next bytes wait for
   * Node's event loop; the larger it is, the fewer such round trips a big file takes.
   */
  widenSendBuffer(socketFd: number): void;
  /**
   * Holds back (`TCP_CORK`) or lets go the socket's partly filled segments. Corked while the
   * kernel sends, every segment leaves full, whatever the size of each call: the receiver then
   * handles fewer, larger packets (nginx's `tcp_nopush`). Letting go sends what was held at once.
   */
  cork(socketFd: number, on: boolean): void;
};

const EAGAIN = 11;
const SOL_SOCKET = 1;
const SO_SNDBUF = 7;
const IPPROTO_TCP = 6;
const TCP_CORK = 3;
const SEND_BUFFER_BYTES = 4 * 1024 * 1024;
const EINTR = 4;
const EBADF = 9;
const EPIPE = 32;
const ECONNRESET = 104;
const POSIX_FADV_WILLNEED = 3;
// Duplicates close on exec, so a command started meanwhile never inherits them, and are numbered
// from 3, so they never take the place of standard input, output or error.
const F_DUPFD_CLOEXEC = 1030;
const LOWEST_DUPLICATE = 3;
/** `cachestat(2)`'s number (Linux 6.5 and later; the same on every architecture). */
const SYS_CACHESTAT = 451;
const SC_PAGESIZE = 30;

/**
 * Whether every page of a file's byte range is in the page cache; undefined where the kernel
 * cannot tell (older than 6.5, or a sandbox that refuses the call), and callers then take the
 * cautious way. One question costs about a microsecond.
 */
type CacheCheck = (fileFd: number, position: number, count: number) => boolean | undefined;

function loadCacheCheck(): CacheCheck {
  const syscall = libcFunction('long syscall(long number, ...)');
  const sysconf = libcFunction('long sysconf(int name)');
  const pageSize = sysconf ? Number(sysconf(SC_PAGESIZE)) : -1;
  if (!syscall || !(pageSize > 0)) return () => undefined;
  // struct cachestat_range { __u64 off, len; } and struct cachestat { __u64 nr_cache, nr_dirty,
  // nr_writeback, nr_evicted, nr_recently_evicted; }, reused by every call on this thread.
  const range = Buffer.alloc(16);
  const counts = Buffer.alloc(40);
  let refused = false;
  return (fileFd, position, count) => {
    if (refused || count <= 0) return undefined;
    const first = Math.floor(position / pageSize);
    const pages = Math.ceil((position + count) / pageSize) - first;
    range.writeBigUInt64LE(BigInt(first * pageSize), 0);
    range.writeBigUInt64LE(BigInt(pages * pageSize), 8);
    if (Number(syscall(SYS_CACHESTAT, 'int', fileFd, 'void *', range, 'void *', counts, 'unsigned int', 0)) !== 0) {
      // ENOSYS or EPERM will not change; a bad descriptor is the caller's, and `send` reports it.
      if (libcErrno() !== EBADF) refused = true;
      return undefined;
    }
    return Number(counts.readBigUInt64LE(0)) >= pages;
  };
}

let loaded: ZeroCopy | null | undefined;

/** What `sendfile` returned, as `send` reports it. */
function sendOutcome(result: number, errno: number): number | 'again' {
  if (result >= 0) return result;
  if (errno === EAGAIN || errno === EINTR) return 'again';
  const error: NodeJS.ErrnoException = new Error(`sendfile failed (errno ${errno})`);
  error.errno = errno;
  if (errno === EPIPE) error.code = 'EPIPE';
  else if (errno === ECONNRESET) error.code = 'ECONNRESET';
  throw error;
}

/**
 * `sendfile` from the C library, loaded on first use; undefined where it cannot be had (not Linux
 * with glibc, or the binding failed to load), and callers then stream.
 */
export async function loadZeroCopy(): Promise<ZeroCopy | undefined> {
  if (loaded === undefined) {
    const sendfile = libcFunction('long sendfile(int out_fd, int in_fd, _Inout_ int64_t *offset, size_t count)');
    const setsockopt = libcFunction('int setsockopt(int fd, int level, int name, const int *value, uint32_t length)');
    const fcntl = libcFunction('int fcntl(int fd, int cmd, ...)');
    const close = libcFunction('int close(int fd)');
    const fadvise = libcFunction('int posix_fadvise(int fd, int64_t offset, int64_t length, int advice)');
    const cached = loadCacheCheck();
    loaded =
      sendfile && setsockopt && fcntl && close
        ? {
            async prefetch(fileFd: number, position: number, count: number): Promise<void> {
              if (!fadvise) return;
              await callOnPool(fadvise, fileFd, position, count, POSIX_FADV_WILLNEED).catch(() => undefined);
            },
            widenSendBuffer(socketFd: number): void {
              // The kernel doubles the value for its bookkeeping and caps it at net.core.wmem_max.
              setsockopt(socketFd, SOL_SOCKET, SO_SNDBUF, [SEND_BUFFER_BYTES], 4);
            },
            cork(socketFd: number, on: boolean): void {
              setsockopt(socketFd, IPPROTO_TCP, TCP_CORK, [on ? 1 : 0], 4);
            },
            duplicate(fd: number): number {
              const copy = Number(fcntl(fd, F_DUPFD_CLOEXEC, 'int', LOWEST_DUPLICATE));
              if (copy < 0) throw new Error(`descriptor could not be duplicated (errno ${libcErrno()})`);
              return copy;
            },
            release(fd: number): void {
              close(fd);
            },
            async send(socketFd: number, fileFd: number, position: number, count: number): Promise<number | 'again'> {
              const { result, errno } = await callOnPool(sendfile, socketFd, fileFd, [position], count);
              return sendOutcome(result, errno);
            },
            sendCached(socketFd: number, fileFd: number, position: number, count: number): number | 'again' | 'uncached' {
              if (cached(fileFd, position, count) !== true) return 'uncached';
              const result = Number(sendfile(socketFd, fileFd, [position], count));
              return sendOutcome(result, result >= 0 ? 0 : libcErrno());
            },
          }
        : null;
  }
  return loaded ?? undefined;
}

const TIOCOUTQ = 0x5411;
let outqueue: ReturnType<typeof libcFunction> | undefined;

/**
 * Bytes a socket holds that its peer has not taken yet (`ioctl(SIOCOUTQ)`), including what the
 * kernel sent for us; undefined where it cannot be read. Lets a sender tell a slow reader, whose
 * queue shrinks, from a stalled one while it waits for room.
 */
export function unsentBytes(socketFd: number): number | undefined {
  outqueue ??= libcFunction('int ioctl(int fd, unsigned long request, _Out_ int *value)');
  if (!outqueue) return undefined;
  const value = [0];
  return Number(outqueue(socketFd, TIOCOUTQ, value)) === 0 ? value[0] : undefined;
}

/**
 * The descriptor of a plain TCP socket, or undefined when bytes must go through Node (TLS, a
 * test double, a socket already closed). Node keeps it on the socket's libuv handle.
 */
export function plainSocketFd(socket: net.Socket | null | undefined): number | undefined {
  if (!socket || socket.destroyed || 'encrypted' in socket) return undefined;
  const fd = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}
