import type { ErrorCode } from '@burrow/protocol';
import { codeForStatus } from '@burrow/protocol/errors';

/** `no_connection` stands for status 0: the request never got an answer (or was cancelled). */
export type ApiErrorCode = ErrorCode | 'no_connection';

/**
 * A failed API call. `message` is what the user sees: the server's status text
 * ("403 Forbidden", "400 Bad Request (reason)") or "000 No connection". Screens branch on `code`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  /** True when the request was aborted on purpose; callers usually ignore such errors. */
  readonly isCancel: boolean;
  /** The answer's headers, when there was an answer (a login may carry a two-factor challenge). */
  readonly headers?: Headers;

  constructor(message: string, status: number, isCancel = false, headers?: Headers) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = status === 0 ? 'no_connection' : codeForStatus(status);
    this.isCancel = isCancel;
    this.headers = headers;
  }
}

export const NoConnectionMessage = '000 No connection';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True for an aborted request, which screens should ignore silently. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.isCancel;
}
