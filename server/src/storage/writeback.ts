import { callOnPool, libcFunction } from './libc.js';

/**
 * Starts writing a byte range of an open file to disk without waiting for it, and without the
 * journal commit an fsync costs: the kernel's `sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE`.
 * The call runs on a thread of the pool, so a busy disk never holds up the event loop. It makes
 * nothing durable on its own; a final fsync still does, but then only waits for what is left.
 */
export type StartWriteback = (fd: number, offset: number, length: number) => Promise<void>;

const SYNC_FILE_RANGE_WRITE = 2;

let binding: StartWriteback | null | undefined;

/** `sync_file_range` from the C library; null where it cannot be had. */
export function startWriteback(): StartWriteback | null {
  if (binding !== undefined) return binding;
  const call = libcFunction('int sync_file_range(int fd, int64_t offset, int64_t nbytes, unsigned int flags)');
  binding = call
    ? async (fd, offset, length) => {
        const { result, errno } = await callOnPool(call, fd, offset, length, SYNC_FILE_RANGE_WRITE);
        if (result !== 0) throw new Error(`sync_file_range failed (errno ${errno})`);
      }
    : null;
  return binding;
}
