import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Share } from '@burrow/protocol';
import { eventually } from '../search/search.test-support.js';
import { randomBytes, rawRequest, uploadRows } from '../uploads/tus.test-support.js';
import { createShareHarness, passwordHeader, type ShareHarness } from './shares.test-support.js';
import { createRequestLink, portOf, requestLink, uploader } from './file-requests.test-support.js';

let h: ShareHarness;
let port: number;

beforeEach(async () => {
  h = await createShareHarness();
  h.mkdir('inbox');
  port = await portOf(h.t);
});
afterEach(async () => {
  await h.close();
});

const inbox = (...names: string[]) => path.join(h.t.root, 'inbox', ...names);
const inboxNames = () => fs.readdirSync(inbox()).sort();

describe('creating a file request', () => {
  it('makes an upload-only link for a folder, with its note and limits', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { note: 'Scans please', maxFileSize: 1000, maxTotalSize: 5000, maxFiles: 3, expires: '2', unit: 'days' });
    expect(link).toMatchObject({ path: '/inbox/', uploadOnly: true, note: 'Scans please', maxFileSize: 1000, maxTotalSize: 5000, maxFiles: 3, receivedFiles: 0 });
    expect(link.expire).toBeGreaterThan(Date.now() / 1000);
  });

  it('needs share and create, and refuses a file', async () => {
    h.put('inbox/a.txt', 'a');
    const noCreate = await h.user('nocreate', { perm: { share: true, download: true, create: false } });
    expect((await createRequestLink(h.t, noCreate.token, '/inbox/')).statusCode).toBe(403);
    const noShare = await h.user('noshare', { perm: { share: false, download: true, create: true } });
    expect((await createRequestLink(h.t, noShare.token, '/inbox/')).statusCode).toBe(403);
    expect((await createRequestLink(h.t, h.admin, '/inbox/a.txt')).statusCode).toBe(400);
  });

  it('refuses bad limits and limits on a normal link', async () => {
    expect((await createRequestLink(h.t, h.admin, '/inbox/', { maxFiles: -1 })).statusCode).toBe(400);
    expect((await createRequestLink(h.t, h.admin, '/inbox/', { maxFileSize: 1.5 })).statusCode).toBe(400);
    expect((await createRequestLink(h.t, h.admin, '/inbox/', { note: 'x'.repeat(2001) })).statusCode).toBe(400);
    const normal = await h.t.request(h.admin, { method: 'POST', url: '/api/share/inbox/', payload: { maxFiles: 3 } });
    expect(normal.statusCode).toBe(400);
  });
});

