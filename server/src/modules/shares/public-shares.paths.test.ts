import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../downloads/test-fixtures.js';
import { createShareHarness, tarEntries, type ShareHarness } from './shares.test-support.js';

let h: ShareHarness;

const SECRETS = ['SIBLING-SECRET', 'TOP-SECRET', 'OUTSIDE-SECRET', 'PRIVATE-SECRET', 'DOT-SECRET'];

/** No secret content anywhere; and no secret names in a successful answer (errors may echo the URL). */
function expectNoSecret(body: string, label: string, status = 200) {
  for (const secret of SECRETS) expect(body, `${label} leaked ${secret}`).not.toContain(secret);
  if (status !== 200) return;
  for (const name of ['sibling-secret.txt', 'top-secret.txt', 'outside.txt', 'private.txt']) expect(body, `${label} named ${name}`).not.toContain(name);
}

beforeEach(async () => {
  h = await createShareHarness();
  h.put('a/ok.txt', 'fine');
  h.put('a/sub/inner.txt', 'inner');
  h.put('ab/sibling-secret.txt', 'SIBLING-SECRET');
  h.put('a-b/sibling-secret.txt', 'SIBLING-SECRET');
  h.put('top-secret.txt', 'TOP-SECRET');
  fs.writeFileSync(path.join(h.t.outside, 'outside.txt'), 'OUTSIDE-SECRET');
});
afterEach(async () => {
  await h.close();
});

