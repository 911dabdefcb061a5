import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from './http-client';
import { createShare, deleteShare, fetchLinks, shareLinkUrl } from './shares';

afterEach(() => {
  configureHttpClient({ baseURL: '' });
  vi.unstubAllGlobals();
});

function answer(body: unknown) {
  return vi.fn(async (..._args: [string, RequestInit]) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
}

describe('share API', () => {
  it('builds public links below the base URL', () => {
    expect(shareLinkUrl('Ab_9-x', '', 'https://files.example.org')).toBe('https://files.example.org/share/Ab_9-x');
    expect(shareLinkUrl('Ab_9-x', '/burrow/', 'https://files.example.org')).toBe('https://files.example.org/burrow/share/Ab_9-x');
  });

  it('asks for the links of an encoded path', async () => {
    const fetchMock = answer([]);
    vi.stubGlobal('fetch', fetchMock);
    configureHttpClient({ baseURL: '/burrow' });
    await fetchLinks('/my docs/a#1.txt');
    expect(fetchMock.mock.calls[0]![0]).toBe('/burrow/api/share/my%20docs/a%231.txt');
  });

  it('creates a link with the duration as a string and no empty password', async () => {
    const fetchMock = answer({ hash: 'h', path: '/a', userID: 1, expire: 0 });
    vi.stubGlobal('fetch', fetchMock);
    await createShare('/a', { expires: 0, unit: 'hours', password: '' });
    await createShare('/a', { expires: 36, unit: 'minutes', password: 'pw' });
    const [firstUrl, first] = fetchMock.mock.calls[0]!;
    const [secondUrl, second] = fetchMock.mock.calls[1]!;
    expect(firstUrl).toBe('/api/share/a?expires=0&unit=hours');
    expect(JSON.parse(first.body as string)).toEqual({ expires: '0', unit: 'hours' });
    expect(secondUrl).toBe('/api/share/a?expires=36&unit=minutes');
    expect(JSON.parse(second.body as string)).toEqual({ password: 'pw', expires: '36', unit: 'minutes' });
  });

  it('deletes by hash', async () => {
    const fetchMock = vi.fn(async (..._args: [string, RequestInit]) => new Response('200 OK'));
    vi.stubGlobal('fetch', fetchMock);
    await deleteShare('Ab_9-x');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/share/Ab_9-x');
    expect(fetchMock.mock.calls[0]![1].method).toBe('DELETE');
  });
});
