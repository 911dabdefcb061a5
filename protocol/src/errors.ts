/**
 * The one error-code table. Services throw these codes; the server's error handler maps each to
 * its status and writes the filebrowser-compatible text body; the web client rebuilds the code
 * from the status so screens can branch on codes, never on message text.
 */
export const ErrorCodes = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  locked: 423,
  too_many_requests: 429,
  internal: 500,
  not_implemented: 501,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** Reason phrases used in the plain-text status bodies ("403 Forbidden"). */
export const StatusText: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  507: 'Insufficient Storage',
};

export function statusLine(status: number): string {
  return `${status} ${StatusText[status] ?? 'Unknown'}`;
}

export function codeForStatus(status: number): ErrorCode {
  for (const [code, value] of Object.entries(ErrorCodes)) {
    if (value === status) return code as ErrorCode;
  }
  return status >= 500 ? 'internal' : 'bad_request';
}
