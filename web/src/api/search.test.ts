import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from './http-client';
import { searchFolder } from './search';

/** A response whose body arrives in the given pieces. */
function streamed(pieces: string[]) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return vi.fn(async (..._args: [string, RequestInit]) => new Response(body, { status: 200, headers: { 'content-type': 'text/plain' } }));
}

beforeEach(() => {
  configureHttpClient({ baseURL: '/base', hooks: { getToken: () => 'a.b.c' } });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('searchFolder', () => {
  it('asks for the folder with the query and yields results as lines complete', async () => {
    const fetchMock = streamed(['{"dir":false,"path":"a b.txt"}\n{"dir":tr', 'ue,"path":"sub"}\n', '\n', '{"dir":false,"path":"sub/c.png"}']);
    vi.stubGlobal('fetch', fetchMock);
    const batches = [];
    for await (const batch of searchFolder('/my folder/', 'type:image a&b')) batches.push(batch);
    expect(fetchMock.mock.calls[0]![0]).toBe('/base/api/search/my%20folder/?query=type%3Aimage%20a%26b');
    expect(fetchMock.mock.calls[0]![1].headers).toMatchObject({ 'x-auth': 'a.b.c' });
    // The blank keep-alive line is skipped; a result split across chunks is joined.
    expect(batches).toEqual([[{ dir: false, path: 'a b.txt' }], [{ dir: true, path: 'sub' }], [{ dir: false, path: 'sub/c.png' }]]);
  });

  it('skips lines that are not results', async () => {
    vi.stubGlobal('fetch', streamed(['not json\n{"path":"x"}\n{"dir":true}\n']));
    const batches = [];
    for await (const batch of searchFolder('/', 'x')) batches.push(batch);
    expect(batches).toEqual([[{ dir: false, path: 'x' }]]);
  });

  it('reports a failed search as an error with the server text', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('403 Forbidden', { status: 403 })));
    await expect(searchFolder('/', 'x').next()).rejects.toMatchObject({ status: 403, message: '403 Forbidden' });
  });
});