describe('a shared folder is a wall', () => {
  it('keeps sibling folders (/a shared, /ab and /a-b next to it) out of reach in every encoding', async () => {
    const link = await h.share(h.admin, '/a/');
    const attempts = [
      '/../ab/sibling-secret.txt',
      '/..%2fab%2fsibling-secret.txt',
      '/..%2Fab%2Fsibling-secret.txt',
      '/%2e%2e/ab/sibling-secret.txt',
      '/%2E%2E%2Fab%2Fsibling-secret.txt',
      '%2F..%2Fab%2Fsibling-secret.txt',
      '%2F%2E%2E%2Fa-b%2Fsibling-secret.txt',
      '/..%5cab%5csibling-secret.txt',
      '/%252e%252e/ab/sibling-secret.txt',
      '/....//ab/sibling-secret.txt',
      '/./../ab/sibling-secret.txt',
      '/sub/../../ab/sibling-secret.txt',
      '/sub/%2e%2e/%2e%2e/ab/sibling-secret.txt',
      '//../ab/sibling-secret.txt',
      '/..;/ab/sibling-secret.txt',
      '/%c0%ae%c0%ae/ab/sibling-secret.txt',
      '/..%00/top-secret.txt',
      '/../top-secret.txt',
      '/%2e%2e/%2e%2e/%2e%2e/top-secret.txt',
      '/../..' + path.join(h.t.outside, 'outside.txt'),
      '/../ab/',
      '/../',
      '/%2e%2e',
    ];
    for (const attempt of attempts) {
      for (const prefix of ['/api/public/share/', '/api/public/dl/', '/api/public/preview/thumb/', '/api/public/subtitle/']) {
        const response = await h.raw(`${prefix}${link.hash}${attempt}`);
        expectNoSecret(response.body, `${prefix}${attempt} (${response.status})`, response.status);
        // Clamped at the share root a climb lands on the share itself; anything else is refused
        // (the share root is no image or subtitle: 501 and 400 there).
        expect([200, 400, 403, 404, 501], `${prefix}${attempt}`).toContain(response.status);
      }
    }
    // The hash itself cannot be bent into a path: `/a` + `b` is not `/ab`.
    expectNoSecret((await h.raw(`/api/public/dl/${link.hash}b/sibling-secret.txt`)).body, 'hash suffix');
  });

  it('keeps files= selections inside the shared folder', async () => {
    const link = await h.share(h.admin, '/a/');
    for (const element of ['../ab', '../ab/sibling-secret.txt', '/../../top-secret.txt', '..%2Fab', '%2e%2e/ab', '../a-b']) {
      const files = encodeURIComponent(encodeURIComponent(element));
      const response = await h.visit(`/api/public/dl/${link.hash}/?files=${files}&algo=tar`);
      expectNoSecret(response.body, `files=${element}`);
      if (response.statusCode === 200) {
        for (const name of (await tarEntries(response.rawPayload)).keys()) expect(name).not.toMatch(/secret|\.\./);
      }
    }
  });

  it('hides symlinks that lead out of the shared folder from listings, downloads and archives', async () => {
    const shared = path.join(h.t.root, 'a');
    fs.symlinkSync(h.t.outside, path.join(shared, 'link-out'));
    fs.symlinkSync(path.join(h.t.outside, 'outside.txt'), path.join(shared, 'link-file-out'));
    // Inside the owner's scope, yet outside the shared folder.
    fs.symlinkSync(path.join(h.t.root, 'ab'), path.join(shared, 'link-sibling'));
    fs.symlinkSync(path.join(h.t.root, 'top-secret.txt'), path.join(shared, 'link-top'));
    // Stays inside the share: a legitimate link.
    fs.symlinkSync(path.join(shared, 'sub'), path.join(shared, 'link-inside'));
    const link = await h.share(h.admin, '/a/');

    const listing = await h.visit(`/api/public/share/${link.hash}`);
    expect(listing.statusCode).toBe(200);
    const names = listing.json().items.map((item: { name: string }) => item.name);
    expect(names.sort()).toEqual(['link-inside', 'ok.txt', 'sub']);
    expect((await h.visit(`/api/public/dl/${link.hash}/link-inside/inner.txt`)).body).toBe('inner');

    for (const target of ['/link-out/outside.txt', '/link-file-out', '/link-sibling/sibling-secret.txt', '/link-top', '/link-out/', '/link-sibling/']) {
      for (const prefix of ['/api/public/share/', '/api/public/dl/']) {
        const response = await h.visit(`${prefix}${link.hash}${target}`);
        expect([403, 404], `${prefix}${target}`).toContain(response.statusCode);
        expectNoSecret(response.body, target);
      }
    }

    // Previews and subtitles resolve through the same wall.
    fs.copyFileSync(path.join(FIXTURES, 'media', 'photo.jpg'), path.join(h.t.outside, 'outside.jpg'));
    fs.writeFileSync(path.join(h.t.outside, 'outside.srt'), '1\n00:00:01,000 --> 00:00:02,000\nOUTSIDE-SECRET\n');
    fs.symlinkSync(path.join(h.t.outside, 'outside.jpg'), path.join(shared, 'link-image.jpg'));
    fs.symlinkSync(path.join(h.t.outside, 'outside.srt'), path.join(shared, 'link-sub.srt'));
    for (const url of [
      `/api/public/preview/thumb/${link.hash}/link-image.jpg`,
      `/api/public/preview/big/${link.hash}/link-image.jpg`,
      `/api/public/preview/thumb/${link.hash}/link-out/outside.jpg`,
      `/api/public/subtitle/${link.hash}/link-sub.srt`,
      `/api/public/subtitle/${link.hash}/link-out/outside.srt`,
    ]) {
      const response = await h.visit(url);
      expect([403, 404], url).toContain(response.statusCode);
      expectNoSecret(response.body, url);
    }

    const archive = await h.visit(`/api/public/dl/${link.hash}?algo=tar`);
    expect(archive.statusCode).toBe(200);
    const entries = await tarEntries(archive.rawPayload);
    for (const [name, content] of entries) {
      expect(name).not.toMatch(/link-(out|file-out|sibling|top|image|sub)/);
      expectNoSecret(content, name);
    }
    expect(entries.get('ok.txt')).toBe('fine');

    const files = encodeURIComponent(['/link-out', '/link-file-out', '/link-sibling', '/link-top'].map(encodeURIComponent).join(','));
    const selection = await h.visit(`/api/public/dl/${link.hash}/?files=${files}&algo=tar`);
    expect([403, 404]).toContain(selection.statusCode);
    expectNoSecret(selection.body, 'files= links');
  });

  it('refuses a link whose shared folder was swapped for a symlink leading out of the scope', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/docs/ok.txt', 'fine');
    const link = await h.share(bob.token, '/docs/');
    fs.rmSync(path.join(h.t.root, 'users', 'bob', 'docs'), { recursive: true });
    fs.symlinkSync(h.t.outside, path.join(h.t.root, 'users', 'bob', 'docs'));
    for (const url of [`/api/public/share/${link.hash}`, `/api/public/dl/${link.hash}/outside.txt`, `/api/public/dl/${link.hash}?algo=tar`]) {
      const response = await h.visit(url);
      expect([403, 404], url).toContain(response.statusCode);
      expectNoSecret(response.body, url);
    }
  });
});

