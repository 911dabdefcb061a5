import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Share } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';

/**
 * Property-based attack on every path-taking endpoint. A user with a scope, a plain rule, a regex
 * rule and hidden dotfiles owns links that lead out of the scope, to a sibling user, to a denied
 * file and to a dotfile. Canaries sit in every place the user must not reach. Random paths built
 * from traversal pieces, encodings, separators and the names of those places are sent byte for
 * byte over a real socket: no answer may ever carry a canary or a real path, no successful answer
 * may name a forbidden file, and no write may land anywhere but in the user's own reachable tree.
 */

const CANARIES = ['CANARY-OUTSIDE', 'CANARY-SIBLING', 'CANARY-RULE', 'CANARY-REGEX', 'CANARY-DOT'];
const FORBIDDEN_NAMES = ['secret.txt', 'bob.txt', 'deny.txt', 'secret.key', 'hidden.txt'];

let t: TestApp;
let token: string;
let share: Share;
let port: number;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = path.dirname(t.root);
  const alice = path.join(t.root, 'alice');
  const put = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  put(path.join(alice, 'docs', 'a.txt'), 'hello');
  put(path.join(alice, 'docs', 'clip.srt'), '1\n00:00:01,000 --> 00:00:02,000\nhello\n');
  put(path.join(alice, 'private', 'deny.txt'), 'CANARY-RULE');
  put(path.join(alice, 'docs', 'secret.key'), 'CANARY-REGEX');
  put(path.join(alice, '.dot', 'hidden.txt'), 'CANARY-DOT');
  put(path.join(t.root, 'bob', 'bob.txt'), 'CANARY-SIBLING');
  put(path.join(t.outside, 'secret.txt'), 'CANARY-OUTSIDE');
  fs.symlinkSync(t.outside, path.join(alice, 'link-out'));
  fs.symlinkSync(path.join(t.outside, 'secret.txt'), path.join(alice, 'docs', 'link-file'));
  fs.symlinkSync('../bob', path.join(alice, 'link-rel'));
  fs.symlinkSync('../private/deny.txt', path.join(alice, 'docs', 'link-denied'));
  fs.symlinkSync('../.dot/hidden.txt', path.join(alice, 'docs', 'link-dot'));
  fs.symlinkSync('../docs/secret.key', path.join(alice, 'docs', 'link-key'));

  await makeUser(t, {
    username: 'alice',
    scope: '/alice',
    hideDotfiles: true,
    rules: [
      { regex: false, allow: false, path: '/private', regexp: { raw: '' } },
      { regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } },
    ],
  });
  token = await loginAs(t, 'alice');
  const created = await t.request(token, { method: 'POST', url: '/api/share/docs', payload: {} });
  expect(created.statusCode).toBe(200);
  share = created.json() as Share;

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  await t?.close();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** Sends the path exactly as given: injected requests would fold `..` before the router sees it. */
function send(method: string, rawPath: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers: { 'x-auth': token, ...headers }, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('latin1') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('request timed out')));
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * `protocolStatus` is the one 5xx the wire protocol prescribes for an endpoint (a folder's
 * checksum is a 500, a preview of what is no image a 501); any other 5xx is a failure.
 */
function expectNothingLeaked(answer: Answer, label: string, attack: string, protocolStatus?: number): void {
  const text = answer.body + JSON.stringify(answer.headers);
  for (const canary of CANARIES) expect(text, `${label} leaked ${canary}`).not.toContain(canary);
  // A path the request itself named (a scope-relative folder called like a real one) may be echoed.
  if (!attack.includes(encodeURIComponent(base))) expect(text, `${label} revealed a real path`).not.toContain(base);
  if (answer.status !== protocolStatus) expect(answer.status, `${label} failed inside the server`).toBeLessThan(500);
  if (answer.status >= 200 && answer.status < 300) {
    for (const name of FORBIDDEN_NAMES) expect(answer.body, `${label} named ${name}`).not.toContain(name);
  }
}

const SEGMENTS = [
  '..', '.', '...', '%2e%2e', '%2E%2E', '.%2e', '%252e%252e', '%c0%ae%c0%ae', '..;', '..%00', '%00', '',
  'docs', 'a.txt', 'clip.srt', 'private', 'deny.txt', 'secret.key', '.dot', 'hidden.txt',
  'link-out', 'link-file', 'link-rel', 'link-denied', 'link-dot', 'link-key', 'secret.txt', 'bob', 'bob.txt', 'alice', 'outside',
];
const SEPARATORS = ['/', '/', '/', '//', '%2f', '%2F', '%5c', '\\', '%252f'];

/** A request path: pieces joined by separators, sometimes led by the real location of a canary. */
const attackPath = fc
  .tuple(
    fc.constantFrom('/', '/', '%2f', '//', '/..', '/' + encodeURIComponent(path.sep)),
    fc.array(fc.tuple(fc.constantFrom(...SEGMENTS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 7 }),
    fc.constantFrom('', '', '', '/', 'REAL'),
  )
  .map(([lead, pieces, tail]) => {
    const joined = pieces.map(([segment, separator], index) => (index === 0 ? segment : separator + segment)).join('');
    const body = lead + joined + (tail === 'REAL' ? '' : tail);
    return tail === 'REAL' ? `/${encodeURIComponent(base)}/outside/secret.txt` : body.startsWith('/') ? body : '/' + body;
  });

const RUNS = 60;

/** Every file and link below a folder with its content, to prove nothing outside was touched. */
function snapshot(folder: string): string {
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) lines.push(`${full} -> ${fs.readlinkSync(full)}`);
      else if (entry.isDirectory()) {
        lines.push(full + '/');
        walk(full);
      } else lines.push(`${full}=${fs.readFileSync(full, 'latin1')}`);
    }
  };
  walk(folder);
  return lines.join('\n');
}

