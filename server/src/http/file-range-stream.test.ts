import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_CHUNK, FileRangeStream } from './file-range-stream.js';
import { loadZeroCopy, plainSocketFd, type ZeroCopy } from './zero-copy.js';
import { NO_FAST_PATHS_ENV, libcFunction } from '../storage/libc.js';

/** The C library fast paths are there to test: on Linux, unless the environment switch turns them off. */
const fastPaths = process.platform === 'linux' && process.env[NO_FAST_PATHS_ENV] !== '1';

let folder: string;
let file: string;
let content: Buffer;
let server: net.Server | undefined;

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-range-'));
  file = path.join(folder, 'data.bin');
  // Several times the ring of buffers, and not a whole number of chunks.
  content = crypto.randomBytes(7 * FILE_CHUNK + 12_345);
  fs.writeFileSync(file, content);
});
afterEach(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Handles open on the test file, as the kernel sees them. */
function openHandlesOnFile(): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(path.join('/proc/self/fd', fd)) === file) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/** Drops the test file's pages from the page cache, as if it had not been read for long. */
function evictFile(): void {
  const fadvise = libcFunction('int posix_fadvise(int fd, int64_t offset, int64_t length, int advice)')!;
  const fd = fs.openSync(file, 'r');
  try {
    fs.fdatasyncSync(fd);
    const POSIX_FADV_DONTNEED = 4;
    expect(fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)).toBe(0);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Serves the range start..end of the test file on 127.0.0.1 by piping the stream into the
 * response, as fastify does (headers set, not yet written).
 */
async function serveRange(start: number, end: number, zeroCopy?: ZeroCopy): Promise<number> {
  server = http.createServer((_request, response) => {
    void fsp.open(file, 'r').then((handle) => {
      response.setHeader('content-length', String(end - start + 1));
      new FileRangeStream(handle, start, end, { zeroCopy }).pipe(response);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Downloads everything, pausing now and then so the server meets backpressure. */
function download(port: number, pauses: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let nextPause = FILE_CHUNK;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (pauses && received >= nextPause) {
          nextPause += 2 * FILE_CHUNK;
          response.pause();
          setTimeout(() => response.resume(), 30);
        }
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    });
    request.setTimeout(20_000, () => request.destroy(new Error('download timed out')));
    request.on('error', reject);
  });
}

/**
 * Bytes the kernel sent in the current test, those of them sent on the event loop from the page
 * cache, and descriptors duplicated but not yet released (through a counting wrapper).
 */
let kernelBytes = 0;
let cachedBytes = 0;
/** Each cork request, with the socket's TCP_CORK as the kernel reported it before and after. */
let corks: { on: boolean; corked: boolean }[] = [];

/** Whether the socket holds back partly filled segments, read back from the kernel. */
function tcpCorked(socketFd: number): boolean {
  const getsockopt = libcFunction('int getsockopt(int fd, int level, int name, _Out_ int *value, _Inout_ uint32_t *length)')!;
  const value = [0];
  const IPPROTO_TCP = 6;
  const TCP_CORK = 3;
  expect(getsockopt(socketFd, IPPROTO_TCP, TCP_CORK, value, [4])).toBe(0);
  return value[0] !== 0;
}
let copiesHeld = 0;
/** Read-ahead requests made, and those made while the stream held no descriptor of its own. */
let prefetches = 0;
let prefetchesWithoutCopies = 0;
async function countingZeroCopy(): Promise<ZeroCopy | undefined> {
  const zeroCopy = await loadZeroCopy();
  if (!zeroCopy) return undefined;
  return {
    widenSendBuffer: (socketFd) => zeroCopy.widenSendBuffer(socketFd),
    cork(socketFd, on) {
      // The socket is corked while its descriptor is held, and let go before it is given back.
      expect(copiesHeld).toBe(2);
      corks.push({ on, corked: tcpCorked(socketFd) });
      zeroCopy.cork(socketFd, on);
      corks.push({ on, corked: tcpCorked(socketFd) });
    },
    duplicate(fd) {
      const copy = zeroCopy.duplicate(fd);
      copiesHeld++;
      return copy;
    },
    release(fd) {
      copiesHeld--;
      zeroCopy.release(fd);
    },
    async prefetch(fileFd, position, count) {
      prefetches++;
      await zeroCopy.prefetch(fileFd, position, count);
      if (copiesHeld === 0) prefetchesWithoutCopies++;
    },
    async send(socketFd, fileFd, position, count) {
      const sent = await zeroCopy.send(socketFd, fileFd, position, count);
      if (typeof sent === 'number') kernelBytes += sent;
      return sent;
    },
    sendCached(socketFd, fileFd, position, count) {
      const sent = zeroCopy.sendCached(socketFd, fileFd, position, count);
      if (typeof sent === 'number') {
        kernelBytes += sent;
        cachedBytes += sent;
      }
      return sent;
    },
  };
}

const modes: { name: string; zeroCopy: () => Promise<ZeroCopy | undefined>; kernel: boolean }[] = [
  { name: 'through reused buffers', zeroCopy: async () => undefined, kernel: false },
  { name: 'sent by the kernel', zeroCopy: countingZeroCopy, kernel: fastPaths },
];

describe('loadZeroCopy', () => {
  it('binds sendfile on Linux', async () => {
    if (fastPaths) expect(await loadZeroCopy()).toBeDefined();
    else expect(await loadZeroCopy()).toBeUndefined();
  });

  it.runIf(fastPaths)('duplicates a descriptor that outlives the original and closes on exec', async () => {
    const zeroCopy = (await loadZeroCopy())!;
    const original = fs.openSync(file, 'r');
    const copy = zeroCopy.duplicate(original);
    fs.closeSync(original);
    try {
      expect(copy).not.toBe(original);
      expect(copy).toBeGreaterThanOrEqual(3);
      expect(fs.readlinkSync(`/proc/self/fd/${copy}`)).toBe(file);
      const flags = /^flags:\s+(\d+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${copy}`, 'utf8'))![1]!;
      expect(parseInt(flags, 8) & 0o2000000).not.toBe(0);
    } finally {
      zeroCopy.release(copy);
    }
    expect(openHandlesOnFile()).toBe(0);
  });
});

describe('ZeroCopy.sendCached', () => {
  it.runIf(fastPaths)('sends on the calling thread only what the page cache holds whole', async () => {
    const zeroCopy = (await loadZeroCopy())!;
    const received: Buffer[] = [];
    let arrived = 0;
    const listener = net.createServer((socket) =>
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        arrived += chunk.length;
      }),
    );
    server = listener;
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const client = net.connect((listener.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    const fd = fs.openSync(file, 'r');
    try {
      const socketFd = plainSocketFd(client)!;
      evictFile();
      // Not one page of the range is cached: nothing is sent, the caller must go to the pool.
      expect(zeroCopy.sendCached(socketFd, fd, FILE_CHUNK, 4096)).toBe('uncached');
      // One page read back is not enough for a range of two.
      const page = Buffer.alloc(4096);
      fs.readSync(fd, page, 0, 4096, FILE_CHUNK);
      expect(zeroCopy.sendCached(socketFd, fd, FILE_CHUNK, 8192)).toBe('uncached');
      expect(zeroCopy.sendCached(socketFd, fd, FILE_CHUNK, 4096)).toBe(4096);
      // A range that starts and ends inside cached pages counts those pages.
      fs.readSync(fd, page, 0, 4096, FILE_CHUNK + 4096);
      expect(zeroCopy.sendCached(socketFd, fd, FILE_CHUNK + 4096, 100)).toBe(100);
      expect(await waitFor(() => arrived === 4196)).toBe(true);
      expect(Buffer.concat(received).equals(content.subarray(FILE_CHUNK, FILE_CHUNK + 4196))).toBe(true);
      // A failure of the socket is reported, as `send` reports it.
      expect(() => zeroCopy.sendCached(fd, fd, FILE_CHUNK, 100)).toThrow(/sendfile failed/);
    } finally {
      fs.closeSync(fd);
      client.destroy();
    }
  });

  it.runIf(fastPaths)('sends a file the page cache does not hold from the pool, byte for byte', async () => {
    kernelBytes = 0;
    cachedBytes = 0;
    const port = await serveRange(0, content.length - 1, await countingZeroCopy());
    evictFile();
    const body = await download(port, false);
    expect(body.equals(content)).toBe(true);
    expect(kernelBytes - cachedBytes).toBeGreaterThan(0);
  });
});

for (const mode of modes) {
  describe(`FileRangeStream into a response, ${mode.name}`, () => {
    it('sends a whole file byte for byte, also to a client that stalls', async () => {
      kernelBytes = 0;
      cachedBytes = 0;
      corks = [];
      prefetches = 0;
      prefetchesWithoutCopies = 0;
      const port = await serveRange(0, content.length - 1, await mode.zeroCopy());
      const fast = await download(port, false);
      expect(fast.length).toBe(content.length);
      expect(fast.equals(content)).toBe(true);
      const slow = await download(port, true);
      expect(slow.equals(content)).toBe(true);
      // The kernel took most of the bytes; the ordinary pieces only carried the rest.
      if (mode.kernel) expect(kernelBytes).toBeGreaterThan(content.length);
      else expect(kernelBytes).toBe(0);
      // The file was just written, so the page cache holds it: sends skipped the pool.
      if (mode.kernel) expect(cachedBytes).toBeGreaterThan(content.length);
      // Corked for each download's kernel sends, let go at its end.
      const corked = { on: true, corked: true };
      const letGo = { on: false, corked: false };
      if (mode.kernel) expect(corks).toEqual([{ on: true, corked: false }, corked, { on: false, corked: true }, letGo, { on: true, corked: false }, corked, { on: false, corked: true }, letGo]);
      else expect(corks).toEqual([]);
      // The kernel was asked to read ahead, and each request ended before the file was let go.
      if (mode.kernel) expect(prefetches).toBeGreaterThan(0);
      expect(prefetchesWithoutCopies).toBe(0);
      expect(await waitFor(() => openHandlesOnFile() === 0)).toBe(true);
      expect(copiesHeld).toBe(0);
    });

    it('sends a range that starts and ends inside chunks', async () => {
      const start = FILE_CHUNK - 100;
      const end = 4 * FILE_CHUNK + 99;
      const port = await serveRange(start, end, await mode.zeroCopy());
      const body = await download(port, true);
      expect(body.equals(content.subarray(start, end + 1))).toBe(true);
    });

    it('closes the file when the client goes away mid-download', async () => {
      const port = await serveRange(0, content.length - 1, await mode.zeroCopy());
      await new Promise<void>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => {
          if (!request.destroyed) reject(error);
        });
      });
      expect(await waitFor(() => openHandlesOnFile() === 0)).toBe(true);
      expect(await waitFor(() => copiesHeld === 0)).toBe(true);
    });
  });
}

describe('FileRangeStream', () => {
  it('works as a plain readable for other consumers', async () => {
    const handle = await fsp.open(file, 'r');
    const chunks: Buffer[] = [];
    for await (const chunk of new FileRangeStream(handle, 10, content.length - 11)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content.subarray(10, content.length - 10))).toBe(true);
    expect(await waitFor(() => openHandlesOnFile() === 0)).toBe(true);
  });

  it('fails instead of sending short when the file shrinks', async () => {
    const handle = await fsp.open(file, 'r');
    const stream = new FileRangeStream(handle, 0, content.length - 1);
    fs.truncateSync(file, FILE_CHUNK);
    const consume = async () => {
      for await (const chunk of stream) void chunk;
    };
    await expect(consume()).rejects.toThrow(/shrank/);
    expect(await waitFor(() => openHandlesOnFile() === 0)).toBe(true);
  });
});
