import fs from 'node:fs';
import path from 'node:path';
import type { Rule } from '@burrow/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDavHarness, hrefsOf, type DavHarness } from './webdav.test-support.js';

const deny = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });
const SECRET = 'the-neighbours-secret';

let h: DavHarness;
const real = (relative: string) => path.join(h.t.root, relative);
const write = (relative: string, content = 'x') => {
  fs.mkdirSync(path.dirname(real(relative)), { recursive: true });
  fs.writeFileSync(real(relative), content);
};
const lockBody = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

beforeEach(async () => {
  h = await createDavHarness();
  await h.user('u', { scope: '/u' });
  await h.user('v', { scope: '/v' });
  write('v/secret.txt', SECRET);
  write('u/mine.txt', 'mine');
});
afterEach(async () => {
  await h.close();
});

describe('traversal in request paths', () => {
  const attempts = [
    '/../v/secret.txt',
    '/%2e%2e/v/secret.txt',
    '/%2E%2E%2Fv%2Fsecret.txt',
    '/..%2f..%2fv%2fsecret.txt',
    '/a/../../v/secret.txt',
    '/%252e%252e/v/secret.txt',
    '/..\\v\\secret.txt',
    '/%00/secret.txt',
  ];
  for (const attempt of attempts) {
    it(`never reaches another scope: ${attempt}`, async () => {
      for (const method of ['GET', 'PROPFIND', 'PUT', 'DELETE']) {
        const response = await h.dav('u', method, attempt, { headers: { depth: '0' }, payload: method === 'PUT' ? 'overwritten' : undefined });
        expect(response.body, `${method} ${attempt}`).not.toContain(SECRET);
        expect(response.body).not.toContain('/v/');
      }
      expect(fs.readFileSync(real('v/secret.txt'), 'utf8')).toBe(SECRET);
    });
  }
});

describe('traversal in Destination headers', () => {
  const attempts: Array<[string, number[]]> = [
    ['/dav/../v/stolen.txt', [502]],
    ['/dav/%2e%2e/v/stolen.txt', [502]],
    ['/dav/..%2fv%2fstolen.txt', [502]],
    ['http://localhost/dav/%2e%2e/%2e%2e/v/stolen.txt', [502]],
    ['http://localhost/dav/a/../../../v/stolen.txt', [502]],
    ['http://evil.example/dav/stolen.txt', [502]],
    ['https://localhost.evil.example/dav/stolen.txt', [502]],
    ['http://user:pass@localhost/dav/stolen.txt', [502]],
    ['ftp://localhost/dav/stolen.txt', [502]],
    ['//evil.example/dav/stolen.txt', [400]],
    ['/api/resources/stolen.txt', [502]],
    ['/dav/%00stolen.txt', [400]],
    ['not a url', [400]],
  ];
  for (const [destination, statuses] of attempts) {
    it(`refuses ${destination}`, async () => {
      for (const method of ['COPY', 'MOVE']) {
        const response = await h.dav('u', method, '/mine.txt', { headers: { destination } });
        expect(statuses, `${method} → ${response.statusCode}`).toContain(response.statusCode);
      }
      expect(fs.readdirSync(real('v'))).toEqual(['secret.txt']);
      expect(fs.readFileSync(real('u/mine.txt'), 'utf8')).toBe('mine');
      expect(fs.existsSync(real('stolen.txt'))).toBe(false);
    });
  }

  it('keeps a destination that climbs above the scope inside it', async () => {
    // Dot segments resolve lexically and stop at the top: this names /dav/copy.txt.
    const response = await h.dav('u', 'COPY', '/mine.txt', { headers: { destination: '/dav/../dav/../../dav/copy.txt' } });
    expect(response.statusCode).toBe(201);
    expect(fs.readFileSync(real('u/copy.txt'), 'utf8')).toBe('mine');
    const inside = await h.dav('u', 'COPY', '/mine.txt', { headers: { destination: '/dav/x/../../../copy2.txt' } });
    expect(inside.statusCode).toBe(502);
    expect(fs.existsSync(real('copy2.txt'))).toBe(false);
  });
});

