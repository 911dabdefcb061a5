import http from 'node:http';
import type { FastifyReply } from 'fastify';
import { DAV } from './xml.js';

/**
 * A WebDAV answer the error taxonomy has no code for (412, 424, 502…), or one that carries an
 * RFC 4918 precondition element in an XML error body.
 */
export class DavError extends Error {
  readonly status: number;
  /** A `DAV:` precondition or postcondition element (`<D:…/>`) for an XML error body. */
  readonly condition?: string;

  constructor(status: number, message: string, condition?: string) {
    super(message);
    this.name = 'DavError';
    this.status = status;
    this.condition = condition;
  }
}

export const davError = (status: number, message: string, condition?: string) => new DavError(status, message, condition);

export const XML_TYPE = 'application/xml; charset=utf-8';

export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown'}`;
}

/** A plain-text status body, as the rest of the API answers errors. */
export function sendPlain(reply: FastifyReply, status: number): FastifyReply {
  if (status === 204 || status === 304) return reply.code(status).send();
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .send(`${status} ${http.STATUS_CODES[status] ?? 'Unknown'}\n`);
}

/** `<D:error>condition</D:error>` with the status. */
export function sendCondition(reply: FastifyReply, status: number, condition: string): FastifyReply {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="${DAV}">${condition}</D:error>\n`;
  return reply.code(status).header('content-type', XML_TYPE).send(body);
}

/** Sends a 207 Multi-Status document whose `<D:response>` elements are already written. */
export function sendMultistatus(reply: FastifyReply, responses: string[]): FastifyReply {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="${DAV}">${responses.join('')}</D:multistatus>\n`;
  return reply.code(207).header('content-type', XML_TYPE).send(body);
}
