import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rule } from '@burrow/protocol';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { ndjson } from './search.routes.js';
import type { SearchService } from './search.service.js';
import { eventually, makeTree } from './search.test-support.js';

let t: TestApp;
let search: SearchService;
let admin: string;

const deny = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });
const denyRegex = (raw: string): Rule => ({ regex: true, allow: false, path: '', regexp: { raw } });
const encodePath = (virtual: string) => virtual.split('/').map(encodeURIComponent).join('/');

async function setUp(overrides: Record<string, unknown> = {}) {
  t = await createTestApp(overrides);
  search = t.app.services.search;
  admin = await t.login();
}
afterEach(async () => {
  await t?.close();
});

/** Runs a search and returns the parsed lines (blank keep-alive lines skipped). */
async function find(token: string, folder: string, query: string) {
  const response = await t.request(token, { method: 'GET', url: `/api/search${encodePath(folder)}?query=${encodeURIComponent(query)}` });
  if (response.statusCode !== 200) return { status: response.statusCode, results: [] as { dir: boolean; path: string }[], body: response.body };
  const results = response.body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { dir: boolean; path: string });
  return { status: 200, results, body: response.body };
}
const paths = async (token: string, folder: string, query: string) => (await find(token, folder, query)).results.map((result) => result.path);

/** Fills the root and brings the app's index up to date with it. */
async function tree(entries: string[]) {
  makeTree(t.root, entries);
  await search.rescan();
}

