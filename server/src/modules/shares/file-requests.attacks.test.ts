import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rule } from '@burrow/protocol';
import { rawRequest } from '../uploads/tus.test-support.js';
import { createShareHarness, passwordHeader, type ShareHarness } from './shares.test-support.js';
import { portOf, requestLink, uploader } from './file-requests.test-support.js';

let h: ShareHarness;
let port: number;

beforeEach(async () => {
  h = await createShareHarness();
  h.put('inbox/secret.txt', 'top secret');
  h.put('inbox/photo.png', Buffer.from('89504e470d0a1a0a', 'hex'));
  h.put('inbox/movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nhi\n');
  h.put('elsewhere/keep.txt', 'keep');
  port = await portOf(h.t);
});
afterEach(async () => {
  await h.close();
});

/** Every file below the served root and the temporary folder beside it, relative to their parent. */
function allFiles(): string[] {
  const base = path.dirname(h.t.root);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(base, full));
    }
  };
  walk(base);
  return found.filter((name) => !name.startsWith('cache/') && !name.startsWith('burrow.db')).sort();
}

const get = (url: string, headers: Record<string, string> = {}) => rawRequest(port, { method: 'GET', path: url, headers });

describe('reading through an upload-only link', () => {
  it('answers every public read endpoint as for a missing link, password or not', async () => {
    const open = await requestLink(h.t, h.admin, '/inbox/');
    const locked = await requestLink(h.t, h.admin, '/inbox/', { password: 'pw' });
    for (const hash of [open.hash, locked.hash]) {
      for (const headers of [{}, passwordHeader('pw')]) {
        for (const url of [
          `/api/public/share/${hash}`,
          `/api/public/share/${hash}/secret.txt`,
          `/api/public/dl/${hash}`,
          `/api/public/dl/${hash}/secret.txt`,
          `/api/public/dl/${hash}%2Fsecret.txt?inline=true`,
          `/api/public/dl/${hash}?files=secret.txt&algo=zip`,
          `/api/public/preview/thumb/${hash}/photo.png`,
          `/api/public/preview/big/${hash}/photo.png`,
          `/api/public/subtitle/${hash}/movie.srt`,
        ]) {
          const response = await get(url, headers);
          expect(response.status, url).toBe(404);
          expect(response.body).not.toContain('top secret');
          expect(response.body).not.toContain('secret.txt');
        }
      }
    }
  });

  it('tells an uploader the note and limits, never what the folder holds', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { note: 'hello' });
    const info = await uploader(port, link.hash).info();
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toEqual({ name: 'inbox', note: 'hello', maxFileSize: 0, maxTotalSize: 0, maxFiles: 0 });
    expect(info.body).not.toContain('secret');
  });

  it('reads nothing back through HEAD or PATCH of an upload', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    const created = await up.create('new.txt', 3);
    const location = up.locationOf(created);
    const viaGet = await get(location);
    expect([404, 405]).toContain(viaGet.status);
    expect(viaGet.body).not.toContain('new.txt');
    // No DELETE either: an uploader cannot cancel (or probe) uploads by id.
    expect([404, 405]).toContain((await rawRequest(port, { method: 'DELETE', path: location, headers: { 'tus-resumable': '1.0.0' } })).status);
  });
});

