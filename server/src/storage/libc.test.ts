import { describe, expect, it } from 'vitest';
import { callOnPool, libcErrno, libcFunction } from './libc.js';

describe.runIf(process.platform === 'linux')('libcFunction', () => {
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
