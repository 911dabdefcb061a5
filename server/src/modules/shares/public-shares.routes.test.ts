import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture } from '../downloads/test-fixtures.js';
import { createShareHarness, passwordHeader, tarEntries, type ShareHarness } from './shares.test-support.js';

let h: ShareHarness;

beforeEach(async () => {
  h = await createShareHarness();
  h.put('photos/b.txt', 'bee');
  h.put('photos/A.txt', 'aye');
  h.put('photos/zeta/inner.txt', 'inner');
  h.mkdir('photos/alpha');
  h.put('photos/clip.srt', '1\n00:00:01,000 --> 00:00:02,000\nhi\n');
  h.put('report.txt', 'report body');
});
afterEach(async () => {
  await h.close();
});

describe('GET /api/public/share/{hash}', () => {
  it('lists a shared folder: folders first then A→Z, share-relative paths, the root’s name', async () => {
    const link = await h.share(h.admin, '/photos/');
    const response = await h.visit(`/api/public/share/${link.hash}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const listing = response.json();
    expect(listing).toMatchObject({ path: '/', name: 'photos', isDir: true, type: '', sorting: { by: 'name', asc: false }, numDirs: 2, numFiles: 3 });
    expect(listing).not.toHaveProperty('token');
    expect(listing.items.map((item: { path: string }) => item.path)).toEqual(['/alpha', '/zeta', '/A.txt', '/b.txt', '/clip.srt']);

    const sub = (await h.visit(`/api/public/share/${link.hash}/zeta/`)).json();
    expect(sub.name).toBe('photos');
    expect(sub.path).toBe('/zeta/');
    expect(sub.items.map((item: { path: string }) => item.path)).toEqual(['/zeta/inner.txt']);
  });

  it('describes a file inside a shared folder with its share-relative path and no content', async () => {
    const link = await h.share(h.admin, '/photos/');
    const file = (await h.visit(`/api/public/share/${link.hash}/b.txt`)).json();
    expect(file).toMatchObject({ path: '/b.txt', name: 'b.txt', isDir: false, size: 3, type: 'textImmutable' });
    expect(file).not.toHaveProperty('content');
  });

  it('describes a shared file with path "" and no content, ignoring extra segments', async () => {
    const link = await h.share(h.admin, '/report.txt');
    for (const url of [`/api/public/share/${link.hash}`, `/api/public/share/${link.hash}/whatever/else`]) {
      const file = (await h.visit(url)).json();
      expect(file).toMatchObject({ path: '', name: 'report.txt', isDir: false, size: 11 });
      expect(file).not.toHaveProperty('content');
      expect(file).not.toHaveProperty('items');
    }
  });

  it('hands the token of a protected link to a visitor with the right password, only at the top level', async () => {
    const password = 'pä ss/wörd+%&';
    const link = await h.share(h.admin, '/photos/', { password });
    const [row] = await h.rows();
    const response = await h.visit(`/api/public/share/${link.hash}`, { headers: passwordHeader(password) });
    expect(response.statusCode).toBe(200);
    const listing = response.json();
    expect(listing.token).toBe(row!.token);
    for (const item of listing.items) expect(item).not.toHaveProperty('token');
    expect(response.body.split(row!.token)).toHaveLength(2);
    // The token opens the listing too, as the front end's follow-up requests do.
    expect((await h.visit(`/api/public/share/${link.hash}/zeta?token=${row!.token}`)).statusCode).toBe(200);
  });

  it('answers 404 for unknown and malformed hashes', async () => {
    for (const hash of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', 'a.b', 'a%20b', '%00']) {
      expect((await h.visit(`/api/public/share/${hash}`)).statusCode, hash).toBe(404);
      expect((await h.visit(`/api/public/dl/${hash}`)).statusCode, hash).toBe(404);
    }
  });
});

describe('GET /api/public/dl/{hash}', () => {
  it('downloads a shared file, as attachment or inline, with ranges', async () => {
    const link = await h.share(h.admin, '/report.txt');
    const attachment = await h.visit(`/api/public/dl/${link.hash}`);
    expect(attachment.statusCode).toBe(200);
    expect(attachment.body).toBe('report body');
    expect(attachment.headers['content-disposition']).toMatch(/^attachment;.*filename\*=utf-8''report\.txt/);
    expect(attachment.headers['content-type']).toBe('application/octet-stream');

    const inline = await h.visit(`/api/public/dl/${link.hash}?inline=true`);
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);
    expect(inline.headers['content-security-policy']).toMatch(/script-src 'none'|sandbox/);

    const ranged = await h.visit(`/api/public/dl/${link.hash}/ignored/segments`, { headers: { range: 'bytes=0-5' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.body).toBe('report');
    expect(ranged.headers['content-range']).toBe('bytes 0-5/11');

    const head = await h.visit(`/api/public/dl/${link.hash}`, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('downloads files inside a shared folder, also in the client’s encoded-slash form', async () => {
    const link = await h.share(h.admin, '/photos/');
    expect((await h.visit(`/api/public/dl/${link.hash}/zeta/inner.txt`)).body).toBe('inner');
    // filebrowser's client appends encodeURIComponent("/zeta/inner.txt") straight after the hash.
    expect((await h.visit(`/api/public/dl/${link.hash}${encodeURIComponent('/zeta/inner.txt')}`)).body).toBe('inner');
    expect((await h.visit(`/api/public/dl/${link.hash}/nope.txt`)).statusCode).toBe(404);
  });

  it('streams a shared folder, a sub-folder and a files= selection as archives', async () => {
    const link = await h.share(h.admin, '/photos/');
    const whole = await h.visit(`/api/public/dl/${link.hash}?algo=tar`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-disposition']).toContain("filename*=utf-8''photos.tar");
    const entries = await tarEntries(whole.rawPayload);
    expect([...entries.keys()].filter((name) => !name.endsWith('/')).sort()).toEqual(['A.txt', 'b.txt', 'clip.srt', 'zeta/inner.txt']);
    expect(entries.get('zeta/inner.txt')).toBe('inner');

    const sub = await tarEntries((await h.visit(`/api/public/dl/${link.hash}/zeta/?algo=tar`)).rawPayload);
    expect([...sub.keys()]).toEqual(['inner.txt']);

    const files = encodeURIComponent([encodeURIComponent('/A.txt'), encodeURIComponent('/zeta')].join(','));
    const selection = await h.visit(`/api/public/dl/${link.hash}/?files=${files}&algo=tar`);
    expect(selection.statusCode).toBe(200);
    const selected = await tarEntries(selection.rawPayload);
    expect([...selected.keys()].filter((name) => !name.endsWith('/')).sort()).toEqual(['A.txt', 'zeta/inner.txt']);

    const zip = await h.visit(`/api/public/dl/${link.hash}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await h.visit(`/api/public/dl/${link.hash}?algo=rar`)).statusCode).toBe(400);
  });

  it('accepts ?token= for protected downloads and archives', async () => {
    const link = await h.share(h.admin, '/photos/', { password: 'secret-words' });
    const [row] = await h.rows();
    expect((await h.visit(`/api/public/dl/${link.hash}/b.txt?token=${row!.token}`)).body).toBe('bee');
    expect((await h.visit(`/api/public/dl/${link.hash}?algo=tar&token=${row!.token}`)).statusCode).toBe(200);
    expect((await h.visit(`/api/public/dl/${link.hash}/b.txt`, { headers: passwordHeader('secret-words') })).body).toBe('bee');
  });
});