describe('writing where an uploader should not', () => {
  it('refuses names that could leave the folder or hide the file', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    const before = allFiles();
    for (const name of ['../escape.txt', '../../outside/escape.txt', '..', '.', 'a/b.txt', '/etc/passwd', '..\\escape.txt', 'a\\b.txt', 'nul\u0000.txt', 'line\nbreak.txt', '.htaccess', '.', '', ' ', 'x'.repeat(256)]) {
      const response = await up.create(name, 1);
      expect(response.status, JSON.stringify(name)).toBe(400);
    }
    // No name at all, or a broken metadata header.
    expect((await up.create(undefined, 1)).status).toBe(400);
    expect((await up.create(undefined, 1, { 'upload-metadata': 'filename !!!' })).status).toBe(400);
    expect(allFiles()).toEqual(before);
  });

  it('keeps the owner rules and hidden dotfiles', async () => {
    const deny: Rule = { regex: false, allow: false, path: '/inbox/private.txt', regexp: { raw: '' } };
    const owner = await h.user('owner', { perm: { share: true, download: true, create: true }, rules: [deny] });
    const link = await requestLink(h.t, owner.token, '/inbox/');
    expect((await uploader(port, link.hash).create('private.txt', 1)).status).toBe(403);
    expect(fs.existsSync(path.join(h.t.root, 'inbox', 'private.txt'))).toBe(false);
  });

  it('cannot reach another path or upload through the tus URL', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const other = await requestLink(h.t, h.admin, '/elsewhere/');
    const up = uploader(port, link.hash);
    const mine = up.locationOf(await up.create('mine.txt', 4));
    const id = mine.slice(mine.lastIndexOf('/') + 1);
    // The owner's own upload, made through the app.
    const own = await h.t.request(h.admin, { method: 'POST', url: '/api/tus/elsewhere/own.txt', headers: { 'tus-resumable': '1.0.0', 'upload-length': '4' } });
    expect(own.statusCode).toBe(201);
    const ownRow = await h.t.app.services.db.selectFrom('uploads').selectAll().where('path', '=', '/elsewhere/own.txt').executeTakeFirstOrThrow();

    const patch = (url: string) => up.patch(url, 0, Buffer.from('evil'));
    for (const url of [
      `/api/public/upload/${other.hash}/${id}`,
      `/api/public/upload/${link.hash}/${ownRow.id}`,
      `/api/public/upload/${link.hash}/..%2F..%2Felsewhere%2Fkeep.txt`,
      `/api/public/upload/${link.hash}/%2e%2e`,
      `/api/public/upload/${link.hash}/../../tus/elsewhere/own.txt`,
      `/api/public/upload/${link.hash}/${id}/extra`,
      `/api/public/upload/${link.hash}/../${other.hash}/${id}`,
    ]) {
      const response = await patch(url);
      expect([404, 401, 400], url).toContain(response.status);
      expect(response.status, url).not.toBe(204);
    }
    expect(fs.readFileSync(path.join(h.t.root, 'elsewhere', 'keep.txt'), 'utf8')).toBe('keep');
    expect(fs.existsSync(path.join(h.t.root, 'elsewhere', 'own.txt'))).toBe(false);
    // The real one still works.
    expect((await patch(mine)).status).toBe(204);
    expect(fs.readFileSync(path.join(h.t.root, 'inbox', 'mine.txt'), 'utf8')).toBe('evil');
  });

  it('never overwrites an existing file, whatever the request asks', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    const up = uploader(port, link.hash);
    const created = await rawRequest(port, {
      method: 'POST',
      path: `/api/public/upload/${link.hash}?override=true`,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '4', 'upload-metadata': `filename ${Buffer.from('secret.txt').toString('base64')}` },
    });
    expect(created.status).toBe(201);
    expect((await up.patch(up.locationOf(created), 0, Buffer.from('evil'))).status).toBe(204);
    expect(fs.readFileSync(path.join(h.t.root, 'inbox', 'secret.txt'), 'utf8')).toBe('top secret');
    expect(fs.readFileSync(path.join(h.t.root, 'inbox', 'secret(1).txt'), 'utf8')).toBe('evil');
  });

  it('refuses uploads past the limits, without a declared length, and appends after the end', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/', { maxFileSize: 10, maxTotalSize: 15, maxFiles: 5 });
    const up = uploader(port, link.hash);
    expect((await up.create('a.txt', undefined)).status).toBe(400);
    expect((await up.create('a.txt', undefined, { 'upload-defer-length': '1' })).status).toBe(400);
    expect((await up.create('a.txt', 11)).status).toBe(413);
    expect((await up.create('a.txt', '99999999999999999999' as unknown as number)).status).toBe(400);
    const created = await up.create('a.txt', 10);
    const location = up.locationOf(created);
    expect((await up.patch(location, 0, Buffer.from('0123456789'))).status).toBe(204);
    // The upload is finished: nothing more lands in it (tus reports the final offset).
    const after = await up.patch(location, 10, Buffer.from('more'));
    expect(after.headers['upload-offset'] ?? '10').toBe('10');
    expect(fs.readFileSync(path.join(h.t.root, 'inbox', 'a.txt'), 'utf8')).toBe('0123456789');
    expect((await up.create('b.txt', 6)).status).toBe(413);
    expect((await up.create('b.txt', 5)).status).toBe(201);
  });

  it('does not take a normal link on the upload endpoint', async () => {
    const normal = await h.share(h.admin, '/inbox/');
    const up = uploader(port, normal.hash);
    expect((await up.create('drop.txt', 1)).status).toBe(404);
    expect((await up.info()).status).toBe(404);
    expect((await up.head(`/api/public/upload/${normal.hash}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect(fs.existsSync(path.join(h.t.root, 'inbox', 'drop.txt'))).toBe(false);
    expect((await uploader(port, 'not-a-hash').create('drop.txt', 1)).status).toBe(404);
  });

  it('refuses a file link or a folder that became a file', async () => {
    const link = await requestLink(h.t, h.admin, '/inbox/');
    fs.rmSync(path.join(h.t.root, 'inbox'), { recursive: true });
    fs.writeFileSync(path.join(h.t.root, 'inbox'), 'now a file');
    expect((await uploader(port, link.hash).create('x.txt', 1)).status).toBe(404);
  });
});
