import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { configureHttpClient } from './http-client';
import { downloadPdf, type PdfProgress } from './pdf-download';

/** A response whose body arrives in the given pieces. */
function streamed(pieces: Uint8Array[], headers: Record<string, string> = {}, status = 200) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[pulled++];
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
  return { response: new Response(body, { status, headers }), pulled: () => pulled };
}

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

beforeEach(() => {
  configureHttpClient({ baseURL: '/burrow', hooks: { getToken: () => 'header.payload.signature' } });
});

afterEach(() => {
  vi.unstubAllGlobals();
  configureHttpClient({ baseURL: '' });
});

describe('downloadPdf', () => {
  it('fetches through the client below the base URL with the token, reporting progress', async () => {
    const { response } = streamed([bytes(3, 1), bytes(2, 2)], { 'content-length': '5' });
    const fetchMock = vi.fn(async (..._args: [string, RequestInit]) => response);
    vi.stubGlobal('fetch', fetchMock);
    const progress: PdfProgress[] = [];
    const result = await downloadPdf('/burrow/api/raw/docs/a%20b.pdf?inline=true', { onProgress: (step) => progress.push(step) });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/burrow/api/raw/docs/a%20b.pdf?inline=true');
    expect((init.headers as Record<string, string>)['x-auth']).toBe('header.payload.signature');
    expect(result.kind).toBe('data');
    expect([...new Uint8Array((result as { data: ArrayBuffer }).data)]).toEqual([1, 1, 1, 2, 2]);
    expect(progress).toEqual([
      { received: 0, total: 5 },
      { received: 3, total: 5 },
      { received: 5, total: 5 },
    ]);
  });

  it('reads a body of unknown or wrongly announced length whole', async () => {
    vi.stubGlobal('fetch', async () => streamed([bytes(2, 7), bytes(2, 8)]).response);
    const unknown = await downloadPdf('/burrow/api/raw/a.pdf');
    expect([...new Uint8Array((unknown as { data: ArrayBuffer }).data)]).toEqual([7, 7, 8, 8]);
    // More bytes than announced (a compressed answer, say) are kept, not cut off.
    vi.stubGlobal('fetch', async () => streamed([bytes(2, 7), bytes(3, 8)], { 'content-length': '3' }).response);
    const longer = await downloadPdf('/burrow/api/raw/a.pdf');
    expect([...new Uint8Array((longer as { data: ArrayBuffer }).data)]).toEqual([7, 7, 8, 8, 8]);
    vi.stubGlobal('fetch', async () => streamed([bytes(2, 7)], { 'content-length': '3' }).response);
    const shorter = await downloadPdf('/burrow/api/raw/a.pdf');
    expect((shorter as { data: ArrayBuffer }).data.byteLength).toBe(2);
  });

  it('stops at once when the announced size is over the limit', async () => {
    const { response, pulled } = streamed([bytes(10, 1)], { 'content-length': String(300 * 1024 * 1024) });
    vi.stubGlobal('fetch', async () => response);
    await expect(downloadPdf('/burrow/api/raw/huge.pdf')).resolves.toEqual({ kind: 'tooLarge', size: 300 * 1024 * 1024 });
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('stops reading once an unannounced body grows past the limit', async () => {
    const { response, pulled } = streamed([bytes(6, 1), bytes(6, 2), bytes(6, 3), bytes(6, 4)]);
    vi.stubGlobal('fetch', async () => response);
    await expect(downloadPdf('/burrow/api/raw/a.pdf', { limit: 10 })).resolves.toEqual({ kind: 'tooLarge', size: 12 });
    expect(pulled()).toBeLessThan(4);
  });

  it('fails with the server status as an ApiError', async () => {
    vi.stubGlobal('fetch', async () => new Response('403 Forbidden\n', { status: 403 }));
    const error = await downloadPdf('/burrow/api/raw/secret.pdf').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
  });

  it('reports a connection lost mid-file, and an abort as a cancel', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(4, 1));
      },
      pull(controller) {
        controller.error(new TypeError('network error'));
      },
    });
    vi.stubGlobal('fetch', async () => new Response(broken, { headers: { 'content-length': '8' } }));
    const lost = (await downloadPdf('/burrow/api/raw/a.pdf').catch((caught: unknown) => caught)) as ApiError;
    expect(lost).toBeInstanceOf(ApiError);
    expect([lost.status, lost.isCancel]).toEqual([0, false]);

    const controller = new AbortController();
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      init.signal?.throwIfAborted();
      return new Response('x');
    });
    controller.abort();
    const aborted = (await downloadPdf('/burrow/api/raw/a.pdf', { signal: controller.signal }).catch((caught: unknown) => caught)) as ApiError;
    expect(aborted.isCancel).toBe(true);
  });
});
