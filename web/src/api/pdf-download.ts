import { apiUrl, readChunk, request } from './http-client';

/** Larger PDFs are offered for download instead: the viewer holds the whole file in memory. */
export const PdfSizeLimit = 200 * 1024 * 1024;

export type PdfDownload = { kind: 'data'; data: ArrayBuffer } | { kind: 'tooLarge'; size: number };

export type PdfProgress = { received: number; total?: number };

/**
 * Fetches a PDF's bytes through the app's HTTP client (token, renewal, session end on 401),
 * reporting progress as they arrive. `url` is a URL the client built (below the base URL). A file
 * announced or found to be over `limit` bytes is not read further: the answer is `tooLarge`.
 */
export async function downloadPdf(url: string, options: { signal?: AbortSignal; limit?: number; onProgress?: (progress: PdfProgress) => void } = {}): Promise<PdfDownload> {
  const limit = options.limit ?? PdfSizeLimit;
  const base = apiUrl('');
  const response = await request(url.startsWith(base) ? url.slice(base.length) : url, { signal: options.signal });
  const announced = Number(response.headers.get('content-length'));
  // A compressed answer announces its compressed length; only an identity length is the file's.
  const total = Number.isSafeInteger(announced) && announced >= 0 && !response.headers.get('content-encoding') ? announced : undefined;
  if (total !== undefined && total > limit) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: 'tooLarge', size: total };
  }
  if (!response.body) return { kind: 'data', data: await response.arrayBuffer() };

  const reader = response.body.getReader();
  // With the length known, the bytes go straight into one buffer of that size.
  let buffer = total !== undefined ? new Uint8Array(total) : undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  options.onProgress?.({ received, total });
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, options.signal);
      if (done) break;
      if (received + value.byteLength > limit) {
        await reader.cancel().catch(() => undefined);
        return { kind: 'tooLarge', size: received + value.byteLength };
      }
      if (buffer && received + value.byteLength <= buffer.byteLength) buffer.set(value, received);
      else {
        // More than announced: keep collecting pieces instead.
        if (buffer) chunks.push(buffer.subarray(0, received));
        buffer = undefined;
        chunks.push(value);
      }
      received += value.byteLength;
      options.onProgress?.({ received, total });
    }
  } finally {
    reader.releaseLock();
  }
  if (buffer) return { kind: 'data', data: received === buffer.byteLength ? buffer.buffer : buffer.slice(0, received).buffer };
  const joined = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'data', data: joined.buffer };
}
