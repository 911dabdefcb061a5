import type { ErrorCode } from '@burrow/protocol';
import { codeForStatus, ErrorCodes } from '@burrow/protocol/errors';

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
    this.code = codeOfStatus(status);
    this.isCancel = isCancel;
    this.headers = headers;
  }
}

/** The code of an answer's status; 0 (no answer at all) is `no_connection`. */
export function codeOfStatus(status: number): ApiErrorCode {
  return status === 0 ? 'no_connection' : codeForStatus(status);
}

/** The code a failure stands for: an API error's own, `internal` for anything else (a bug). */
export function errorCodeOf(error: unknown): ApiErrorCode {
  return error instanceof ApiError ? error.code : 'internal';
}

/** True for a code the server answers with when it, not the request, is at fault (the 5xx family). */
export function isServerFault(code: ApiErrorCode): boolean {
  return code !== 'no_connection' && ErrorCodes[code] >= 500;
}

/** True for a code that refuses the request itself (the 4xx family): asking again changes nothing. */
export function isRequestFault(code: ApiErrorCode): boolean {
  return code !== 'no_connection' && ErrorCodes[code] >= 400 && ErrorCodes[code] < 500;
}

export const NoConnectionMessage = '000 No connection';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True for an aborted request, which screens should ignore silently. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.isCancel;
}
