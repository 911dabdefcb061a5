import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { copyFixture } from './test-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  copyFixture(t.root, 'media/photo.jpg', '/open/photo.jpg');
  copyFixture(t.root, 'media/clip.en.srt', '/open/clip.en.srt');
  copyFixture(t.root, 'media/photo.jpg', '/closed/photo.jpg');
  copyFixture(t.root, 'media/clip.en.srt', '/closed/clip.en.srt');
  fs.writeFileSync(path.join(t.outside, 'photo.jpg'), fs.readFileSync(path.join(t.root, 'open/photo.jpg')));
  fs.symlinkSync(t.outside, path.join(t.root, 'open/escape'));
});
afterAll(async () => {
  await t.close();
});

/** Every read endpoint of this module and the previews module, for a folder prefix. */
const endpoints = (folder: string) => [
  `/api/raw/${folder}/photo.jpg`,
  `/api/raw/${folder}/photo.jpg?inline=true`,
  `/api/raw/${folder}/`,
  `/api/raw/${folder}/?algo=targz`,
  `/api/raw/?files=${encodeURIComponent(`/${folder}/photo.jpg`)}`,
  `/api/preview/thumb/${folder}/photo.jpg`,
  `/api/preview/big/${folder}/photo.jpg`,
  `/api/subtitle/${folder}/clip.en.srt`,
];

describe('permission matrix of downloads, previews and subtitles', () => {
  it('without download: 202 with no body everywhere; usage still answers', async () => {
    await makeUser(t, { username: 'nodownload', perm: { download: false } });
    const token = await loginAs(t, 'nodownload');
    for (const url of endpoints('open')) {
      const response = await t.request(token, { method: 'GET', url });
      expect(response.statusCode, url).toBe(202);
      expect(response.body, url).toBe('');
    }
    expect((await t.request(token, { method: 'GET', url: '/api/usage/open' })).statusCode).toBe(200);
  });

  it('with download: 200 where allowed, 403 where a rule denies or a link leaves the scope', async () => {
    await makeUser(t, { username: 'ruled', rules: [{ regex: false, allow: false, path: '/closed', regexp: { raw: '' } }] });
    const token = await loginAs(t, 'ruled');
    for (const url of endpoints('open')) {
      expect((await t.request(token, { method: 'GET', url })).statusCode, url).toBe(200);
    }
    for (const url of [...endpoints('closed'), '/api/usage/closed', ...endpoints('open/escape').filter((url) => !url.includes('srt'))]) {
      expect((await t.request(token, { method: 'GET', url })).statusCode, url).toBe(403);
    }
  });

  it('without a token: 401 everywhere', async () => {
    for (const url of [...endpoints('open'), '/api/usage/open']) {
      expect((await t.request(undefined, { method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});
