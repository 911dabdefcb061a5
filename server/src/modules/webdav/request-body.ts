import type { FastifyReply, FastifyRequest } from 'fastify';
import { payloadTooLarge } from '../../errors.js';
import { MAX_XML_BYTES } from './xml.js';

/** Whether the request carries a body at all (a declared length above 0, or chunked). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/** Reads an XML request body as text, refusing more than MAX_XML_BYTES (413). Empty gives ''. */
export async function readXmlBody(request: FastifyRequest, reply: FastifyReply): Promise<string> {
  if (!hasBody(request)) return '';
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_XML_BYTES) {
    reply.header('connection', 'close');
    throw payloadTooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request.raw) {
    total += (chunk as Buffer).length;
    if (total > MAX_XML_BYTES) {
      reply.header('connection', 'close');
      throw payloadTooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A PUT body as the files service takes it: streamed and limited exactly as the API's writes are. */
export { streamedBody as uploadBody } from '../files/request-body.js';