describe('the owner’s rules and hidden dotfiles apply below the share root', () => {
  it('honours deny rules (path and regex) tested on owner-scope paths', async () => {
    const bob = await h.user('bob', {
      scope: '/users/bob',
      rules: [
        { regex: false, allow: false, path: '/shared/private', regexp: { raw: '' } },
        { regex: true, allow: false, path: '', regexp: { raw: '^/shared/.*\\.key$' } },
      ],
    });
    h.put('users/bob/shared/ok.txt', 'fine');
    h.put('users/bob/shared/private/private.txt', 'PRIVATE-SECRET');
    h.put('users/bob/shared/deep/x.key', 'PRIVATE-SECRET');
    // A rule on a folder named like the share's own root elsewhere must not matter.
    h.put('users/bob/shared/privateer.txt', 'ok too');
    const link = await h.share(bob.token, '/shared/');

    const listing = (await h.visit(`/api/public/share/${link.hash}`)).json();
    expect(listing.items.map((item: { name: string }) => item.name).sort()).toEqual(['deep', 'ok.txt', 'privateer.txt']);
    expect((await h.visit(`/api/public/share/${link.hash}/deep`)).json().items).toEqual([]);

    for (const target of ['/private/private.txt', '/private/', '/deep/x.key', '/PRIVATE/../private/private.txt']) {
      for (const prefix of ['/api/public/share/', '/api/public/dl/']) {
        const response = await h.visit(`${prefix}${link.hash}${target}`);
        expect(response.statusCode, `${prefix}${target}`).toBe(403);
      }
    }
    const archive = await tarEntries((await h.visit(`/api/public/dl/${link.hash}?algo=tar`)).rawPayload);
    expect([...archive.keys()].sort()).toEqual(['deep/', 'ok.txt', 'privateer.txt']);
    for (const content of archive.values()) expect(content).not.toContain('PRIVATE-SECRET');
    const files = encodeURIComponent(['/private', '/deep/x.key'].map(encodeURIComponent).join(','));
    expect((await h.visit(`/api/public/dl/${link.hash}/?files=${files}&algo=tar`)).statusCode).toBe(403);
  });

  it('stops the link when the owner’s rules come to deny the shared folder itself', async () => {
    const bob = await h.user('bob', { scope: '/users/bob' });
    h.put('users/bob/shared/ok.txt', 'fine');
    const link = await h.share(bob.token, '/shared/');
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(200);
    const admin = (await h.t.app.services.usersRepository.findById(1))!;
    await h.t.app.services.users.update(
      admin,
      bob.record.id,
      { what: 'user', which: ['rules'], data: { rules: [{ regex: false, allow: false, path: '/shared', regexp: { raw: '' } }] } },
      { trusted: true },
    );
    expect((await h.visit(`/api/public/share/${link.hash}`)).statusCode).toBe(403);
    expect((await h.visit(`/api/public/dl/${link.hash}/ok.txt`)).statusCode).toBe(403);
  });

  it('keeps the owner’s hidden dotfiles out of listings, downloads and archives', async () => {
    const bob = await h.user('bob', { scope: '/users/bob', hideDotfiles: true });
    h.put('users/bob/shared/ok.txt', 'fine');
    h.put('users/bob/shared/.env', 'DOT-SECRET');
    h.put('users/bob/shared/.git/config', 'DOT-SECRET');
    const link = await h.share(bob.token, '/shared/');
    const listing = (await h.visit(`/api/public/share/${link.hash}`)).json();
    expect(listing.items.map((item: { name: string }) => item.name)).toEqual(['ok.txt']);
    // Denied as the owner's rules deny: 403, before anything is looked up.
    for (const target of ['/.env', '/.git/config', '/.git/', '/.missing']) {
      for (const prefix of ['/api/public/share/', '/api/public/dl/']) {
        const response = await h.visit(`${prefix}${link.hash}${target}`);
        expect(response.statusCode, `${prefix}${target}`).toBe(403);
      }
    }
    const archive = await tarEntries((await h.visit(`/api/public/dl/${link.hash}?algo=tar`)).rawPayload);
    expect([...archive.keys()]).toEqual(['ok.txt']);
    const files = encodeURIComponent(['/.env', '/.git/config'].map(encodeURIComponent).join(','));
    expect((await h.visit(`/api/public/dl/${link.hash}/?files=${files}&algo=tar`)).statusCode).toBe(403);
  });
});
