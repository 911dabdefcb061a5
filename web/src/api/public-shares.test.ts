import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from './http-client';
import { fetchPublicShare, publicDownloadUrl, publicPreviewUrl, publicSubtitleUrl } from './public-shares';

afterEach(() => {
  configureHttpClient({ baseURL: '' });
  vi.unstubAllGlobals();
});

describe('public share addresses', () => {
  it('replace the share segment with the download segment and add the token', () => {
    configureHttpClient({ baseURL: '/burrow' });
    expect(publicDownloadUrl('Ab_9-x', '')).toBe('/burrow/api/public/dl/Ab_9-x');
    expect(publicDownloadUrl('Ab_9-x', '/')).toBe('/burrow/api/public/dl/Ab_9-x');
    expect(publicDownloadUrl('Ab_9-x', '/sub dir/a#1.txt', { token: 'tok+/=' })).toBe('/burrow/api/public/dl/Ab_9-x/sub%20dir/a%231.txt?token=tok%2B%2F%3D');
    expect(publicDownloadUrl('h', '/clip.mp4', { inline: true, token: 't' })).toBe('/burrow/api/public/dl/h/clip.mp4?inline=true&token=t');
    expect(publicDownloadUrl('h', '/sub/', { algo: 'tarzst' })).toBe('/burrow/api/public/dl/h/sub/?algo=tarzst');
  });

  it('archive a selection from the share root, each path encoded once more inside files=', () => {
    const url = publicDownloadUrl('h', '/ignored/', { files: ['/a,b.txt', '/dir/c d'], algo: 'zip', token: 't' });
    expect(url).toBe('/api/public/dl/h/?files=%252Fa%252Cb.txt%2C%252Fdir%252Fc%2520d&algo=zip&token=t');
    // What the server reads: the query decoded once, split on commas, each element decoded again.
    const files = new URL(url, 'http://x').searchParams.get('files')!.split(',').map(decodeURIComponent);
    expect(files).toEqual(['/a,b.txt', '/dir/c d']);
  });

  it('point previews and subtitles at the public endpoints', () => {
    expect(publicPreviewUrl('h', '/p q.jpg', 'big', { token: 't', key: '2025' })).toBe('/api/public/preview/big/h/p%20q.jpg?inline=true&key=2025&token=t');
    expect(publicPreviewUrl('h', '', 'thumb')).toBe('/api/public/preview/thumb/h?inline=true');
    expect(publicSubtitleUrl('h', '/clip.en.srt', 't')).toBe('/api/public/subtitle/h/clip.en.srt?inline=true&token=t');
  });
});

describe('fetchPublicShare', () => {
  it('sends the password URL-encoded in X-SHARE-PASSWORD, never the session token', async () => {
    const fetchMock = vi.fn(async (..._args: [string, RequestInit]) => new Response('{"isDir":true}', { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    configureHttpClient({ hooks: { getToken: () => 'session.token.value' } });
    await fetchPublicShare('h', '/sub dir/', { password: 'pä ss/%' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/public/share/h/sub%20dir/');
    const headers = init.headers as Record<string, string>;
    expect(headers['x-share-password']).toBe('p%C3%A4%20ss%2F%25');
    expect(headers['x-auth']).toBeUndefined();

    await fetchPublicShare('h', '/', { token: 'abc' });
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/public/share/h?token=abc');
  });

  it('does not end the session when a link answers 401', async () => {
    const onUnauthorized = vi.fn();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('401 Unauthorized', { status: 401 })));
    configureHttpClient({ hooks: { getToken: () => 'session.token.value', onUnauthorized } });
    await expect(fetchPublicShare('h', '/')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
