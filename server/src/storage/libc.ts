import { createRequire } from 'node:module';
import type { LibraryHandle } from 'koffi';

type LibcFunction = ReturnType<LibraryHandle['func']>;

type Koffi = { load(path: string): LibraryHandle; errno(): number; address(value: unknown): bigint };

let koffi: Koffi | null | undefined;
let libc: LibraryHandle | null | undefined;

/**
 * The C library through the koffi foreign-function binding, for the few kernel calls Node has no
 * binding for (statx, sendfile, sync_file_range) and for the address of a buffer. Loaded
 * synchronously on first use, so worker threads can use it too; null where it cannot be had (not
 * Linux with glibc, or the binding failed to load), and callers then take Node's own, slower way.
 */
function library(): LibraryHandle | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== 'linux') return libc;
  try {
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
    libc = koffi.load('libc.so.6');
  } catch {
    koffi = null;
  }
  return libc;
}

/** A C library function from its C declaration; null where it cannot be had. */
export function libcFunction(declaration: string): LibcFunction | null {
  const handle = library();
  if (!handle) return null;
  try {
    return handle.func(declaration);
  } catch {
    return null;
  }
}

/** What a call made on a pool thread returned, with the `errno` it left there. */
export type PoolCallResult = { result: number; errno: number };

/**
 * Calls a C library function on a thread of the pool, so a call that waits (for the disk, say)
 * never holds up the event loop. Rejects only when the binding itself fails; the C function's
 * own failure shows in the result and errno, as it would in C.
 */
export function callOnPool(fn: LibcFunction, ...args: unknown[]): Promise<PoolCallResult> {
  return new Promise((resolve, reject) => {
    fn.async(...args, (error: unknown, result: number | bigint) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      // The binding keeps the pool thread's errno for the callback.
      else resolve({ result: Number(result), errno: libcErrno() });
    });
  });
}

/** `errno` as the last call through the binding left it. */
export function libcErrno(): number {
  return koffi?.errno() ?? 0;
}

/** Where a buffer's bytes start in memory, for calls that need them aligned; null without the binding. */
export function addressOf(buffer: Buffer): bigint | null {
  if (!library() || !koffi) return null;
  try {
    return koffi.address(buffer);
  } catch {
    return null;
  }
}
