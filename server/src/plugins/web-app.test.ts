import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartupElementId, type StartupSettings } from '@burrow/protocol';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../test-support/app.js';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Burrow</title>
    <link rel="icon" href="/static/img/logo.svg" />
    <script type="module" src="/static/assets/x.js"></script>
  </head>
  <body>
    <!--burrow:startup-->
    <div id="root"></div>
  </body>
</html>
`;
const SCRIPT = 'console.log("burrow asset");\n'.repeat(20);

let dist: string;
let t: TestApp;

beforeEach(async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-web-'));
  dist = path.join(base, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(dist, 'img'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'x.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'assets', 'x.js.gz'), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dist, 'assets', 'x.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dist, 'assets', 'only-gz.css'), 'body{}');
  fs.writeFileSync(path.join(dist, 'assets', 'only-gz.css.gz'), zlib.gzipSync('body{}'));
  fs.writeFileSync(path.join(dist, 'img', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // Beside the build output, never to be served.
  fs.writeFileSync(path.join(base, 'secret.txt'), 'do not serve');
});
afterEach(async () => {
  await t?.close();
  fs.rmSync(path.dirname(dist), { recursive: true, force: true });
});

async function start(overrides: Record<string, unknown> = {}) {
  t = await createTestApp({ webDist: dist, ...overrides });
  return t;
}

function startupOf(html: string): StartupSettings {
  const match = new RegExp(`<script type="application/json" id="${StartupElementId}">([^<]*)</script>`).exec(html);
  expect(match, 'startup element').not.toBeNull();
  return JSON.parse(match![1]!) as StartupSettings;
}

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];

function expectSecurityHeaders(headers: Record<string, unknown>) {
  for (const name of SECURITY_HEADERS) expect(headers[name], name).toBeTruthy();
  expect(String(headers['content-security-policy'])).toMatch(/script-src 'self'(;|$| )/);
  expect(String(headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('the index page', () => {
  it('carries the startup settings with every key the app reads', async () => {
    await start();
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    const startup = startupOf(response.body);
    expect(Object.keys(startup).sort()).toEqual(
      [
        'Name', 'DisableExternal', 'DisableUsedPercentage', 'BaseURL', 'StaticURL', 'ReCaptcha', 'ReCaptchaKey', 'ReCaptchaHost',
        'Signup', 'Version', 'NoAuth', 'AuthMethod', 'LoginPage', 'LogoutPage', 'Theme', 'Color', 'EnableThumbs', 'ResizePreview',
        'EnableExec', 'CommandRunner', 'TusSettings', 'CSS', 'HideLoginButton', 'ExternalChatURL', 'HelpURL', 'IssuesURL', 'OIDC',
      ].sort(),
    );
    expect(startup).toMatchObject({
      Name: '', BaseURL: '', StaticURL: '/static', ReCaptcha: false, Signup: false, NoAuth: false, AuthMethod: 'json',
      LoginPage: true, LogoutPage: '/login', EnableThumbs: true, ResizePreview: true, EnableExec: false, CommandRunner: 'off',
      TusSettings: { chunkSize: 10485760, retryCount: 5 }, CSS: false,
    });
    expect(response.body).toContain('<title>Burrow</title>');
    expect(response.body).toContain('src="/static/assets/x.js"');
    expect(response.body).not.toContain('<!--burrow:startup-->');
  });

  it('reflects the settings and server flags of the moment', async () => {
    await start({
      enableExec: true,
      recaptchaKey: 'site',
      recaptchaSecret: 'hidden-secret',
      externalChatURL: 'https://chat.example',
      helpURL: 'https://docs.example/burrow',
      issuesURL: 'https://tracker.example/new',
    });
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), signup: true, branding: { ...settings.get().branding, name: 'Den', theme: 'dark' } });
    const html = (await t.app.inject({ method: 'GET', url: '/files/' })).body;
    const startup = startupOf(html);
    expect(startup).toMatchObject({ Name: 'Den', Signup: true, Theme: 'dark', EnableExec: true, CommandRunner: 'available', ReCaptcha: true, ReCaptchaKey: 'site', ExternalChatURL: 'https://chat.example' });
    expect(startup).toMatchObject({ HelpURL: 'https://docs.example/burrow', IssuesURL: 'https://tracker.example/new' });
    // Disabling external links hides the issue page but keeps the documentation.
    await settings.save({ ...settings.get(), branding: { ...settings.get().branding, disableExternal: true } });
    expect(startupOf((await t.app.inject({ method: 'GET', url: '/' })).body)).toMatchObject({ HelpURL: 'https://docs.example/burrow', IssuesURL: '', ExternalChatURL: '' });
    await settings.save({ ...settings.get(), branding: { ...settings.get().branding, disableExternal: false } });
    expect(html).toContain('<title>Den</title>');
    expect(html).not.toContain('hidden-secret');
    await settings.setAuthMethod('noauth');
    expect(startupOf((await t.app.inject({ method: 'GET', url: '/' })).body)).toMatchObject({ NoAuth: true, LoginPage: false, ReCaptcha: false });
  });

  it('tells the app why commands are off when the sandbox is missing', async () => {
    await start({ enableExec: true, bwrap: '/nonexistent/bwrap' });
    expect(startupOf((await t.app.inject({ method: 'GET', url: '/' })).body)).toMatchObject({ EnableExec: true, CommandRunner: 'sandbox-missing' });
  });

  it('cannot be broken or injected through the branding name', async () => {
    await start();
    const settings = t.app.services.settings;
    const hostile = [
      `</script><script>alert(1)</script>"'&<b>bold</b>`,
      `$' $& $\` $1 $$ <!--burrow:startup-->`,
      `</title><script>alert(2)</script>`,
      '\u2028\u2029<!--',
    ];
    const plain = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const scriptTags = (html: string) => html.match(/<script/g)?.length ?? 0;
    for (const name of hostile) {
      await settings.save({ ...settings.get(), branding: { ...settings.get().branding, name } });
      const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
      expect(startupOf(html).Name, name).toBe(name);
      expect(scriptTags(html), name).toBe(scriptTags(plain));
      expect(html).not.toMatch(/<script>alert/);
      expect(html).not.toContain('<b>bold');
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
      expect(title, name).toBeDefined();
      expect(title).not.toMatch(/[<>"']/);
      // Nothing of the template was duplicated by replacement patterns.
      expect(html.match(/<div id="root">/g)?.length).toBe(1);
      expect(html.match(/<\/html>/g)?.length).toBe(1);
    }
  });

  it('falls back to the page for unknown GETs and answers 404 in plain text otherwise', async () => {
    await start();
    for (const url of ['/files/x', '/files/a%20b/c.txt', '/settings/users', '/login?redirect=%2Ffiles%2F', '/share/abc', '/api/unknown-thing']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expectSecurityHeaders(response.headers);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await t.app.inject({ method, url: '/files/x' });
      expect(response.statusCode, method).toBe(404);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body).toBe('404 Not Found\n');
      expectSecurityHeaders(response.headers);
    }
  });

  it('serves a placeholder page, startup included, when the app is not built', async () => {
    fs.rmSync(path.join(dist, 'index.html'));
    await start();
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(startupOf(response.body).StaticURL).toBe('/static');
  });
});

