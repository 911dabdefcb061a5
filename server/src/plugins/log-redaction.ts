import type { FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '../config.js';

/** Query parameters that carry secrets: the JWT (`auth`) and a share link's token (`token`). */
const SECRET_PARAMS = new Set(['auth', 'token']);
const REDACTED = '[redacted]';

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** The URL with the values of secret query parameters replaced, however their names are encoded. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hashStart = url.indexOf('#', start);
  const query = url.slice(start + 1, hashStart < 0 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals < 0 ? pair : pair.slice(0, equals);
      return SECRET_PARAMS.has(decodedKey(key).toLowerCase()) && equals >= 0 ? `${key}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${redacted}${hashStart < 0 ? '' : url.slice(hashStart)}`;
}

/** Redacts secret query values anywhere in a log message (for lines that quote a URL). */
function redactText(text: string): string {
  return text.replace(/([?&](?:auth|token|%61uth|%74oken)=)[^&\s"'#]*/gi, `$1${REDACTED}`);
}

/**
 * The server's logger options: the request serializer logs the client address (through trusted
 * proxies) and the URL with `auth=` and `token=` values redacted, and messages get the same
 * redaction. `stream` replaces standard output (tests read the lines).
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: DestinationStream) {
  if (config.logLevel === 'silent' && !stream) return false as const;
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    serializers: {
      req(request: FastifyRequest) {
        let remoteAddress: string | undefined;
        try {
          remoteAddress = request.clientAddress ?? request.ip;
        } catch {
          remoteAddress = request.ip;
        }
        return {
          method: request.method,
          url: redactUrl(request.url ?? ''),
          host: request.headers?.host,
          remoteAddress,
          remotePort: request.socket?.remotePort,
        };
      },
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)),
        );
      },
    },
  };
}
