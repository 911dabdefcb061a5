import { describe, expect, it } from 'vitest';
import { libcErrno, libcFunction } from './libc.js';

describe.runIf(process.platform === 'linux')('libcFunction', () => {
  it('binds a C library function from its declaration, and reports errno after a failed call', () => {
    const close = libcFunction('int close(int fd)');
    expect(close).toBeTypeOf('function');
    expect(close!(-1)).toBe(-1);
    expect(libcErrno()).toBe(9); // EBADF
  });

  it('reports the errno of a call made on a pool thread in its callback', async () => {
    const close = libcFunction('int close(int fd)')!;
    const result = await new Promise<{ value: number; errno: number }>((resolve, reject) => {
      close.async(-1, (error: unknown, value: number) => (error ? reject(error) : resolve({ value, errno: libcErrno() })));
    });
    expect(result).toEqual({ value: -1, errno: 9 }); // EBADF
  });

  it('answers null for a function the library does not have', () => {
    expect(libcFunction('int burrow_no_such_function(int value)')).toBeNull();
  });
});