describe('uploading through a file request', () => {
  it('puts the file in the folder, resumes across a dropped connection, and shows the owner what arrived', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    const data = randomBytes(300_000, 7);
    const created = await up.create('report.pdf', data.length);
    expect(created.status).toBe(201);
    const location = up.locationOf(created);
    expect(location).toMatch(new RegExp(`^/api/public/upload/${link.hash}/[0-9a-f-]{36}$`));

    // The connection drops after part of the body: the bytes that arrived are kept.
    await new Promise<void>((resolve) => {
      const request = http.request({ host: '127.0.0.1', port, method: 'PATCH', path: location, headers: { 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': '0', 'content-length': String(data.length) } });
      request.on('error', () => resolve());
      request.write(data.subarray(0, 100_000), () => setTimeout(() => request.destroy(), 200));
      request.on('close', () => resolve());
    });
    let offset = 0;
    await eventually(async () => {
      const head = await up.head(location);
      offset = Number(head.headers['upload-offset']);
      return head.status === 200 && offset > 0;
    }, 5000, 'the partial offset');
    expect(fs.existsSync(inbox('report.pdf'))).toBe(false);
    const rest = await up.patch(location, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(fs.readFileSync(inbox('report.pdf')).equals(data)).toBe(true);

    const list = (await h.t.request(h.admin, { method: 'GET', url: '/api/shares' })).json() as Share[];
    const shown = list.find((share) => share.hash === link.hash)!;
    expect(shown).toMatchObject({ uploadOnly: true, receivedFiles: 1, receivedBytes: data.length });
    expect(shown.lastReceivedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it('renames a file whose name is taken instead of replacing it', async () => {
    h.put('inbox/photo.jpg', 'original');
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    expect((await up.send('photo.jpg', Buffer.from('first'))).patched?.status).toBe(204);
    expect((await up.send('photo.jpg', Buffer.from('second'))).patched?.status).toBe(204);
    expect(inboxNames()).toEqual(['photo(1).jpg', 'photo(2).jpg', 'photo.jpg']);
    expect(fs.readFileSync(inbox('photo.jpg'), 'utf8')).toBe('original');
    expect(fs.readFileSync(inbox('photo(2).jpg'), 'utf8')).toBe('second');
  });

  it('gives two uploads of the same name in progress different names', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    const [a, b] = await Promise.all([up.create('same.txt', 3), up.create('same.txt', 3)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await up.patch(up.locationOf(a), 0, Buffer.from('aaa'))).status).toBe(204);
    expect((await up.patch(up.locationOf(b), 0, Buffer.from('bbb'))).status).toBe(204);
    expect(inboxNames()).toEqual(['same(1).txt', 'same.txt']);
  });

  it('gives uploads of one name through two links to one folder different names', async () => {
    const first = uploader(port, (await requestLink(h.t, h.admin, '/inbox/')).hash);
    const second = uploader(port, (await requestLink(h.t, h.admin, '/inbox/')).hash);
    const [a, b] = await Promise.all([first.create('same.txt', 1), second.create('same.txt', 1)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await first.patch(first.locationOf(a), 0, Buffer.from('a'))).status).toBe(204);
    expect((await second.patch(second.locationOf(b), 0, Buffer.from('b'))).status).toBe(204);
    expect(inboxNames()).toEqual(['same(1).txt', 'same.txt']);
  });

  it('enforces the per-file, total and count limits, also for parallel uploads', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { maxFileSize: 100, maxTotalSize: 250, maxFiles: 3 });
    const up = uploader(port, link.hash);
    const tooBig = await up.create('big.bin', 101);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toContain('larger than this link accepts');

    // Five creations of 100 bytes at once: the total (250) lets two through, never more.
    const racing = await Promise.all([1, 2, 3, 4, 5].map((n) => up.create(`f${n}.bin`, 100)));
    expect(racing.filter((response) => response.status === 201)).toHaveLength(2);
    expect(racing.filter((response) => response.status === 413)).toHaveLength(3);
    for (const response of racing.filter((r) => r.status === 201)) {
      expect((await up.patch(up.locationOf(response), 0, randomBytes(100))).status).toBe(204);
    }
    expect((await up.send('small.bin', randomBytes(50))).patched?.status).toBe(204);
    // Three files arrived: the count is reached even though 0 bytes would still fit.
    const fourth = await up.create('empty.txt', 0);
    expect(fourth.status).toBe(403);
    expect(fourth.body).toContain('no more files');
    expect(inboxNames()).toHaveLength(3);
    const info = JSON.parse((await up.info()).body);
    expect(info).toMatchObject({ maxFiles: 3, remainingFiles: 0, remainingBytes: 0 });
  });

  it('counts parallel creations against the file count', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { maxFiles: 2 });
    const up = uploader(port, link.hash);
    const racing = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => up.create(`f${n}.txt`, 1)));
    expect(racing.filter((response) => response.status === 201)).toHaveLength(2);
  });

  it('cuts off a body longer than the length declared at creation', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { maxFileSize: 10 });
    const up = uploader(port, link.hash);
    const created = await up.create('liar.txt', 10);
    expect(created.status).toBe(201);
    const location = up.locationOf(created);
    // Declared too long up front.
    expect((await up.patch(location, 0, randomBytes(20))).status).toBe(413);
    // Or sent chunked, with no length to judge it by until the bytes arrive.
    const chunked = await rawRequest(port, {
      method: 'PATCH',
      path: location,
      headers: { 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': '0', 'transfer-encoding': 'chunked' },
      body: (request) => {
        request.write(randomBytes(8));
        request.end(randomBytes(12));
      },
    });
    expect(chunked.status).toBe(413);
    expect(fs.existsSync(inbox('liar.txt'))).toBe(false);
  });

  it('refuses uploads once the link has expired', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { expires: '1', unit: 'seconds' });
    const up = uploader(port, link.hash);
    const created = await up.create('early.txt', 2);
    expect(created.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await up.patch(up.locationOf(created), 0, Buffer.from('hi'))).status).toBe(404);
    expect((await up.create('late.txt', 2)).status).toBe(404);
    expect(inboxNames()).toEqual([]);
  });

  it('needs the password of a protected link', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { password: 'drop secret' });
    expect((await uploader(port, link.hash).create('a.txt', 1)).status).toBe(401);
    expect((await uploader(port, link.hash, passwordHeader('wrong')).create('a.txt', 1)).status).toBe(401);
    expect((await uploader(port, link.hash).info()).status).toBe(401);
    const up = uploader(port, link.hash, passwordHeader('drop secret'));
    const created = await up.create('a.txt', 1);
    expect(created.status).toBe(201);
    // Every step needs it, not only the creation.
    expect((await uploader(port, link.hash).patch(up.locationOf(created), 0, Buffer.from('a'))).status).toBe(401);
    expect((await up.patch(up.locationOf(created), 0, Buffer.from('a'))).status).toBe(204);
    expect(inboxNames()).toEqual(['a.txt']);
  });

  it('rate-limits password guesses as other links do', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { password: 'right one' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await uploader(port, link.hash, passwordHeader(`guess ${attempt}`)).create('a.txt', 1)).status);
    expect(statuses).toContain(429);
  });

  it('stops accepting when the owner loses create', async () => {
    const owner = await h.user('owner', { scope: '/inbox', perm: { share: true, download: true, create: true } });
    const link = await requestLink(h.t, owner.token, '/');
    const up = uploader(port, link.hash);
    const created = await up.create('a.txt', 1);
    expect(created.status).toBe(201);
    const users = h.t.app.services.usersRepository;
    await users.update(owner.record.id, { ...owner.record, perm: { ...owner.record.perm, create: false } });
    expect((await up.patch(up.locationOf(created), 0, Buffer.from('a'))).status).toBe(403);
    expect((await up.create('b.txt', 1)).status).toBe(403);
    expect(inboxNames()).toEqual([]);
  });

  it('tells the search index about the new file', async () => {
    const search = h.t.app.services.search;
    await search.rescan();
    const link = await requestLink(h.t, h.admin, '/inbox/');
    expect((await uploader(port, link.hash).send('quarterly-figures.ods', Buffer.from('x'))).patched?.status).toBe(204);
    await eventually(async () => {
      const response = await h.t.request(h.admin, { method: 'GET', url: '/api/search/?query=quarterly-figures' });
      return response.body.includes('inbox/quarterly-figures.ods');
    }, 5000, 'the search index');
  });

  it('leaves nothing behind for an upload whose connection never came back', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { maxFiles: 1 });
    const up = uploader(port, link.hash);
    expect((await up.create('a.txt', 5)).status).toBe(201);
    // The upload holds the one place until it is abandoned (expired and swept).
    expect((await up.create('b.txt', 5)).status).toBe(403);
    for (const row of await uploadRows(h.t)) await h.t.app.services.db.deleteFrom('uploads').where('id', '=', row.id).execute();
    expect((await up.create('b.txt', 5)).status).toBe(201);
  });
});
