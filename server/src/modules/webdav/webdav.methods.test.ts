import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDavHarness, hrefsOf, type DavHarness } from './webdav.test-support.js';

let h: DavHarness;
/** Real path inside user u's scope. */
const real = (relative: string) => path.join(h.t.root, 'u', relative);
const write = (relative: string, content: string | Buffer = '') => {
  fs.mkdirSync(path.dirname(real(relative)), { recursive: true });
  fs.writeFileSync(real(relative), content);
};

beforeEach(async () => {
  h = await createDavHarness();
  await h.user('u', { scope: '/u' });
});
afterEach(async () => {
  await h.close();
});

const propfindBody = (inner: string) => `<?xml version="1.0"?><D:propfind xmlns:D="DAV:">${inner}</D:propfind>`;

describe('OPTIONS', () => {
  it('announces classes 1 and 2 on /dav/ and on the server root, without credentials', async () => {
    for (const url of ['/dav/', '/dav/any/where', '/']) {
      const response = await h.t.app.inject({ method: 'OPTIONS', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers.dav).toBe('1, 2');
      expect(response.headers['ms-author-via']).toBe('DAV');
      expect(String(response.headers.allow)).toContain('PROPFIND');
    }
  });
});

describe('authentication', () => {
  it('challenges with Basic, accepts the Burrow password and API tokens', async () => {
    const anonymous = await h.dav(undefined, 'PROPFIND', '/', { headers: { depth: '0' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic realm="Burrow"/);
    const wrong = await h.t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '0', authorization: h.basic('u', 'nope') } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    expect((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    const token = await h.t.login('u', 'u-password-1');
    expect((await h.t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '0', 'x-auth': token } })).statusCode).toBe(207);
  });

  it('forgets a remembered Basic login once the password changes', async () => {
    expect((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(207);
    const token = await h.t.login('u', 'u-password-1');
    const me = (await h.t.app.services.usersRepository.findByUsername('u'))!;
    const changed = await h.t.request(token, {
      method: 'PUT',
      url: `/api/users/${me.id}`,
      payload: { what: 'user', which: ['password'], current_password: 'u-password-1', data: { password: 'a-brand-new-password-9' } },
    });
    expect(changed.statusCode).toBe(200);
    expect((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '0' } })).statusCode).toBe(401);
    const fresh = await h.t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '0', authorization: h.basic('u', 'a-brand-new-password-9') } });
    expect(fresh.statusCode).toBe(207);
  });

  it('takes the user from a trusted proxy header under proxy authentication, never from a cached credential', async () => {
    await h.close();
    h = await createDavHarness({ trustedProxies: ['10.1.2.3'] });
    await h.user('u', { scope: '/u' });
    await h.user('other', { scope: '/other' });
    await h.t.app.services.settings.setAuthMethod('proxy');
    write('mine.txt', 'x');
    const proxied = (user: string, basic?: string) =>
      h.t.app.inject({ method: 'PROPFIND', url: '/dav/', remoteAddress: '10.1.2.3', headers: { depth: '1', 'x-forwarded-user': user, ...(basic ? { authorization: basic } : {}) } });
    expect(hrefsOf((await proxied('u')).body)).toEqual(['/dav/', '/dav/mine.txt']);
    expect(hrefsOf((await proxied('u', h.basic('u'))).body)).toEqual(['/dav/', '/dav/mine.txt']);
    // The same Basic credential behind the proxy for another user: the header decides.
    expect(hrefsOf((await proxied('other', h.basic('u'))).body)).toEqual(['/dav/']);
    const direct = await h.t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '1', 'x-forwarded-user': 'u' } });
    expect(direct.statusCode).toBe(403);
  });

  it('counts wrong Basic passwords against the login limits', async () => {
    let last = 0;
    for (let attempt = 0; attempt < 8; attempt++) {
      last = (await h.t.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { depth: '0', authorization: h.basic('u', `guess-${attempt}`) } })).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('PROPFIND', () => {
  it('lists a folder at Depth 1 with collection hrefs ending in a slash, leaving files being written out', async () => {
    write('docs/a.txt', 'hello');
    // A write in progress beside its target: a name that is not UTF-8, which no client can name.
    fs.writeFileSync(Buffer.concat([Buffer.from(`${real('docs')}/`), Buffer.from([0xff]), Buffer.from('burrow-0123456789abcdef')]), 'partial');
    fs.mkdirSync(real('docs/sub'));
    for (const url of ['/docs', '/docs/']) {
      const response = await h.dav('u', 'PROPFIND', url, { headers: { depth: '1' } });
      expect(response.statusCode).toBe(207);
      expect(hrefsOf(response.body)).toEqual(['/dav/docs/', '/dav/docs/a.txt', '/dav/docs/sub/']);
    }
    const body = (await h.dav('u', 'PROPFIND', '/docs/a.txt', { headers: { depth: '0' } })).body;
    expect(body).toContain('<D:getcontentlength>5</D:getcontentlength>');
    expect(body).toContain('<D:getcontenttype>text/plain');
    expect(body).toMatch(/<D:getetag>"[0-9a-f]+"<\/D:getetag>/);
    expect(body).toContain('<D:resourcetype/>');
    expect(body).toContain('<D:supportedlock>');
  });

  it('refuses Depth infinity, and a missing Depth, with propfind-finite-depth unless enabled', async () => {
    for (const headers of [{ depth: 'infinity' }, {}]) {
      const response = await h.dav('u', 'PROPFIND', '/', { headers });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('<D:propfind-finite-depth/>');
    }
    await h.close();
    h = await createDavHarness({ webdavDepthInfinity: true });
    await h.user('u', { scope: '/u' });
    write('a/b/c.txt', 'x');
    const response = await h.dav('u', 'PROPFIND', '/', { headers: { depth: 'infinity' } });
    expect(response.statusCode).toBe(207);
    expect(hrefsOf(response.body)).toEqual(['/dav/', '/dav/a/', '/dav/a/b/', '/dav/a/b/c.txt']);
  });

  it('answers named properties, with unknown ones under 404, and propname', async () => {
    write('f.bin', 'abc');
    const named = await h.dav('u', 'PROPFIND', '/f.bin', {
      headers: { depth: '0' },
      payload: propfindBody('<D:prop><D:getcontentlength/><D:quota-available-bytes/><x:nothing xmlns:x="urn:x"/></D:prop>'),
    });
    expect(named.statusCode).toBe(207);
    expect(named.body).toContain('<D:getcontentlength>3</D:getcontentlength>');
    expect(named.body).toMatch(/<D:quota-available-bytes>\d+<\/D:quota-available-bytes>/);
    expect(named.body).toMatch(/<D:propstat><D:prop><x:nothing xmlns:x="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found<\/D:status>/);
    const names = await h.dav('u', 'PROPFIND', '/f.bin', { headers: { depth: '0' }, payload: propfindBody('<D:propname/>') });
    expect(names.body).toContain('<D:getetag/>');
    expect(names.body).not.toContain('>3<');
  });

  it('answers 404 for a missing resource and 400 for malformed XML', async () => {
    expect((await h.dav('u', 'PROPFIND', '/missing', { headers: { depth: '0' } })).statusCode).toBe(404);
    expect((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '0' }, payload: '<D:propfind xmlns:D="DAV:">' })).statusCode).toBe(400);
  });
});

