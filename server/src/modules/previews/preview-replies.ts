import type { FastifyReply, FastifyRequest } from 'fastify';
import { evaluatePreconditions } from '../../http/conditional.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { RAW_CSP } from '../../http/inline-policy.js';
import { sendFile } from '../../http/send-file.js';
import { sendStatus } from '../../http/status.js';
import type { PreviewResult } from './previews.service.js';

/** Sends a preview result: the file itself, or the rendering with its validators. Public share links use it too. */
export async function sendPreview(request: FastifyRequest, reply: FastifyReply, result: PreviewResult, inline: boolean): Promise<FastifyReply> {
  if (result.kind === 'raw') return sendFile(request, reply, result.resolved, { inline });

  reply.header('cache-control', 'private');
  reply.header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', result.name));
  reply.header('etag', result.etag);
  reply.header('last-modified', new Date(result.mtimeMs).toUTCString());
  const precondition = evaluatePreconditions(request.headers, { etag: result.etag, mtimeMs: result.mtimeMs });
  if (precondition === 304) return reply.code(304).send();
  if (precondition === 412) return sendStatus(reply, 412);
  return reply.type(result.contentType).send(result.data);
}

/** Sends a converted subtitle as WebVTT. Public share links use it too. */
export function sendSubtitle(reply: FastifyReply, subtitle: { name: string; vtt: string }, inline: boolean): FastifyReply {
  return reply
    .header('content-type', 'text/vtt; charset=utf-8')
    .header('content-security-policy', RAW_CSP)
    .header('cache-control', 'private')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', subtitle.name))
    .send(subtitle.vtt);
}
