import type { ErrorCode } from '@burrow/protocol';
import { ErrorCodes } from '@burrow/protocol';

/**
 * The one typed error of the server. Services throw it through the helpers below; the error
 * handler alone turns it into a status and body. `detail` is only sent for 400 responses,
 * matching the wire protocol ("400 Bad Request (password is too short…)").
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail?: string, headers?: Record<string, string>) {
    super(detail ?? code);
    this.name = 'AppError';
    this.code = code;
    this.status = ErrorCodes[code];
    this.detail = detail;
    this.headers = headers;
  }
}

export const badRequest = (detail?: string) => new AppError('bad_request', detail);
export const unauthorized = (detail?: string) => new AppError('unauthorized', detail);
export const forbidden = (detail?: string) => new AppError('forbidden', detail);
export const notFound = (detail?: string) => new AppError('not_found', detail);
export const methodNotAllowed = (detail?: string) => new AppError('method_not_allowed', detail);
export const conflict = (detail?: string) => new AppError('conflict', detail);
export const payloadTooLarge = (detail?: string) => new AppError('payload_too_large', detail);
export const unsupportedMediaType = (detail?: string) => new AppError('unsupported_media_type', detail);
export const locked = (detail?: string) => new AppError('locked', detail);
export const internal = (detail?: string) => new AppError('internal', detail);
export const notImplemented = (detail?: string) => new AppError('not_implemented', detail);
export const insufficientStorage = (detail?: string) => new AppError('insufficient_storage', detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError('too_many_requests', undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** Maps a Node.js system error to the taxonomy, or returns undefined when it is not one we know. */
export function fromSystemError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return notFound();
    case 'EEXIST':
    case 'ENOTEMPTY':
      return conflict();
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return forbidden();
    case 'ENOSPC':
    case 'EDQUOT':
      return insufficientStorage();
    case 'ENAMETOOLONG':
    case 'EINVAL':
      return badRequest('invalid path');
    case 'EISDIR':
      return badRequest('is a directory');
    default:
      return undefined;
  }
}
