import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import { sendStatus } from './status.js';
import type { ResolvedPath } from '../storage/scoped-fs.js';
import { baseName } from '../storage/virtual-path.js';
import { contentDisposition } from './content-disposition.js';
import { FILE_CHUNK, FileRangeStream } from './file-range-stream.js';
import { loadZeroCopy } from './zero-copy.js';
import { evaluatePreconditions, rangeFor, type ByteRange, type Validators } from './conditional.js';
import { inlinePolicy, RAW_CSP, SANDBOX_CSP } from './inline-policy.js';

export type SendFileOptions = {
  /** `?inline=true`: show in the browser instead of downloading. */
  inline: boolean;
  /** Name for the disposition header; defaults to the requested entry's name. */
  name?: string;
};

/** Large reads keep the per-chunk overhead low on fast links. */
const STREAM_CHUNK = FILE_CHUNK;
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

function entryName(resolved: ResolvedPath): string {
  return resolved.virtual === '/' ? path.basename(resolved.real) : baseName(resolved.virtual);
}

/** Strong entity tag of one file version: modification time in ns and size, in hex. */
export function fileEtag(mtimeNs: bigint, size: bigint): string {
  return `"${mtimeNs.toString(16)}${size.toString(16)}"`;
}

async function readSample(handle: FileHandle, size: number): Promise<Buffer> {
  const sample = Buffer.alloc(Math.min(512, size));
  const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
  return sample.subarray(0, bytesRead);
}

/** Streams several ranges as multipart/byteranges, one part after another from the same file. */
async function* multipartBody(handle: FileHandle, ranges: ByteRange[], parts: Buffer[], closing: Buffer): AsyncGenerator<Buffer> {
  try {
    for (const [index, range] of ranges.entries()) {
      yield parts[index]!;
      let position = range.start;
      while (position <= range.end) {
        const length = Math.min(STREAM_CHUNK, range.end - position + 1);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead === 0) throw new Error('file shrank while it was being sent');
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    }
    yield closing;
  } finally {
    await handle.close();
  }
}

/**
 * Sends one file as `/api/raw` does: disposition, type and security headers, validators,
 * conditional requests (304/412) and byte ranges (206, 416, multipart/byteranges). Named pipes
 * and other special files get only the disposition header and an empty 200. The file is
 * streamed; HEAD sends the headers alone. Usable by any route that has a scope-resolved path
 * (public share downloads pass one from a narrowed scope).
 */
export async function sendFile(request: FastifyRequest, reply: FastifyReply, resolved: ResolvedPath, options: SendFileOptions): Promise<FastifyReply> {
  const stat = resolved.stat;
  if (!stat || stat.isSymbolicLink()) throw notFound();
  const name = options.name ?? entryName(resolved);
  reply.header('content-disposition', contentDisposition(options.inline ? 'inline' : 'attachment', name));
  reply.header('cache-control', 'private');
  reply.header('x-content-type-options', 'nosniff');
  if (!stat.isFile()) {
    // Reading a FIFO would block until a writer appears, and a device can be endless.
    return reply.code(200).send();
  }

  const handle = await fsp.open(resolved.real, OPEN_FLAGS);
  let handedOff = false;
  try {
    const current = await handle.stat({ bigint: true });
    if (!current.isFile()) return reply.code(200).send();
    const size = Number(current.size);
    const validators: Validators = { etag: fileEtag(current.mtimeNs, current.size), mtimeMs: Number(current.mtimeMs) };
    reply.header('etag', validators.etag);
    reply.header('last-modified', new Date(validators.mtimeMs).toUTCString());
    reply.header('accept-ranges', 'bytes');

    let contentType = 'application/octet-stream';
    let csp = RAW_CSP;
    if (options.inline) {
      const policy = await inlinePolicy(name, () => readSample(handle, size));
      contentType = policy.contentType;
      csp = policy.sandbox ? SANDBOX_CSP : RAW_CSP;
      reply.header('x-frame-options', 'SAMEORIGIN');
    }
    reply.header('content-security-policy', csp);

    const precondition = evaluatePreconditions(request.headers, validators);
    if (precondition === 304) return reply.code(304).send();
    if (precondition === 412) return sendStatus(reply, 412);

    const isHead = request.method === 'HEAD';
    const range = rangeFor(request.method, request.headers, size, validators);
    if (range.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${size}`);
      return sendStatus(reply, 416);
    }

    if (range.kind === 'full' || range.ranges.length === 1) {
      const { start, end } = range.kind === 'full' ? { start: 0, end: size - 1 } : range.ranges[0]!;
      reply.header('content-type', contentType);
      reply.header('content-length', String(end - start + 1));
      if (range.kind === 'partial') {
        reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      }
      if (isHead || size === 0) return reply.send();
      const zeroCopy = await loadZeroCopy();
      handedOff = true;
      return reply.send(new FileRangeStream(handle, start, end, { zeroCopy }));
    }

    const boundary = crypto.randomBytes(16).toString('hex');
    const parts = range.ranges.map((part, index) =>
      Buffer.from(`${index === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: bytes ${part.start}-${part.end}/${size}\r\n\r\n`),
    );
    const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
    const length = parts.reduce((sum, part) => sum + part.length, 0) + closing.length + range.ranges.reduce((sum, part) => sum + part.end - part.start + 1, 0);
    reply.code(206).header('content-type', `multipart/byteranges; boundary=${boundary}`).header('content-length', String(length));
    if (isHead) return reply.send();
    handedOff = true;
    return reply.send(Readable.from(multipartBody(handle, range.ranges, parts, closing), { objectMode: false }));
  } finally {
    if (!handedOff) await handle.close();
  }
}
