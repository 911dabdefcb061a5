import { describe, expect, it } from 'vitest';
import { ApiError, codeOfStatus, errorCodeOf, isRequestFault, isServerFault } from './api-error';

describe('API error codes', () => {
  it('names a status by its code, 0 being no connection', () => {
    expect(codeOfStatus(0)).toBe('no_connection');
    expect(codeOfStatus(401)).toBe('unauthorized');
    expect(codeOfStatus(403)).toBe('forbidden');
    expect(codeOfStatus(409)).toBe('conflict');
    expect(codeOfStatus(429)).toBe('too_many_requests');
    // Statuses outside the table fall in with their family.
    expect(codeOfStatus(503)).toBe('internal');
    expect(codeOfStatus(418)).toBe('bad_request');
    expect(new ApiError('404 Not Found', 404).code).toBe('not_found');
  });

  it('reads the code of any failure: anything but an API error is internal', () => {
    expect(errorCodeOf(new ApiError('403 Forbidden', 403))).toBe('forbidden');
    expect(errorCodeOf(new ApiError('000 No connection', 0))).toBe('no_connection');
    expect(errorCodeOf(new Error('boom'))).toBe('internal');
    expect(errorCodeOf(undefined)).toBe('internal');
  });

  it('tells server faults from refused requests', () => {
    expect(['internal', 'not_implemented', 'insufficient_storage'].every((code) => isServerFault(code as never))).toBe(true);
    expect(isServerFault('no_connection')).toBe(false);
    expect(isServerFault('forbidden')).toBe(false);
    expect(['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'too_many_requests'].every((code) => isRequestFault(code as never))).toBe(true);
    expect(isRequestFault('no_connection')).toBe(false);
    expect(isRequestFault('internal')).toBe(false);
  });
});
