import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { payloadTooLarge } from '../../errors.js';
import type { WriteBody } from './write.js';

/**
 * The raw request body as a stream, for routes that write it to a file (fastify does not read it). A body declared
 * larger than `maxBytes` is refused before a byte is written; one sent without a length is
 * counted as it arrives and fails once it passes the limit (the atomic write then leaves nothing
 * behind). Either way the connection is closed rather than reading the rest.
 */
export function streamedBody(request: FastifyRequest, reply: FastifyReply, maxBytes: number): WriteBody {
  const header = request.headers['content-length'];
  const length = header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
  if (length !== undefined) {
    if (length > maxBytes) {
      reply.header('connection', 'close');
      throw payloadTooLarge();
    }
    return { stream: request.raw, length };
  }
  const source = request.raw;
  async function* limited() {
    let received = 0;
    for await (const chunk of source) {
      received += (chunk as Buffer).length;
      if (received > maxBytes) {
        reply.header('connection', 'close');
        throw payloadTooLarge();
      }
      yield chunk as Buffer;
    }
  }
  return { stream: Readable.from(limited(), { objectMode: false }), length };
}
