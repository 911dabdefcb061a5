import type { FastifyReply } from 'fastify';
import { statusLine } from '@burrow/protocol';

/** Writes a filebrowser-style status body: "<code> <reason>\n", plus "(detail)" for 400 only. */
export function sendStatus(reply: FastifyReply, status: number, detail?: string): FastifyReply {
  if (status === 204 || status === 304) return reply.code(status).send();
  const text = status === 400 && detail ? `${statusLine(status)} (${detail})\n` : `${statusLine(status)}\n`;
  return reply.code(status).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(text);
}