describe('static assets', () => {
  it('serves hashed assets with long caching and other files for a day', async () => {
    await start();
    const script = await t.app.inject({ method: 'GET', url: '/static/assets/x.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(SCRIPT);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const logo = await t.app.inject({ method: 'GET', url: '/static/img/logo.svg' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('picks the precompressed variant the client accepts', async () => {
    await start();
    const get = (acceptEncoding: string) => t.app.inject({ method: 'GET', url: '/static/assets/x.js', headers: { 'accept-encoding': acceptEncoding } });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    // A coding refused with q=0 is never sent, and identity is the fallback.
    const refused = await get('br;q=0, gzip;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(SCRIPT);
    const onlyGzip = await get('br;q=0, gzip');
    expect(onlyGzip.headers['content-encoding']).toBe('gzip');
    expect((await get('identity')).headers['content-encoding']).toBeUndefined();
    expect((await get('*')).headers['content-encoding']).toBeDefined();
  });

  it('answers revalidations with 304 and byte ranges with 206', async () => {
    await start();
    const url = '/static/assets/x.js';
    const first = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(first.headers.etag).toBeTruthy();
    expect(first.headers['last-modified']).toBeTruthy();
    const again = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const part = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe(SCRIPT.slice(0, 10));
    expect(part.headers['content-range']).toBe(`bytes 0-9/${SCRIPT.length}`);
    // The compressed variant is its own representation, with its own validator.
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(first.headers.etag);
    const head = await t.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.body).toBe('');
  });

  it('answers 404 to traversal, encoded traversal, folders and trailing slashes, on the wire', async () => {
    await start();
    fs.writeFileSync(path.join(dist, 'assets', 'a%41.js'), 'literal percent');
    // Through a real socket: inject() would normalise `..` away before the router saw it.
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const get = (rawPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get(`${address}/`, { path: rawPath, timeout: 5000 }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('timeout', () => request.destroy(new Error(`timed out: ${rawPath}`)));
        request.on('error', reject);
      });
    const refused = [
      '/static/../secret.txt',
      '/static/assets/../../secret.txt',
      '/static/%2e%2e/secret.txt',
      '/static/%2E%2E%2Fsecret.txt',
      '/static/assets/..%2f..%2fsecret.txt',
      '/static/assets/%252e%252e/%252e%252e/secret.txt',
      '/static/assets/..%5c..%5csecret.txt',
      '/static/./assets/x.js',
      '/static/assets/x.js%00.png',
      '/static/assets/',
      '/static/assets/x.js/',
      '/static/',
      '/static/img/logo.svg/',
      '/static/nothing.js',
      '/static//etc/passwd',
    ];
    for (const rawPath of refused) {
      const response = await get(rawPath);
      expect(response.status, rawPath).toBe(404);
      expect(response.body, rawPath).toBe('404 Not Found\n');
    }
    expect((await get('/static/assets/x.js')).body).toBe(SCRIPT);
    // Names are decoded exactly once.
    expect(await get('/static/assets/a%2541.js')).toEqual({ status: 200, body: 'literal percent' });
    expect((await get('/static/assets/aA.js')).status).toBe(404);
  });

  it('serves branding overrides for images and the custom stylesheet', async () => {
    await start();
    const branding = path.join(path.dirname(dist), 'branding');
    fs.mkdirSync(path.join(branding, 'img'), { recursive: true });
    fs.writeFileSync(path.join(branding, 'img', 'logo.svg'), '<svg id="custom"/>');
    fs.writeFileSync(path.join(branding, 'custom.css'), 'body{color:red}');
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), branding: { ...settings.get().branding, files: branding } });
    expect((await t.app.inject({ method: 'GET', url: '/static/img/logo.svg' })).body).toBe('<svg id="custom"/>');
    expect((await t.app.inject({ method: 'GET', url: '/static/custom.css' })).body).toBe('body{color:red}');
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(startupOf(html).CSS).toBe(true);
    expect(html).toContain('<link rel="stylesheet" href="/static/custom.css">');
    // Only img/ and custom.css come from the branding folder.
    fs.writeFileSync(path.join(branding, 'other.txt'), 'not public');
    expect((await t.app.inject({ method: 'GET', url: '/static/other.txt' })).statusCode).toBe(404);
  });
});