describe('PROPPATCH', () => {
  it('stores dead properties that PROPFIND returns, follow MOVE and COPY, and go with DELETE', async () => {
    write('p.txt', 'x');
    const set = await h.dav('u', 'PROPPATCH', '/p.txt', {
      payload: '<D:propertyupdate xmlns:D="DAV:" xmlns:z="urn:z"><D:set><D:prop><z:color>blue &amp; <z:b>bold</z:b></z:color></D:prop></D:set></D:propertyupdate>',
    });
    expect(set.statusCode).toBe(207);
    expect(set.body).toContain('HTTP/1.1 200 OK');
    const ask = propfindBody('<D:prop><z:color xmlns:z="urn:z"/></D:prop>');
    const value = '<ns0:color xmlns:ns0="urn:z">blue &amp; <ns0:b>bold</ns0:b></ns0:color>';
    expect((await h.dav('u', 'PROPFIND', '/p.txt', { headers: { depth: '0' }, payload: ask })).body).toContain(value);
    expect((await h.dav('u', 'MOVE', '/p.txt', { headers: { destination: '/dav/q.txt' } })).statusCode).toBe(201);
    expect((await h.dav('u', 'PROPFIND', '/q.txt', { headers: { depth: '0' }, payload: ask })).body).toContain(value);
    expect((await h.dav('u', 'COPY', '/q.txt', { headers: { destination: '/dav/r.txt' } })).statusCode).toBe(201);
    expect((await h.dav('u', 'PROPFIND', '/r.txt', { headers: { depth: '0' }, payload: ask })).body).toContain(value);
    expect((await h.dav('u', 'DELETE', '/q.txt')).statusCode).toBe(204);
    write('q.txt', 'new');
    expect((await h.dav('u', 'PROPFIND', '/q.txt', { headers: { depth: '0' }, payload: ask })).body).toContain('404 Not Found');
  });

  it('refuses to set live properties and then changes nothing', async () => {
    write('p.txt', 'x');
    const response = await h.dav('u', 'PROPPATCH', '/p.txt', {
      payload: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>"x"</D:getetag><y:a xmlns:y="urn:y">1</y:a></D:prop></D:set></D:propertyupdate>',
    });
    expect(response.statusCode).toBe(207);
    expect(response.body).toContain('403 Forbidden');
    expect(response.body).toContain('424 Failed Dependency');
    const after = await h.dav('u', 'PROPFIND', '/p.txt', { headers: { depth: '0' }, payload: propfindBody('<D:prop><y:a xmlns:y="urn:y"/></D:prop>') });
    expect(after.body).toContain('404 Not Found');
  });
});

