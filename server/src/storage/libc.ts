import { createRequire } from 'node:module';
import type { LibraryHandle } from 'koffi';

type LibcFunction = ReturnType<LibraryHandle['func']>;

type Koffi = { load(path: string): LibraryHandle; errno(): number; address(value: unknown): bigint };

let koffi: Koffi | null | undefined;
let libc: LibraryHandle | null | undefined;
let unavailable = '';

/** Setting this environment variable to 1 turns every C library fast path off (the fallbacks then run). */
export const NO_FAST_PATHS_ENV = 'BURROW_NO_FAST_PATHS';

/** Names the C library goes by: glibc, then musl (Alpine) for this processor. */
function libraryNames(): string[] {
  const muslArch = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : process.arch;
  return ['libc.so.6', `libc.musl-${muslArch}.so.1`, `/lib/ld-musl-${muslArch}.so.1`];
}

/**
 * The C library through the koffi foreign-function binding, for the few kernel calls Node has no
 * binding for (statx, sendfile, sync_file_range) and for the address of a buffer. Loaded
 * synchronously on first use, so worker threads can use it too; null where it cannot be had (not
 * Linux, the binding is not installed — it is an optional dependency — or no C library by a known
 * name loads), and callers then take Node's own, slower way.
 */
function library(): LibraryHandle | null {
  if (libc !== undefined) return libc;
  libc = null;
  koffi = null;
  if (process.env[NO_FAST_PATHS_ENV] === '1') {
    unavailable = `turned off by ${NO_FAST_PATHS_ENV}=1`;
    return libc;
  }
  if (process.platform !== 'linux') {
    unavailable = `not Linux (${process.platform})`;
    return libc;
  }
  let binding: Koffi;
  try {
    binding = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (error) {
    unavailable = `the koffi binding did not load (${(error as Error).message.split('\n')[0]})`;
    return libc;
  }
  for (const name of libraryNames()) {
    try {
      libc = binding.load(name);
      koffi = binding;
      return libc;
    } catch {
      // Try the next name.
    }
  }
  unavailable = `no C library by the names ${libraryNames().join(', ')}`;
  return libc;
}

/**
 * Whether the fast paths can be had, and why not: the server logs this once at start, so a
 * slower fallback never goes unnoticed.
 */
export function fastPathsStatus(): { available: true } | { available: false; reason: string } {
  return library() ? { available: true } : { available: false, reason: unavailable };
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