describe('the PDF viewer page', () => {
  const VIEWER = `<!doctype html><html><head><script type="module" crossorigin src="/static/assets/viewer.js"></script>
<link rel="stylesheet" crossorigin href="/static/assets/viewer.css"></head><body></body></html>`;

  const directives = (csp: unknown) => new Map(String(csp).split(';').map((part) => {
    const [name, ...values] = part.trim().split(/\s+/);
    return [name!, values.join(' ')] as const;
  }));

  it('runs sandboxed under its own policy, framed only by the app', async () => {
    fs.writeFileSync(path.join(dist, 'pdf-viewer.html'), VIEWER);
    await start();
    const response = await t.app.inject({ method: 'GET', url: '/static/pdf-viewer.html' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe(VIEWER);
    const csp = directives(response.headers['content-security-policy']);
    // Opened directly or framed, the page gets an opaque origin: no cookies, storage or app DOM.
    expect(csp.get('sandbox')).toBe('allow-scripts');
    expect(csp.get('frame-ancestors')).toBe("'self'");
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('worker-src')).toBe('blob:');
    expect(csp.get('form-action')).toBe("'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // The app's own pages keep refusing to be framed, and let this one in.
    const page = await t.app.inject({ method: 'GET', url: '/files/' });
    expect(directives(page.headers['content-security-policy']).get('frame-ancestors')).toBe("'none'");
    expect(directives(page.headers['content-security-policy']).get('frame-src')).toContain("'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('moves its asset URLs below the base URL', async () => {
    fs.writeFileSync(path.join(dist, 'pdf-viewer.html'), VIEWER);
    await start({ baseURL: '/burrow' });
    const response = await t.app.inject({ method: 'GET', url: '/burrow/static/pdf-viewer.html' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('src="/burrow/static/assets/viewer.js"');
    expect(response.body).toContain('href="/burrow/static/assets/viewer.css"');
    expect(directives(response.headers['content-security-policy']).get('sandbox')).toBe('allow-scripts');
  });

  it('answers 404 when the web app has no viewer page', async () => {
    await start();
    const response = await t.app.inject({ method: 'GET', url: '/static/pdf-viewer.html' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('404 Not Found\n');
  });

  it('lets the opaque-origin frame load hashed assets, and only those', async () => {
    await start();
    for (const encoding of ['br', 'identity']) {
      const script = await t.app.inject({ method: 'GET', url: '/static/assets/x.js', headers: { origin: 'null', 'accept-encoding': encoding } });
      expect(script.statusCode).toBe(200);
      expect(script.headers['access-control-allow-origin'], encoding).toBe('*');
      expect(script.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const logo = await t.app.inject({ method: 'GET', url: '/static/img/logo.svg', headers: { origin: 'null' } });
    expect(logo.headers['access-control-allow-origin']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { origin: 'null' } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const token = await t.login();
    const api = await t.request(token, { method: 'GET', url: '/api/resources/', headers: { origin: 'null' } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('headers on every answer', () => {
  it('sends the security headers on pages, assets and API answers, and no-cache on the API', async () => {
    await start();
    const token = await t.login();
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expectSecurityHeaders(page.headers);
    expect(page.headers['x-xss-protection']).toBe('1; mode=block');
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/static/assets/x.js' })).headers);
    for (const response of [
      await t.request(token, { method: 'GET', url: '/api/settings' }),
      await t.request(undefined, { method: 'GET', url: '/api/users' }),
      await t.request(token, { method: 'PUT', url: '/api/settings', payload: {} }),
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } }),
    ]) {
      expectSecurityHeaders(response.headers);
      expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    }
  });

  it('answers GET /health with {"status":"OK"}', async () => {
    await start();
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'OK' });
  });
});

describe('base URL', () => {
  it('redirects the bare prefix, routes the API and assets below it, and prefixes asset URLs', async () => {
    await start({ baseURL: '/burrow' });
    const bare = await t.app.inject({ method: 'GET', url: '/burrow' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/burrow/');
    const page = await t.app.inject({ method: 'GET', url: '/burrow/' });
    expect(page.statusCode).toBe(200);
    const startup = startupOf(page.body);
    expect(startup.BaseURL).toBe('/burrow');
    expect(startup.StaticURL).toBe('/burrow/static');
    expect(page.body).toContain('src="/burrow/static/assets/x.js"');
    expect(page.body).toContain('href="/burrow/static/img/logo.svg"');
    expect(page.body).not.toMatch(/(src|href)="\/static\//);
    const login = await t.app.inject({ method: 'POST', url: '/burrow/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const settings = await t.app.inject({ method: 'GET', url: '/burrow/api/settings', headers: { 'x-auth': login.body } });
    expect(settings.statusCode).toBe(200);
    expect(settings.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect((await t.app.inject({ method: 'GET', url: '/burrow/static/assets/x.js' })).body).toBe(SCRIPT);
    expect((await t.app.inject({ method: 'GET', url: '/burrow/health' })).json()).toEqual({ status: 'OK' });
    expect(startupOf((await t.app.inject({ method: 'GET', url: '/burrow/files/docs/' })).body).BaseURL).toBe('/burrow');
    // A look-alike prefix is not the base URL.
    const other = await t.app.inject({ method: 'POST', url: '/burrowed/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(other.statusCode).toBe(404);
  });

  it('keeps a query string on the bare-prefix redirect', async () => {
    await start({ baseURL: '/burrow' });
    const response = await t.app.inject({ method: 'GET', url: '/burrow?lang=de' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/burrow/?lang=de');
  });
});