describe('lock tokens of other users', () => {
  it('a token is only good for the user who took the lock', async () => {
    await h.user('w1', { scope: '/shared' });
    await h.user('w2', { scope: '/shared' });
    write('shared/doc.txt', 'original');
    const locked = await h.dav('w1', 'LOCK', '/doc.txt', { payload: lockBody });
    expect(locked.statusCode).toBe(200);
    const token = String(locked.headers['lock-token']).slice(1, -1);
    for (const [method, options] of [
      ['PUT', { payload: 'hijacked' }],
      ['DELETE', {}],
      ['MOVE', { headers: { destination: '/dav/moved.txt' } }],
      ['PROPPATCH', { payload: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:a xmlns:x="urn:x">1</x:a></D:prop></D:set></D:propertyupdate>' }],
    ] as const) {
      const headers = { ...(('headers' in options && options.headers) || {}), if: `(<${token}>)` };
      const response = await h.dav('w2', method, '/doc.txt', { ...options, headers });
      expect(response.statusCode, method).toBe(423);
    }
    expect((await h.dav('w2', 'UNLOCK', '/doc.txt', { headers: { 'lock-token': `<${token}>` } })).statusCode).toBe(403);
    expect((await h.dav('w2', 'LOCK', '/doc.txt', { headers: { if: `(<${token}>)` } })).statusCode).toBe(412);
    expect(fs.readFileSync(real('shared/doc.txt'), 'utf8')).toBe('original');
    expect((await h.dav('w1', 'PUT', '/doc.txt', { payload: 'mine', headers: { if: `(<${token}>)` } })).statusCode).toBe(204);
  });
});

describe('rules and hidden dotfiles', () => {
  it('refuses denied and hidden paths for every method and leaves them out of listings', async () => {
    await h.user('ruled', { scope: '/r', rules: [deny('/private')], hideDotfiles: true });
    write('r/private/p.txt', 'p');
    write('r/.env', 'SECRET=1');
    write('r/open.txt', 'o');
    for (const target of ['/private/p.txt', '/private/', '/.env', '/.git/config', '/a/../.env']) {
      for (const method of ['GET', 'PROPFIND', 'PUT', 'DELETE', 'PROPPATCH', 'LOCK', 'MKCOL']) {
        const response = await h.dav('ruled', method, target, { headers: { depth: '0' }, payload: method === 'PUT' ? 'x' : undefined });
        expect(response.statusCode, `${method} ${target}`).toBe(403);
      }
    }
    for (const destination of ['/dav/private/moved.txt', '/dav/.hidden']) {
      expect((await h.dav('ruled', 'COPY', '/open.txt', { headers: { destination } })).statusCode).toBe(403);
      expect((await h.dav('ruled', 'MOVE', '/open.txt', { headers: { destination } })).statusCode).toBe(403);
    }
    expect((await h.dav('ruled', 'COPY', '/private/p.txt', { headers: { destination: '/dav/leak.txt' } })).statusCode).toBe(403);
    const listing = await h.dav('ruled', 'PROPFIND', '/', { headers: { depth: '1' } });
    expect(hrefsOf(listing.body)).toEqual(['/dav/', '/dav/open.txt']);
    expect(fs.readFileSync(real('r/.env'), 'utf8')).toBe('SECRET=1');
    expect(fs.existsSync(real('r/leak.txt'))).toBe(false);
  });

  it('a folder holding a denied entry cannot be deleted or moved away', async () => {
    await h.user('ruled', { scope: '/r', rules: [deny('/box/keep.txt')] });
    write('r/box/keep.txt', 'k');
    expect((await h.dav('ruled', 'DELETE', '/box/')).statusCode).toBe(403);
    expect((await h.dav('ruled', 'MOVE', '/box/', { headers: { destination: '/dav/elsewhere/' } })).statusCode).toBe(403);
    expect(fs.existsSync(real('r/box/keep.txt'))).toBe(true);
  });
});

describe('permissions', () => {
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    ['download', 'GET', '/mine.txt', {}],
    ['create', 'PUT', '/new.txt', { payload: 'x' }],
    ['create', 'MKCOL', '/folder', {}],
    ['create', 'COPY', '/mine.txt', { headers: { destination: '/dav/copy.txt' } }],
    ['create', 'LOCK', '/unmapped.txt', { payload: lockBody }],
    ['modify', 'PUT', '/mine.txt', { payload: 'changed' }],
    ['modify', 'PROPPATCH', '/mine.txt', { payload: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:a xmlns:x="urn:x">1</x:a></D:prop></D:set></D:propertyupdate>' }],
    ['modify', 'LOCK', '/mine.txt', { payload: lockBody }],
    ['delete', 'DELETE', '/mine.txt', {}],
    ['rename', 'MOVE', '/mine.txt', { headers: { destination: '/dav/renamed.txt' } }],
  ];
  for (const [permission, method, target, options] of cases) {
    it(`${method} ${target} needs ${permission}`, async () => {
      await h.user('limited', { scope: '/u', perm: { [permission]: false } });
      const response = await h.dav('limited', method, target, options);
      expect(response.statusCode).toBe(403);
      expect(fs.readdirSync(real('u'))).toEqual(['mine.txt']);
      expect(fs.readFileSync(real('u/mine.txt'), 'utf8')).toBe('mine');
      // The same request passes for a user who has the permission.
      const allowed = await h.dav('u', method, target, options);
      expect(allowed.statusCode).toBeLessThan(300);
    });
  }
});

describe('links out of the scope', () => {
  it('are neither read, listed, written through nor followed by copies', async () => {
    fs.writeFileSync(path.join(h.t.outside, 'outside.txt'), SECRET);
    fs.symlinkSync(h.t.outside, real('u/escape'));
    fs.symlinkSync(path.join(h.t.outside, 'outside.txt'), real('u/escape.txt'));
    for (const target of ['/escape/outside.txt', '/escape.txt', '/escape/']) {
      const get = await h.dav('u', 'GET', target);
      expect(get.statusCode, target).toBe(403);
      expect(get.body).not.toContain(SECRET);
      expect((await h.dav('u', 'PROPFIND', target, { headers: { depth: '1' } })).statusCode).toBe(403);
    }
    expect(hrefsOf((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '1' } })).body)).toEqual(['/dav/', '/dav/mine.txt']);
    expect((await h.dav('u', 'PUT', '/escape/planted.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.dav('u', 'PUT', '/escape.txt', { payload: 'x' })).statusCode).toBe(403);
    expect((await h.dav('u', 'COPY', '/escape.txt', { headers: { destination: '/dav/copied.txt' } })).statusCode).toBe(403);
    expect((await h.dav('u', 'MKCOL', '/escape/made')).statusCode).toBe(403);
    expect(fs.readdirSync(h.t.outside)).toEqual(['outside.txt']);
    expect(fs.readFileSync(path.join(h.t.outside, 'outside.txt'), 'utf8')).toBe(SECRET);
    expect(fs.existsSync(real('u/copied.txt'))).toBe(false);
  });
});

describe('hostile XML', () => {
  const bodies: Array<[string, string]> = [
    ['billion laughs', '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><D:propfind xmlns:D="DAV:"><D:prop><x:a xmlns:x="urn:x">&lol2;</x:a></D:prop></D:propfind>'],
    ['external entity', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><x:a xmlns:x="urn:x">&xxe;</x:a></D:prop></D:propfind>'],
    ['parameter entity', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>'],
    ['undeclared entity', '<D:propfind xmlns:D="DAV:"><D:prop><x:a xmlns:x="urn:x">&nbsp;</x:a></D:prop></D:propfind>'],
    ['deep nesting', `<D:propfind xmlns:D="DAV:">${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</D:propfind>`],
    ['undeclared prefix', '<D:propfind xmlns:D="DAV:"><D:prop><q:a/></D:prop></D:propfind>'],
    ['not XML', 'hello'],
  ];
  for (const [name, body] of bodies) {
    it(`refuses ${name} with 400 and changes nothing`, async () => {
      for (const method of ['PROPFIND', 'PROPPATCH', 'LOCK']) {
        const response = await h.dav('u', method, '/mine.txt', { headers: { depth: '0', 'content-type': 'application/xml' }, payload: body.replace('propfind', method === 'PROPPATCH' ? 'propertyupdate' : method === 'LOCK' ? 'lockinfo' : 'propfind') });
        expect(response.statusCode, method).toBe(400);
        expect(response.body).not.toContain('root:');
      }
    });
  }

  it('refuses XML bodies over 1 MiB with 413', async () => {
    const response = await h.dav('u', 'PROPFIND', '/mine.txt', { headers: { depth: '0' }, payload: `<D:propfind xmlns:D="DAV:"><!--${'x'.repeat(1024 * 1024)}--><D:allprop/></D:propfind>` });
    expect(response.statusCode).toBe(413);
  });

  it('escapes names and values it sends back', async () => {
    write('u/a&b<c>.txt', 'x');
    const listing = await h.dav('u', 'PROPFIND', '/', { headers: { depth: '1' } });
    expect(listing.body).toContain('<D:displayname>a&amp;b&lt;c&gt;.txt</D:displayname>');
    expect(hrefsOf(listing.body)).toContain('/dav/a%26b%3Cc%3E.txt');
  });
});