/** Everything the user must not be able to change: outside the root, the sibling, the denied and hidden places. */
function protectedState(): string {
  const alice = path.join(t.root, 'alice');
  return [t.outside, path.join(t.root, 'bob'), path.join(alice, 'private'), path.join(alice, '.dot')].map(snapshot).join('\n') + fs.readFileSync(path.join(alice, 'docs', 'secret.key'), 'latin1');
}

describe('no path reaches past the scope, the rules or hidden dotfiles', () => {
  const reads: Array<[string, (p: string) => string, number?, string?]> = [
    ['resource', (p) => `/api/resources${p}`],
    ['recursive listing', (p) => `/api/resources/recursive${p}`],
    ['checksum', (p) => `/api/resources${p}?checksum=sha256`, 500],
    ['raw', (p) => `/api/raw${p}`],
    ['raw inline', (p) => `/api/raw${p}?inline=true`],
    ['archive', (p) => `/api/raw${p}?algo=tar`],
    ['thumbnail', (p) => `/api/preview/thumb${p}`, 501],
    ['subtitle', (p) => `/api/subtitle${p}`],
    ['usage', (p) => `/api/usage${p}`],
    ['search', (p) => `/api/search${p}?query=txt`],
    ['public listing', (p) => `/api/public/share/${share.hash}${p}`],
    ['public download', (p) => `/api/public/dl/${share.hash}${p}`],
    ['public archive', (p) => `/api/public/dl/${share.hash}${p}?algo=tar`],
    ['public thumbnail', (p) => `/api/public/preview/thumb/${share.hash}${p}`, 501],
    ['WebDAV GET', (p) => `/dav${p}`],
    ['WebDAV PROPFIND', (p) => `/dav${p}`, undefined, 'PROPFIND'],
  ];

  for (const [label, url, protocolStatus, method = 'GET'] of reads) {
    it(`${label}: no canary in any answer`, async () => {
      await fc.assert(
        fc.asyncProperty(attackPath, async (attack) => {
          const answer = await send(method, url(attack), undefined, method === 'PROPFIND' ? { depth: '1' } : {});
          expectNothingLeaked(answer, `${label} ${attack}`, attack, protocolStatus);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('copy and rename: no destination lands outside or touches a protected file', async () => {
    const before = protectedState();
    await fc.assert(
      fc.asyncProperty(attackPath, fc.constantFrom('copy', 'rename'), async (attack, action) => {
        fs.writeFileSync(path.join(t.root, 'alice', 'docs', 'victim.txt'), 'mine');
        // The destination travels URL-encoded in the query, as the front end sends it; some
        // clients encode it twice.
        for (const destination of [encodeURIComponent(attack), encodeURIComponent(encodeURIComponent(attack))]) {
          const answer = await send('PATCH', `/api/resources/docs/victim.txt?action=${action}&destination=${destination}&override=true`);
          expectNothingLeaked(answer, `${action} to ${attack}`, attack);
        }
        // WebDAV names the destination as a URL on this server; one outside `/dav/` is another
        // server's to RFC 4918, answered 502.
        fs.writeFileSync(path.join(t.root, 'alice', 'docs', 'victim.txt'), 'mine');
        const dav = await send(action === 'copy' ? 'COPY' : 'MOVE', '/dav/docs/victim.txt', undefined, { destination: `http://127.0.0.1:${port}/dav${attack}`, overwrite: 'T' });
        expectNothingLeaked(dav, `WebDAV ${action} to ${attack}`, attack, 502);
      }),
      { numRuns: RUNS },
    );
    expect(protectedState()).toBe(before);
  });

  it('writes, uploads and folder creation: nothing lands outside or on a protected file', async () => {
    const before = protectedState();
    await fc.assert(
      fc.asyncProperty(attackPath, async (attack) => {
        for (const [method, url, body, headers] of [
          ['POST', `/api/resources${attack}?override=true`, 'PWNED', {}],
          ['PUT', `/api/resources${attack}`, 'PWNED', {}],
          ['POST', `/api/resources${attack}/`, '', {}],
          ['POST', `/api/tus${attack}?override=true`, '', { 'tus-resumable': '1.0.0', 'upload-length': '5' }],
          ['PATCH', `/api/tus${attack}`, 'PWNED', { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }],
          ['PUT', `/dav${attack}`, 'PWNED', {}],
          ['MKCOL', `/dav${attack}`, '', {}],
        ] as const) {
          const answer = await send(method, url, body, headers);
          expectNothingLeaked(answer, `${method} ${url}`, attack);
        }
      }),
      { numRuns: RUNS },
    );
    expect(protectedState()).toBe(before);
  });

  it('deletes: nothing protected disappears', async () => {
    const before = protectedState();
    await fc.assert(
      fc.asyncProperty(attackPath, async (attack) => {
        for (const url of [`/api/resources${attack}`, `/dav${attack}`]) {
          const answer = await send('DELETE', url);
          expectNothingLeaked(answer, `DELETE ${url}`, attack);
        }
        // Deleting may legitimately remove alice's own reachable files; put them back.
        fs.mkdirSync(path.join(t.root, 'alice', 'docs'), { recursive: true });
        fs.writeFileSync(path.join(t.root, 'alice', 'docs', 'a.txt'), 'hello');
      }),
      { numRuns: RUNS },
    );
    expect(protectedState()).toBe(before);
  });
});