describe('GET and HEAD', () => {
  it('sends files with ranges and conditionals, as the raw download does', async () => {
    write('g.txt', '0123456789');
    const full = await h.dav('u', 'GET', '/g.txt');
    expect(full.statusCode).toBe(200);
    expect(full.body).toBe('0123456789');
    const range = await h.dav('u', 'GET', '/g.txt', { headers: { range: 'bytes=2-4' } });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('234');
    expect((await h.dav('u', 'GET', '/g.txt', { headers: { 'if-none-match': String(full.headers.etag) } })).statusCode).toBe(304);
    const head = await h.dav('u', 'HEAD', '/g.txt');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('10');
    expect(head.body).toBe('');
  });
});

describe('GET on a folder', () => {
  it('shows an HTML index of what PROPFIND lists, links out of the scope left out', async () => {
    write('web/a <b>.txt', 'x');
    fs.symlinkSync(h.t.outside, real('web/escape'));
    const index = await h.dav('u', 'GET', '/web/');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.body).toContain('<a href="/dav/web/a%20%3Cb%3E.txt">a &lt;b&gt;.txt</a>');
    expect(index.body).not.toContain('escape');
  });
});

describe('PUT', () => {
  it('creates (201), replaces (204), takes empty bodies and needs the parent (409)', async () => {
    const created = await h.dav('u', 'PUT', '/n.txt', { payload: 'one' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toMatch(/^"/);
    expect((await h.dav('u', 'PUT', '/n.txt', { payload: 'two' })).statusCode).toBe(204);
    expect(fs.readFileSync(real('n.txt'), 'utf8')).toBe('two');
    expect((await h.dav('u', 'PUT', '/empty', { headers: { 'content-length': '0' } })).statusCode).toBe(201);
    expect(fs.statSync(real('empty')).size).toBe(0);
    expect((await h.dav('u', 'PUT', '/no/parent.txt', { payload: 'x' })).statusCode).toBe(409);
    expect(fs.existsSync(real('no'))).toBe(false);
    fs.mkdirSync(real('folder'));
    expect((await h.dav('u', 'PUT', '/folder', { payload: 'x' })).statusCode).toBe(405);
  });

  it('honours If-None-Match: * (create only) and If-Match (replace only that version)', async () => {
    const created = await h.dav('u', 'PUT', '/c.txt', { payload: 'one', headers: { 'if-none-match': '*' } });
    expect(created.statusCode).toBe(201);
    expect((await h.dav('u', 'PUT', '/c.txt', { payload: 'two', headers: { 'if-none-match': '*' } })).statusCode).toBe(412);
    expect((await h.dav('u', 'PUT', '/c.txt', { payload: 'two', headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
    expect((await h.dav('u', 'DELETE', '/c.txt', { headers: { 'if-match': '"stale"' } })).statusCode).toBe(412);
    expect(fs.readFileSync(real('c.txt'), 'utf8')).toBe('one');
    expect((await h.dav('u', 'PUT', '/c.txt', { payload: 'two', headers: { 'if-match': String(created.headers.etag) } })).statusCode).toBe(204);
    expect(fs.readFileSync(real('c.txt'), 'utf8')).toBe('two');
  });

  it('accepts macOS AppleDouble and .DS_Store files as ordinary files', async () => {
    expect((await h.dav('u', 'PUT', '/._photo.jpg', { payload: 'meta' })).statusCode).toBe(201);
    expect((await h.dav('u', 'PUT', '/.DS_Store', { payload: 'ds' })).statusCode).toBe(201);
    expect(hrefsOf((await h.dav('u', 'PROPFIND', '/', { headers: { depth: '1' } })).body)).toEqual(['/dav/', '/dav/.DS_Store', '/dav/._photo.jpg']);
  });
});

describe('DELETE and MKCOL', () => {
  it('makes one folder: 201, 405 when taken, 409 without parent, 415 with a body', async () => {
    expect((await h.dav('u', 'MKCOL', '/m')).statusCode).toBe(201);
    expect(fs.statSync(real('m')).isDirectory()).toBe(true);
    expect((await h.dav('u', 'MKCOL', '/m/')).statusCode).toBe(405);
    write('plain', 'x');
    expect((await h.dav('u', 'MKCOL', '/plain')).statusCode).toBe(405);
    expect((await h.dav('u', 'MKCOL', '/a/b')).statusCode).toBe(409);
    expect((await h.dav('u', 'MKCOL', '/withbody', { payload: '<x/>', headers: { 'content-type': 'text/xml' } })).statusCode).toBe(415);
    expect(fs.existsSync(real('withbody'))).toBe(false);
  });

  it('deletes files and folders (204) and answers 404 for missing ones', async () => {
    write('d/e/f.txt', 'x');
    expect((await h.dav('u', 'DELETE', '/d/')).statusCode).toBe(204);
    expect(fs.existsSync(real('d'))).toBe(false);
    expect((await h.dav('u', 'DELETE', '/d')).statusCode).toBe(404);
    expect((await h.dav('u', 'DELETE', '/')).statusCode).toBe(403);
  });
});

describe('COPY and MOVE', () => {
  it('copies and moves with Overwrite semantics, replacing folders instead of merging them', async () => {
    write('src/a.txt', 'A');
    write('dst/old.txt', 'old');
    expect((await h.dav('u', 'COPY', '/src/', { headers: { destination: '/dav/dst/', overwrite: 'F' } })).statusCode).toBe(412);
    expect((await h.dav('u', 'COPY', '/src/', { headers: { destination: 'http://localhost/dav/dst/' } })).statusCode).toBe(204);
    expect(fs.readdirSync(real('dst'))).toEqual(['a.txt']);
    expect((await h.dav('u', 'MOVE', '/dst', { headers: { destination: '/dav/moved' } })).statusCode).toBe(201);
    expect(fs.existsSync(real('dst'))).toBe(false);
    expect(fs.readFileSync(real('moved/a.txt'), 'utf8')).toBe('A');
    expect((await h.dav('u', 'COPY', '/src/a.txt', { headers: { destination: '/dav/nowhere/a.txt' } })).statusCode).toBe(409);
    expect((await h.dav('u', 'COPY', '/src', { headers: { destination: '/dav/src/inner' } })).statusCode).toBe(403);
    expect((await h.dav('u', 'COPY', '/src', {})).statusCode).toBe(400);
  });

  it('copies only the folder itself with Depth 0', async () => {
    write('tree/leaf.txt', 'x');
    expect((await h.dav('u', 'COPY', '/tree', { headers: { destination: '/dav/shallow', depth: '0' } })).statusCode).toBe(201);
    expect(fs.readdirSync(real('shallow'))).toEqual([]);
  });

  it('reads destinations under the base URL', async () => {
    await h.close();
    h = await createDavHarness({ baseURL: '/files' });
    await h.user('u', { scope: '/u' });
    write('x.txt', 'x');
    const moved = await h.t.app.inject({ method: 'MOVE', url: '/files/dav/x.txt', headers: { authorization: h.basic('u'), destination: 'http://localhost/files/dav/y%20z.txt' } });
    expect(moved.statusCode).toBe(201);
    expect(fs.existsSync(real('y z.txt'))).toBe(true);
    const listing = await h.t.app.inject({ method: 'PROPFIND', url: '/files/dav/', headers: { authorization: h.basic('u'), depth: '1' } });
    expect(hrefsOf(listing.body)).toEqual(['/files/dav/', '/files/dav/y%20z.txt']);
    const outside = await h.t.app.inject({ method: 'COPY', url: '/files/dav/y%20z.txt', headers: { authorization: h.basic('u'), destination: '/dav/w.txt' } });
    expect(outside.statusCode).toBe(502);
  });
});

describe('LOCK and UNLOCK', () => {
  const lockBody = (scope: 'exclusive' | 'shared') =>
    `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:u@example.com</D:href></D:owner></D:lockinfo>`;

  it('locks, refuses changes without the token (423), accepts them with it, refreshes and unlocks', async () => {
    write('l.txt', 'x');
    const locked = await h.dav('u', 'LOCK', '/l.txt', { headers: { timeout: 'Second-600' }, payload: lockBody('exclusive') });
    expect(locked.statusCode).toBe(200);
    const token = String(locked.headers['lock-token']).slice(1, -1);
    expect(token).toMatch(/^urn:uuid:/);
    expect(locked.body).toContain('<D:owner><D:href xmlns:D="DAV:">mailto:u@example.com</D:href></D:owner>');
    expect(locked.body).toContain('<D:timeout>Second-600</D:timeout>');

    const blocked = await h.dav('u', 'PUT', '/l.txt', { payload: 'y' });
    expect(blocked.statusCode).toBe(423);
    expect(blocked.body).toContain('<D:lock-token-submitted><D:href>/dav/l.txt</D:href></D:lock-token-submitted>');
    expect((await h.dav('u', 'DELETE', '/l.txt')).statusCode).toBe(423);
    expect((await h.dav('u', 'LOCK', '/l.txt', { payload: lockBody('shared') })).statusCode).toBe(423);
    expect((await h.dav('u', 'PUT', '/l.txt', { payload: 'y', headers: { if: `(<${token}>)` } })).statusCode).toBe(204);
    expect((await h.dav('u', 'PUT', '/l.txt', { payload: 'z', headers: { if: `<http://localhost/dav/l.txt> (<${token}>)` } })).statusCode).toBe(204);
    expect((await h.dav('u', 'PUT', '/l.txt', { payload: 'z', headers: { if: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' } })).statusCode).toBe(412);
    expect((await h.dav('u', 'PUT', '/l.txt', { payload: 'z', headers: { if: '(<unclosed' } })).statusCode).toBe(400);

    const refreshed = await h.dav('u', 'LOCK', '/l.txt', { headers: { if: `(<${token}>)`, timeout: 'Second-900' } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.body).toContain('<D:timeout>Second-900</D:timeout>');
    const discovery = await h.dav('u', 'PROPFIND', '/l.txt', { headers: { depth: '0' }, payload: propfindBody('<D:prop><D:lockdiscovery/></D:prop>') });
    expect(discovery.body).toContain(token);

    expect((await h.dav('u', 'UNLOCK', '/l.txt', { headers: { 'lock-token': '<urn:uuid:bogus>' } })).statusCode).toBe(409);
    expect((await h.dav('u', 'UNLOCK', '/l.txt', { headers: { 'lock-token': `<${token}>` } })).statusCode).toBe(204);
    expect((await h.dav('u', 'DELETE', '/l.txt')).statusCode).toBe(204);
  });

  it('a depth-infinity lock on a folder guards its members and new names in it', async () => {
    write('c/m.txt', 'x');
    const locked = await h.dav('u', 'LOCK', '/c/', { headers: { depth: 'infinity' }, payload: lockBody('exclusive') });
    const token = String(locked.headers['lock-token']).slice(1, -1);
    expect((await h.dav('u', 'PUT', '/c/m.txt', { payload: 'y' })).statusCode).toBe(423);
    expect((await h.dav('u', 'PUT', '/c/new.txt', { payload: 'y' })).statusCode).toBe(423);
    expect((await h.dav('u', 'MOVE', '/c/m.txt', { headers: { destination: '/dav/out.txt' } })).statusCode).toBe(423);
    expect((await h.dav('u', 'PUT', '/c/new.txt', { payload: 'y', headers: { if: `<http://localhost/dav/c/> (<${token}>)` } })).statusCode).toBe(201);
    expect((await h.dav('u', 'LOCK', '/c/new.txt', { headers: { if: `(<${token}>)` } })).statusCode).toBe(200);
  });

  it('locks go with the resource when the files API deletes or moves it', async () => {
    write('api.txt', 'x');
    write('moved.txt', 'x');
    const lockBodyExclusive = lockBody('exclusive');
    expect((await h.dav('u', 'LOCK', '/api.txt', { payload: lockBodyExclusive })).statusCode).toBe(200);
    expect((await h.dav('u', 'LOCK', '/moved.txt', { payload: lockBodyExclusive })).statusCode).toBe(200);
    const token = await h.t.login('u', 'u-password-1');
    expect((await h.t.request(token, { method: 'DELETE', url: '/api/resources/api.txt' })).statusCode).toBe(204);
    expect((await h.t.request(token, { method: 'PATCH', url: '/api/resources/moved.txt?action=rename&destination=%2Felsewhere.txt' })).statusCode).toBe(200);
    expect((await h.dav('u', 'PUT', '/api.txt', { payload: 'new' })).statusCode).toBe(201);
    expect((await h.dav('u', 'PUT', '/moved.txt', { payload: 'new' })).statusCode).toBe(201);
  });

  it('locking an unmapped URL makes an empty file (201); shared locks coexist', async () => {
    const created = await h.dav('u', 'LOCK', '/fresh.txt', { payload: lockBody('shared') });
    expect(created.statusCode).toBe(201);
    expect(fs.statSync(real('fresh.txt')).size).toBe(0);
    const second = await h.dav('u', 'LOCK', '/fresh.txt', { payload: lockBody('shared') });
    expect(second.statusCode).toBe(200);
    expect(second.headers['lock-token']).not.toBe(created.headers['lock-token']);
    expect((await h.dav('u', 'LOCK', '/fresh.txt', { payload: lockBody('exclusive') })).statusCode).toBe(423);
    expect((await h.dav('u', 'LOCK', '/no/parent.txt', { payload: lockBody('exclusive') })).statusCode).toBe(409);
  });
});
