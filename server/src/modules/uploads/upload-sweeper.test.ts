import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { createUploads } from './uploads.module.js';
import { createUploadsRepository } from './uploads.repository.js';
import { fileSha256, randomBytes, rawRequest, sha256, sleep, stagingFiles, tusClient, tusUrl, uploadInChunks, uploadRows, waitFor } from './tus.test-support.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** A second service over the same database and disk: sweeping is all database and files. */
const sweeperOf = (app: TestApp) => createUploads({ ...app.app.services, log: quietLog });

describe('expiry', () => {
  it('removes abandoned uploads (staging file and record) and nothing else', async () => {
    t = await createTestApp({ uploadExpiry: 3600 });
    const tus = tusClient(t, await t.login());
    fs.writeFileSync(path.join(t.root, 'target.txt'), 'untouched');
    await tus.create('/target.txt', 10, true);
    await tus.patch('/target.txt', 0, Buffer.from('12345'));
    await tus.create('/fresh.txt', 10);
    const [stale] = (await uploadRows(t)).filter((row) => row.path === '/target.txt');
    // Make one upload look idle for longer than the expiry.
    await createUploadsRepository(t.app.services.db).setOffset(stale!.id, 5, Date.now() - 3601_000);

    const result = await sweeperOf(t).sweep();
    expect(result.expired).toBe(1);
    expect(fs.existsSync(stale!.stagingPath)).toBe(false);
    expect((await uploadRows(t)).map((row) => row.path)).toEqual(['/fresh.txt']);
    expect(fs.readFileSync(path.join(t.root, 'target.txt'), 'utf8')).toBe('untouched');
    expect((await tus.head('/target.txt')).statusCode).toBe(404);
    expect((await tus.head('/fresh.txt')).statusCode).toBe(200);
  });

  it('sweeps on a timer with a tiny expiry', async () => {
    t = await createTestApp({ uploadExpiry: 1 });
    const tus = tusClient(t, await t.login());
    await tus.create('/soon-gone.bin', 100);
    await tus.patch('/soon-gone.bin', 0, Buffer.alloc(10));
    expect(stagingFiles(t)).toHaveLength(1);
    await waitFor(async () => (await uploadRows(t!)).length === 0, 8000, 'the periodic sweep');
    expect(stagingFiles(t)).toHaveLength(0);
  });

  it('keeps finished-upload records briefly, then forgets them', async () => {
    t = await createTestApp({ uploadExpiry: 3600 });
    const token = await t.login();
    await uploadInChunks(t, token, '/done.txt', Buffer.from('done'), 4);
    expect(await uploadRows(t)).toHaveLength(1);
    expect((await sweeperOf(t).sweep({ now: Date.now() + 60_000 })).expired).toBe(0);
    expect((await sweeperOf(t).sweep({ now: Date.now() + 601_000 })).expired).toBe(1);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fs.readFileSync(path.join(t.root, 'done.txt'), 'utf8')).toBe('done');
  });

  it('never deletes anything but its own staging files, even from a tampered record', async () => {
    t = await createTestApp({ uploadExpiry: 3600 });
    const victim = path.join(t.root, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    const link = path.join(t.config.cacheDir, 'uploads', '11111111-2222-4333-8444-555555555555.part');
    fs.symlinkSync(victim, link);
    const repository = createUploadsRepository(t.app.services.db);
    const old = Date.now() - 7200_000;
    await repository.insert({ id: 'a', userId: 1, path: '/x', stagingPath: victim, length: 10, offset: 0, override: false, createdAt: old, updatedAt: old });
    await repository.insert({ id: 'b', userId: 1, path: '/y', stagingPath: link, length: 10, offset: 0, override: false, createdAt: old, updatedAt: old });
    await sweeperOf(t).sweep();
    expect(await repository.list()).toHaveLength(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    // The link itself (inside the private staging folder) is removed; its target is not.
    expect(fs.existsSync(link)).toBe(false);
  });

  it('does not expire an upload while it is being written', async () => {
    t = await createTestApp({ uploadExpiry: 1 });
    const token = await t.login();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const data = randomBytes(300_000, 13);
    await tusClient(t, token).create('/slow.bin', data.length);
    const response = rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/slow.bin'),
      headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': 0, 'content-length': data.length },
      body: (request) => {
        void (async () => {
          // Three seconds of trickle: several sweeps pass with an expiry of one second.
          for (let index = 0; index < 6; index++) {
            request.write(data.subarray(index * 50_000, (index + 1) * 50_000));
            await sleep(500);
          }
          request.end();
        })();
      },
    });
    const done = await response;
    expect(done.status).toBe(204);
    expect(fileSha256(path.join(t.root, 'slow.bin'))).toBe(sha256(data));
  });
});

describe('staged writes', () => {
  it('removes a replacing write left by a crash at start, and one untouched for a day later on, but not a recent one', async () => {
    t = await createTestApp();
    const dir = path.join(t.config.cacheDir, 'uploads');
    const old = path.join(dir, `${'a'.repeat(32)}.write`);
    const recent = path.join(dir, `${'b'.repeat(32)}.write`);
    const foreign = path.join(dir, 'notes.txt');
    for (const file of [old, recent, foreign]) fs.writeFileSync(file, 'x');
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    fs.utimesSync(old, dayAgo, dayAgo);
    fs.utimesSync(foreign, dayAgo, dayAgo);
    // An hour-old write may still be receiving its body: left alone by the periodic pass.
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(recent, hourAgo, hourAgo);
    expect((await sweeperOf(t).sweep()).orphans).toBe(1);
    expect([old, recent, foreign].map((file) => fs.existsSync(file))).toEqual([false, true, true]);
    // The pass at start, with nothing in flight, takes every staged write.
    expect((await sweeperOf(t).sweep({ orphanGraceMs: 0 })).orphans).toBe(1);
    expect([recent, foreign].map((file) => fs.existsSync(file))).toEqual([false, true]);
  });
});