describe('GET /api/search', () => {
  beforeEach(() => setUp());

  it('streams newline-delimited JSON, relative paths in walk order, without the searched folder', async () => {
    await tree(['docs/report.pdf', 'docs/sub/Report-2.txt', 'docs.zip', 'docs/report/', 'other/report.md']);
    const response = await t.request(admin, { method: 'GET', url: '/api/search/docs?query=report' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect(response.body).toBe(['{"dir":true,"path":"report"}', '{"dir":false,"path":"report.pdf"}', '{"dir":false,"path":"sub/Report-2.txt"}', ''].join('\n'));
    expect(await paths(admin, '/', 'docs')).toEqual(['docs', 'docs.zip']);
    expect(search.stats.indexedSearches).toBeGreaterThan(0);
    expect(search.stats.liveSearches).toBe(0);
  });

  it('parses queries like upstream: types, case, quoted literals, any of several terms', async () => {
    await tree(['Holiday Photo.JPG', 'holiday.png', 'song.mp3', 'tune.FLAC', 'clip.mkv', 'Scan.PDF', 'scan.pdf', 'notes holiday.txt', 'noext', 'a b c.txt']);
    const cases: [string, string[]][] = [
      ['holiday', ['Holiday Photo.JPG', 'holiday.png', 'notes holiday.txt']],
      ['case:sensitive Holiday', ['Holiday Photo.JPG']],
      ['type:image', ['Holiday Photo.JPG', 'holiday.png']],
      ['type:image holiday', ['Holiday Photo.JPG', 'holiday.png']],
      ['type:music', ['song.mp3', 'tune.FLAC']],
      ['type:audio tune', ['tune.FLAC']],
      ['type:video', ['clip.mkv']],
      ['type:pdf', ['scan.pdf']],
      ['type:PDF', ['Scan.PDF']],
      ['type:image type:video', ['Holiday Photo.JPG', 'clip.mkv', 'holiday.png']],
      ['song clip', ['clip.mkv', 'song.mp3']],
      ['"photo.jpg"', ['Holiday Photo.JPG']],
      ['"b c"', ['a b c.txt']],
      ['b c', ['a b c.txt', 'clip.mkv', 'scan.pdf', 'Scan.PDF', 'tune.FLAC']],
      ['zzz  qqq', ['a b c.txt', 'clip.mkv', 'holiday.png', 'Holiday Photo.JPG', 'noext', 'notes holiday.txt', 'scan.pdf', 'Scan.PDF', 'song.mp3', 'tune.FLAC']],
    ];
    for (const [query, expected] of cases) {
      expect((await paths(admin, '/', query)).sort(), query).toEqual([...expected].sort());
    }
  });

  it('answers 401 without a token, 403 for a denied folder, 404 for a missing one, nothing for a file', async () => {
    await tree(['secret/x.txt', 'file.txt']);
    await makeUser(t, { username: 'bob', rules: [deny('/secret')] });
    const bob = await loginAs(t, 'bob');
    expect((await t.request(undefined, { method: 'GET', url: '/api/search/?query=x' })).statusCode).toBe(401);
    expect((await find(bob, '/secret', 'x')).status).toBe(403);
    expect((await find(bob, '/missing', 'x')).status).toBe(404);
    expect(await find(bob, '/file.txt', 'file')).toMatchObject({ status: 200, results: [] });
  });
});

describe('GET /api/search: what a user may see', () => {
  beforeEach(() => setUp());

  it('never returns names the rules deny, and keeps denied folders unpruned as upstream does', async () => {
    await tree(['private/plan.txt', 'private/deep/plan-b.txt', 'public/plan.txt', 'public/plan.bak', 'archive.bak/plan-c.txt', 'privateer/plan.txt']);
    await makeUser(t, { username: 'bob', rules: [deny('/private'), denyRegex('\\.bak$')] });
    const bob = await loginAs(t, 'bob');
    const found = await paths(bob, '/', 'plan');
    expect(found).toEqual(['archive.bak/plan-c.txt', 'privateer/plan.txt', 'public/plan.txt']);
    expect(await paths(bob, '/', 'bak')).toEqual([]);
    // Global rules apply too, and a user rule can allow again (the last match wins).
    await t.app.services.settings.save({ ...t.app.services.settings.get(), rules: [deny('/public')] });
    expect(await paths(bob, '/', 'plan')).toEqual(['archive.bak/plan-c.txt', 'privateer/plan.txt']);
    await makeUser(t, { username: 'carol', rules: [{ ...deny('/public'), allow: true }] });
    expect(await paths(await loginAs(t, 'carol'), '/', 'plan')).toContain('public/plan.txt');
  });

  it('stays inside the user scope and reports paths relative to it', async () => {
    await tree(['users/bob/notes/todo.txt', 'users/alice/todo.txt', 'todo-root.txt']);
    await makeUser(t, { username: 'bob', scope: '/users/bob' });
    const bob = await loginAs(t, 'bob');
    expect(await find(bob, '/', 'todo')).toMatchObject({ results: [{ dir: false, path: 'notes/todo.txt' }] });
    expect(await paths(bob, '/notes', 'todo')).toEqual(['todo.txt']);
    // `..` cannot climb out: it is resolved inside the scope.
    const climbing = await t.request(bob, { method: 'GET', url: '/api/search/notes%2F..%2F..%2F..?query=todo' });
    expect(climbing.body).toBe('{"dir":false,"path":"notes/todo.txt"}\n');
  });

  it('hides dotfiles from users who hide them', async () => {
    await tree(['.secret.txt', '.config/app.txt', 'app.txt']);
    await makeUser(t, { username: 'tidy', hideDotfiles: true });
    const tidy = await loginAs(t, 'tidy');
    expect(await paths(tidy, '/', 'secret')).toEqual([]);
    expect(await paths(tidy, '/', 'config')).toEqual([]);
    // A dot folder's contents are hidden with it: every segment is judged, not only the name.
    expect(await paths(tidy, '/', 'app')).toEqual(['app.txt']);
    expect(await paths(admin, '/', 'secret')).toEqual(['.secret.txt']);
  });

  it('lists links that stay in the scope with their target type, and hides those that leave it', async () => {
    makeTree(t.outside, ['leak/outside-name.txt']);
    makeTree(t.root, ['users/bob/real/inside-name.txt', 'users/other/elsewhere-name.txt']);
    fs.symlinkSync(path.join(t.root, 'users/bob/real'), path.join(t.root, 'users/bob/link-in'));
    fs.symlinkSync(path.join(t.outside, 'leak'), path.join(t.root, 'users/bob/link-out'));
    fs.symlinkSync(path.join(t.root, 'users/other'), path.join(t.root, 'users/bob/link-sideways'));
    fs.symlinkSync(path.join(t.outside, 'missing'), path.join(t.root, 'users/bob/link-dangling'));
    await search.rescan();
    await makeUser(t, { username: 'bob', scope: '/users/bob' });
    const bob = await loginAs(t, 'bob');
    expect((await find(bob, '/', 'link')).results).toEqual([{ dir: true, path: 'link-in' }]);
    // Links are never followed into other trees, so nothing behind them turns up either.
    expect(await paths(bob, '/', 'name')).toEqual(['real/inside-name.txt']);
  });
});

describe('GET /api/search: the index follows changes', () => {
  beforeEach(() => setUp());

  it('after create, rename, copy and delete through the resources API', async () => {
    await tree([]);
    const api = (method: string, virtual: string, options: { query?: string; body?: string } = {}) =>
      t.request(admin, { method: method as 'GET', url: `/api/resources${encodePath(virtual)}${options.query ? `?${options.query}` : ''}`, payload: options.body });
    const destination = (virtual: string) => encodeURIComponent(encodePath(virtual));

    expect((await api('POST', '/projects/')).statusCode).toBe(200);
    expect((await api('POST', '/projects/alpha-plan.txt', { body: 'plan' })).statusCode).toBe(200);
    expect(await paths(admin, '/', 'alpha')).toEqual(['projects/alpha-plan.txt']);

    expect((await api('PATCH', '/projects/alpha-plan.txt', { query: `action=rename&destination=${destination('/projects/beta-plan.txt')}` })).statusCode).toBe(200);
    expect(await paths(admin, '/', 'plan')).toEqual(['projects/beta-plan.txt']);

    expect((await api('PATCH', '/projects', { query: `action=rename&destination=${destination('/renamed')}` })).statusCode).toBe(200);
    await search.settled();
    expect(await paths(admin, '/', 'plan')).toEqual(['renamed/beta-plan.txt']);

    expect((await api('PATCH', '/renamed', { query: `action=copy&destination=${destination('/copy')}` })).statusCode).toBe(200);
    await search.settled();
    expect(await paths(admin, '/', 'plan')).toEqual(['copy/beta-plan.txt', 'renamed/beta-plan.txt']);

    expect((await api('DELETE', '/renamed')).statusCode).toBeLessThan(300);
    expect((await api('DELETE', '/copy/beta-plan.txt')).statusCode).toBeLessThan(300);
    expect(await paths(admin, '/', 'plan')).toEqual([]);
    expect(search.stats.liveSearches).toBe(0);
  });

  it('after file events from any module', async () => {
    await tree([]);
    const user = (await t.app.services.usersRepository.findByUsername('admin'))!;
    const rootReal = fs.realpathSync(t.root);
    makeTree(t.root, ['uploaded/part-one.txt', 'uploaded/nested/part-two.txt']);
    await t.app.services.fileEvents.emit({ kind: 'created', user, real: path.join(rootReal, 'uploaded'), virtual: '/uploaded', isDir: true });
    await search.settled();
    expect(await paths(admin, '/', 'part')).toEqual(['uploaded/nested/part-two.txt', 'uploaded/part-one.txt']);
    fs.rmSync(path.join(t.root, 'uploaded/nested'), { recursive: true });
    await t.app.services.fileEvents.emit({ kind: 'deleted', user, real: path.join(rootReal, 'uploaded/nested'), virtual: '/uploaded/nested', isDir: true });
    expect(await paths(admin, '/', 'part')).toEqual(['uploaded/part-one.txt']);
  });

  it('after a change made outside Burrow', async () => {
    await tree(['watched/']);
    makeTree(t.root, ['watched/dropped-in.txt']);
    await eventually(async () => (await paths(admin, '/', 'dropped')).length === 1, 10_000, 'the outside change to be indexed');
    expect(await paths(admin, '/', 'dropped')).toEqual(['watched/dropped-in.txt']);
  });
});

describe('GET /api/search: streaming', () => {
  it('stops the walk when the client goes away', async () => {
    // A folder outside the root (through an allowed external link) is always walked live.
    await setUp({ followExternalSymlinks: true });
    makeTree(t.outside, Array.from({ length: 200 }, (_, group) => Array.from({ length: 10 }, (_, index) => `many/g${group}/file-${index}.txt`)).flat());
    fs.symlinkSync(path.join(t.outside, 'many'), path.join(t.root, 'external'));
    await search.rescan();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address) as unknown as AddressInfo & URL;
    const received = await new Promise<string>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port: Number(port), path: '/api/search/external?query=file', headers: { 'x-auth': admin } }, (response) => {
        response.once('data', (chunk: Buffer) => {
          request.destroy();
          resolve(chunk.toString());
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    expect(received).toMatch(/^\{"dir":false,"path":"g0\/file-0\.txt"\}\n/);
    await eventually(() => search.stats.activeSearches === 0, 5_000, 'the search to end');
    expect(search.stats).toMatchObject({ liveSearches: 1, abortedSearches: 1 });
  });

  it('writes a blank keep-alive line while nothing is found', async () => {
    async function* slow() {
      await new Promise((resolve) => setTimeout(resolve, 120));
      yield [{ dir: false, path: 'late.txt' }];
    }
    const chunks: string[] = [];
    for await (const chunk of ndjson(slow(), new AbortController().signal, 50)) chunks.push(chunk);
    expect(chunks[0]).toBe('\n');
    expect(chunks.at(-1)).toBe('{"dir":false,"path":"late.txt"}\n');
  });
});
