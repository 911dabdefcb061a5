import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { copyFixture, FIXTURES, writeFile } from '../downloads/test-fixtures.js';
import { createVideoFrames } from './video-frame.js';

let t: TestApp | undefined;
let token: string;

async function setup(overrides: Record<string, unknown> = {}): Promise<TestApp> {
  t = await createTestApp(overrides);
  token = await t.login();
  return t;
}
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const app = () => t!;
const get = (url: string, headers: Record<string, string> = {}, userToken = token) => app().request(userToken, { method: 'GET', url, headers });

async function imageOf(body: Buffer) {
  const metadata = await sharp(body).metadata();
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

/** Every cached rendering below the cache folder. */
function cachedFiles(): string[] {
  const root = path.join(app().config.cacheDir, 'thumbs');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((name) => /\.(jpg|png|webp)$/.test(name)).map((name) => path.join(root, name));
}

const SANDBOX = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

describe('GET /api/preview: errors in protocol order', () => {
  it('answers 202 without download, before looking at the size or the path', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg');
    await makeUser(app(), { username: 'nodl', perm: { download: false } });
    const userToken = await loginAs(app(), 'nodl');
    for (const url of ['/api/preview/thumb/photo.jpg', '/api/preview/big/photo.jpg', '/api/preview/huge/missing.jpg']) {
      const response = await get(url, {}, userToken);
      expect(response.statusCode, url).toBe(202);
      expect(response.body).toBe('');
    }
  });

  it('answers 400 for a bad size, then 403/404 for the path, then 501 for non-images', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg', '/private/photo.jpg');
    copyFixture(app().root, 'media/clip.mp4');
    writeFile(app().root, '/notes.txt', 'text');
    fs.mkdirSync(path.join(app().root, 'folder'));
    const bad = await get('/api/preview/huge/missing.jpg');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toBe('400 Bad Request (invalid preview size)\n');
    expect((await get('/api/preview/thumb/missing.jpg')).statusCode).toBe(404);
    await makeUser(app(), { username: 'ruled', rules: [{ regex: false, allow: false, path: '/private', regexp: { raw: '' } }] });
    const ruled = await loginAs(app(), 'ruled');
    expect((await get('/api/preview/thumb/private/photo.jpg', {}, ruled)).statusCode).toBe(403);
    expect((await get('/api/preview/thumb/notes.txt')).statusCode).toBe(501);
    expect((await get('/api/preview/big/folder')).statusCode).toBe(501);
    expect((await get('/api/preview/big/clip.mp4')).statusCode).toBe(501);
    expect((await get('/api/preview/thumb')).statusCode).toBe(501);
  });

  it('refuses links that leave the scope', async () => {
    await setup();
    fs.copyFileSync(path.join(FIXTURES, 'media/photo.jpg'), path.join(app().outside, 'photo.jpg'));
    fs.symlinkSync(path.join(app().outside, 'photo.jpg'), path.join(app().root, 'photo.jpg'));
    expect((await get('/api/preview/thumb/photo.jpg')).statusCode).toBe(403);
    expect((await get('/api/preview/big/photo.jpg')).statusCode).toBe(403);
  });

  it('answers 413 for images over 10,000 px a side without decoding them', async () => {
    await setup();
    const wide = await sharp({ create: { width: 10_001, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
    writeFile(app().root, '/wide.png', wide);
    expect((await get('/api/preview/thumb/wide.png')).statusCode).toBe(413);
    expect((await get('/api/preview/big/wide.png')).statusCode).toBe(413);
  });
});

describe('GET /api/preview: rendering', () => {
  it('makes a 256×256 JPEG thumbnail with the right type, name and cache headers', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg');
    copyFixture(app().root, 'media/fractal.png');
    const photo = await get('/api/preview/thumb/photo.jpg?inline=true&key=1');
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['cache-control']).toBe('private');
    expect(photo.headers['content-disposition']).toBe(`inline; filename="photo.jpg"; filename*=utf-8''photo.jpg`);
    expect(await imageOf(photo.rawPayload)).toEqual({ format: 'jpeg', width: 256, height: 256 });
    // A PNG's thumbnail is JPEG and says so (upstream labels it PNG).
    const png = await get('/api/preview/thumb/fractal.png');
    expect(png.headers['content-type']).toBe('image/jpeg');
    expect(png.headers['content-disposition']).toContain("filename*=utf-8''fractal.jpg");
    expect(await imageOf(png.rawPayload)).toEqual({ format: 'jpeg', width: 256, height: 256 });
    const again = await get('/api/preview/thumb/photo.jpg', { 'if-none-match': photo.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it('fits big previews inside 1080×1080 in the source format, TIFF as JPEG, never enlarging', async () => {
    await setup();
    for (const name of ['photo.jpg', 'fractal.png', 'scan.tiff', 'still.webp']) copyFixture(app().root, `media/${name}`);
    const photo = await get('/api/preview/big/photo.jpg');
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(await imageOf(photo.rawPayload)).toEqual({ format: 'jpeg', width: 1080, height: 810 });
    const png = await get('/api/preview/big/fractal.png');
    expect(png.headers['content-type']).toBe('image/png');
    expect(await imageOf(png.rawPayload)).toEqual({ format: 'png', width: 800, height: 600 });
    const tiff = await get('/api/preview/big/scan.tiff');
    expect(tiff.headers['content-type']).toBe('image/jpeg');
    expect(tiff.headers['content-disposition']).toContain("filename*=utf-8''scan.jpg");
    expect((await imageOf(tiff.rawPayload)).format).toBe('jpeg');
    const webp = await get('/api/preview/big/still.webp');
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await imageOf(webp.rawPayload)).format).toBe('webp');
  });

  it('applies EXIF orientation', async () => {
    await setup();
    // Stored 300×100 with orientation 6 (rotate 90° clockwise to show): displayed 100×300.
    const rotated = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#ff0000' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    writeFile(app().root, '/rotated.jpg', rotated);
    const big = await get('/api/preview/big/rotated.jpg');
    expect(await imageOf(big.rawPayload)).toEqual({ format: 'jpeg', width: 100, height: 300 });
    const metadata = await sharp(big.rawPayload).metadata();
    expect(metadata.orientation ?? 1).toBe(1);
  });

  it('serves the file itself for GIFs, SVGs and undecodable images, with raw-file headers', async () => {
    await setup();
    copyFixture(app().root, 'media/anim.gif');
    copyFixture(app().root, 'hostile/script.svg');
    writeFile(app().root, '/broken.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]));
    const gif = await get('/api/preview/thumb/anim.gif?inline=true');
    expect(gif.statusCode).toBe(200);
    expect(gif.headers['content-type']).toBe('image/gif');
    expect(gif.rawPayload.equals(fs.readFileSync(path.join(app().root, 'anim.gif')))).toBe(true);
    const svg = await get('/api/preview/thumb/script.svg?inline=true');
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-security-policy']).toBe(SANDBOX);
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.body).toContain('<svg');
    const broken = await get('/api/preview/big/broken.jpg');
    expect(broken.statusCode).toBe(200);
    expect(broken.headers['content-type']).toBe('application/octet-stream');
    expect(broken.rawPayload.length).toBe(68);
  });

  it('serves the file itself when resizing is disabled for that size', async () => {
    await setup({ enableThumbs: false, resizePreview: false });
    copyFixture(app().root, 'media/photo.jpg');
    const original = fs.readFileSync(path.join(app().root, 'photo.jpg'));
    for (const size of ['thumb', 'big']) {
      const response = await get(`/api/preview/${size}/photo.jpg?inline=true`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.rawPayload.equals(original)).toBe(true);
    }
    expect(cachedFiles()).toEqual([]);
  });

  it('makes video thumbnails with ffmpeg when it is installed, else answers 501', async () => {
    await setup();
    copyFixture(app().root, 'media/clip.mp4');
    copyFixture(app().root, 'media/clip.webm');
    const hasFfmpeg = await createVideoFrames().available();
    for (const name of ['clip.mp4', 'clip.webm']) {
      const response = await get(`/api/preview/thumb/${name}`);
      if (!hasFfmpeg) {
        expect(response.statusCode).toBe(501);
        continue;
      }
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(await imageOf(response.rawPayload)).toEqual({ format: 'jpeg', width: 256, height: 256 });
    }
  });
});

describe('thumbnail cache', () => {
  it('serves hits from disk and renders misses once', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg');
    const first = await get('/api/preview/thumb/photo.jpg');
    const files = cachedFiles();
    expect(files).toHaveLength(1);
    // Swap the cached bytes: a hit must serve them untouched.
    const marker = await sharp({ create: { width: 3, height: 3, channels: 3, background: '#00ff00' } }).jpeg().toBuffer();
    fs.writeFileSync(files[0]!, marker);
    const hit = await get('/api/preview/thumb/photo.jpg');
    expect(hit.rawPayload.equals(marker)).toBe(true);
    expect(first.rawPayload.equals(marker)).toBe(false);
    // Another size is another rendering.
    await get('/api/preview/big/photo.jpg');
    expect(cachedFiles()).toHaveLength(2);
    // A file changed behind Burrow's back gets a new rendering: the key holds size and mtime.
    fs.utimesSync(path.join(app().root, 'photo.jpg'), new Date(), new Date(Date.now() + 10_000));
    const fresh = await get('/api/preview/thumb/photo.jpg');
    expect(fresh.rawPayload.equals(marker)).toBe(false);
  });

  it('drops every cached variant when the file is overwritten, deleted or moved through the API', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg', '/a/photo.jpg');
    copyFixture(app().root, 'media/fractal.png', '/a/fractal.png');
    copyFixture(app().root, 'media/still.webp', '/dir/sub/still.webp');
    await get('/api/preview/thumb/a/photo.jpg');
    await get('/api/preview/big/a/photo.jpg');
    await get('/api/preview/thumb/a/fractal.png');
    await get('/api/preview/thumb/dir/sub/still.webp');
    expect(cachedFiles()).toHaveLength(4);

    const put = await app().request(token, { method: 'PUT', url: '/api/resources/a/photo.jpg', payload: fs.readFileSync(path.join(app().root, 'a/fractal.png')), headers: { 'content-type': 'application/octet-stream' } });
    expect(put.statusCode).toBe(200);
    expect(cachedFiles()).toHaveLength(2);

    const moved = await app().request(token, { method: 'PATCH', url: `/api/resources/a/fractal.png?action=rename&destination=${encodeURIComponent(encodeURIComponent('/a/moved.png'))}&override=false&rename=false` });
    expect(moved.statusCode).toBe(200);
    expect(cachedFiles()).toHaveLength(1);

    const removed = await app().request(token, { method: 'DELETE', url: '/api/resources/dir' });
    expect(removed.statusCode).toBe(204);
    expect(cachedFiles()).toHaveLength(0);
  });

  it('drops cached variants on a file event from any module', async () => {
    await setup();
    copyFixture(app().root, 'media/photo.jpg');
    await get('/api/preview/thumb/photo.jpg');
    expect(cachedFiles()).toHaveLength(1);
    const user = (await app().app.services.usersRepository.findByUsername('admin'))!;
    await app().app.services.fileEvents.emit({ kind: 'modified', user, real: path.join(fs.realpathSync(app().root), 'photo.jpg'), virtual: '/photo.jpg' });
    expect(cachedFiles()).toHaveLength(0);
  });
});