describe('public previews and subtitles', () => {
  it('renders thumbnails and big previews of images in a shared folder and of a shared image', async () => {
    copyFixture(h.t.root, 'media/photo.jpg', '/photos/photo.jpg');
    copyFixture(h.t.root, 'media/fractal.png', '/fractal.png');
    const folder = await h.share(h.admin, '/photos/');
    const thumb = await h.visit(`/api/public/preview/thumb/${folder.hash}/photo.jpg`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toMatch(/^image\/jpeg/);
    expect(thumb.headers['cache-control']).toBe('private');
    expect(thumb.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const big = await h.visit(`/api/public/preview/big/${folder.hash}/photo.jpg?inline=true`);
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-disposition']).toMatch(/^inline;/);

    const file = await h.share(h.admin, '/fractal.png');
    const fileThumb = await h.visit(`/api/public/preview/thumb/${file.hash}`);
    expect(fileThumb.statusCode).toBe(200);
    expect(fileThumb.rawPayload.length).toBeGreaterThan(100);
  });

  it('answers a bad size with 400, a non-image with 501 and a missing entry with 404', async () => {
    copyFixture(h.t.root, 'media/photo.jpg', '/photos/photo.jpg');
    const folder = await h.share(h.admin, '/photos/');
    expect((await h.visit(`/api/public/preview/huge/${folder.hash}/photo.jpg`)).statusCode).toBe(400);
    expect((await h.visit(`/api/public/preview/thumb/${folder.hash}/b.txt`)).statusCode).toBe(501);
    expect((await h.visit(`/api/public/preview/thumb/${folder.hash}/nope.jpg`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/preview/thumb/AAAAAAAAAAAAAAAAAAAAAA/photo.jpg`)).statusCode).toBe(404);
    expect((await h.visit(`/api/public/preview/thumb`)).statusCode).toBe(404);
  });

  it('serves shared subtitles as WebVTT and refuses other files', async () => {
    copyFixture(h.t.root, 'media/clip.mp4', '/photos/clip.mp4');
    const folder = await h.share(h.admin, '/photos/');
    const listing = (await h.visit(`/api/public/share/${folder.hash}`)).json();
    const video = listing.items.find((item: { name: string }) => item.name === 'clip.mp4');
    // Subtitle paths in a shared folder are share-relative, ready for the public subtitle endpoint.
    expect(video.subtitles).toEqual(['/clip.srt']);
    const vtt = await h.visit(`/api/public/subtitle/${folder.hash}${video.subtitles[0]}?inline=true`);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toMatch(/^WEBVTT/);
    expect(vtt.body).toContain('00:00:01.000 --> 00:00:02.000');
    expect((await h.visit(`/api/public/subtitle/${folder.hash}/b.txt`)).statusCode).toBe(400);
    expect((await h.visit(`/api/public/subtitle/${folder.hash}/none.srt`)).statusCode).toBe(404);
  });
});
