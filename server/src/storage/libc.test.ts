import { describe, expect, it, vi } from 'vitest';
import { callOnPool, libcErrno, libcFunction, NO_FAST_PATHS_ENV } from './libc.js';

/** The C library fast paths are there to test: on Linux, unless the environment switch turns them off. */
const fastPaths = process.platform === 'linux' && process.env[NO_FAST_PATHS_ENV] !== '1';

describe.runIf(fastPaths)('libcFunction', () => {
  it('binds a C library function from its declaration, and reports errno after a failed call', () => {
    const close = libcFunction('int close(int fd)');
    expect(close).toBeTypeOf('function');
    expect(close!(-1)).toBe(-1);
    expect(libcErrno()).toBe(9); // EBADF
  });

  it('calls a function on a pool thread and reports the errno it left there', async () => {
    const close = libcFunction('int close(int fd)')!;
    expect(await callOnPool(close, -1)).toEqual({ result: -1, errno: 9 }); // EBADF
  });

  it('answers null for a function the library does not have', () => {
    expect(libcFunction('int burrow_no_such_function(int value)')).toBeNull();
  });
});

describe('fast paths', () => {
  it('are reported available where the binding and the C library load', async () => {
    const { fastPathsStatus } = await import('./libc.js');
    expect(fastPathsStatus()).toEqual(fastPaths ? { available: true } : { available: false, reason: expect.any(String) });
  });

  it('turn off with the environment switch, and every binding then answers null with the reason', async () => {
    vi.resetModules();
    vi.stubEnv(NO_FAST_PATHS_ENV, '1');
    try {
      const fresh = await import('./libc.js');
      expect(fresh.libcFunction('int close(int fd)')).toBeNull();
      expect(fresh.addressOf(Buffer.alloc(8))).toBeNull();
      expect(fresh.fastPathsStatus()).toEqual({ available: false, reason: `turned off by ${NO_FAST_PATHS_ENV}=1` });
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
