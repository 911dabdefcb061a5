import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { instancesPerTest, type Instances } from '../../test-support/instances.js';
import { portOf, requestLink, uploader } from '../shares/file-requests.test-support.js';
import { uploadLockKey } from './upload-context.js';
import { fileSha256, randomBytes, rawRequest, sha256, sleep, tusClient, tusUrl, uploadRows, waitFor } from './tus.test-support.js';

// Two instances over one PostgreSQL database, one root and one cache folder.
const startInstances = instancesPerTest();

describe('tus uploads across instances', () => {
  it('completes a correct file from chunks that alternate between the instances', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    const data = randomBytes(700_000, 21);
    const clients = [tusClient(a, token), tusClient(b, token)];
    expect((await clients[1]!.create('/alternating.bin', data.length)).statusCode).toBe(201);
    const chunk = 64 * 1024;
    for (let offset = 0, turn = 0; offset < data.length; offset += chunk, turn++) {
      const client = clients[turn % 2]!;
      // Each instance reports the offset the other one recorded.
      expect((await client.head('/alternating.bin')).headers['upload-offset']).toBe(String(offset));
      const response = await client.patch('/alternating.bin', offset, data.subarray(offset, offset + chunk));
      expect(response.statusCode, response.body).toBe(204);
      expect(response.headers['upload-offset']).toBe(String(Math.min(offset + chunk, data.length)));
    }
    expect(fileSha256(path.join(root, 'alternating.bin'))).toBe(sha256(data));
    expect((await clients[0]!.head('/alternating.bin')).headers['upload-offset']).toBe(String(data.length));
    expect(fs.readdirSync(path.join(instances.cacheDir, 'uploads'))).toEqual([]);
  });

  it('refuses a PATCH on one instance (423) while the other one writes the upload', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (a.app.server.address() as AddressInfo).port;
    const data = randomBytes(400_000, 22);
    expect((await tusClient(a, token).create('/busy.bin', data.length)).statusCode).toBe(201);
    let finish: () => void = () => undefined;
    const writing = rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/busy.bin'),
      headers: { 'x-auth': token, 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': 0, 'content-length': data.length },
      body: (request) => {
        request.write(data.subarray(0, 100_000));
        finish = () => request.end(data.subarray(100_000));
      },
    });
    writing.catch(() => undefined);
    try {
      const [row] = await uploadRows(a);
      const lease = () => a.app.services.db.selectFrom('cluster_leases').selectAll().where('name', '=', uploadLockKey(row!)).execute();
      await waitFor(async () => (await lease()).length === 1, 10_000, 'the writer on A to hold the upload');
      const onB = tusClient(b, token);
      expect((await onB.patch('/busy.bin', 0, data.subarray(0, 10))).statusCode).toBe(423);
      // HEAD answers what was recorded so far, without waiting for the writer.
      expect((await onB.head('/busy.bin')).headers['upload-offset']).toBe('0');
      expect((await onB.remove('/busy.bin')).statusCode).toBe(423);
    } finally {
      finish();
    }
    expect((await writing).status).toBe(204);
    expect(fileSha256(path.join(root, 'busy.bin'))).toBe(sha256(data));
  });

  it('resumes on the other instance, from the recorded offset, once a dead holder lease lapses', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    const data = randomBytes(300_000, 23);
    const onA = tusClient(a, token);
    const onB = tusClient(b, token);
    expect((await onA.create('/resumed.bin', data.length)).statusCode).toBe(201);
    expect((await onA.patch('/resumed.bin', 0, data.subarray(0, 100_000))).statusCode).toBe(204);
    const [row] = await uploadRows(a);
    // An instance takes the upload and dies mid-chunk: its lease is never renewed nor released,
    // and bytes it wrote past the recorded offset (here, wrong ones) are left in the staging file.
    const dead = await a.app.services.cluster.lease(uploadLockKey(row!), 1500);
    expect(dead).toBeDefined();
    fs.appendFileSync(row!.stagingPath, Buffer.alloc(50_000, 0xee));

    expect((await onB.patch('/resumed.bin', 100_000, data.subarray(100_000))).statusCode).toBe(423);
    expect((await onB.head('/resumed.bin')).headers['upload-offset']).toBe('100000');
    await sleep(1600);
    // The lease lapsed: B takes the upload over, keeps only what was recorded, and goes on.
    expect((await onB.head('/resumed.bin')).headers['upload-offset']).toBe('100000');
    expect(fs.statSync(row!.stagingPath).size).toBe(100_000);
    const rest = await onB.patch('/resumed.bin', 100_000, data.subarray(100_000));
    expect(rest.statusCode, rest.body).toBe(204);
    expect(fileSha256(path.join(root, 'resumed.bin'))).toBe(sha256(data));
    // The dead holder's lease is gone for good: releasing it now changes nothing.
    await dead!.release();
    expect((await onA.head('/resumed.bin')).headers['upload-offset']).toBe(String(data.length));
  });

  it('stops a writer whose lease was taken over: it records nothing and answers 423', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (a.app.server.address() as AddressInfo).port;
    const data = randomBytes(200_000, 24);
    expect((await tusClient(a, token).create('/taken.bin', data.length)).statusCode).toBe(201);
    const [row] = await uploadRows(a);
    let finish: () => void = () => undefined;
    const writing = rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/taken.bin'),
      headers: { 'x-auth': token, 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': 0, 'content-length': data.length },
      body: (request) => {
        request.on('error', () => undefined);
        request.write(data.subarray(0, 50_000));
        finish = () => request.end(data.subarray(50_000));
      },
    });
    writing.catch(() => undefined);
    const leases = a.app.services.db.selectFrom('cluster_leases').selectAll().where('name', '=', uploadLockKey(row!));
    await waitFor(async () => (await leases.execute()).length === 1, 10_000, 'the writer on A to hold the upload');
    // Another instance owns the upload now (as after A stalled past its lease).
    await a.app.services.db.updateTable('cluster_leases').set({ holder: 'elsewhere', expires_at: Date.now() + 60_000 }).where('name', '=', uploadLockKey(row!)).execute();
    // A notices at its next renewal and stops writing; the rest of the body is then only drained.
    await sleep(3000);
    finish();
    expect((await writing).status).toBe(423);
    expect((await uploadRows(b))[0]!.offset).toBe(0);
    expect((await leases.execute())[0]!.holder).toBe('elsewhere');
    expect(fs.existsSync(path.join(root, 'taken.bin'))).toBe(false);
  });

  it('runs the sweep once per period and does not take staging files another instance may be writing', async () => {
    const instances = await startInstances({ uploadExpiry: 3600 });
    const { a, b } = instances;
    const token = await a.login();
    expect((await tusClient(a, token).create('/kept.bin', 10)).statusCode).toBe(201);
    // A staging file no row refers to yet (an instance between its two steps of a POST, or a
    // replacing write in progress): a start-up pass on a shared database leaves it alone.
    const young = path.join(instances.cacheDir, 'uploads', '11111111-2222-4333-8444-555555555555.part');
    fs.writeFileSync(young, 'in flight');
    const write = path.join(instances.cacheDir, 'uploads', `${'c'.repeat(32)}.write`);
    fs.writeFileSync(write, 'in flight');
    const jobs = () => a.app.services.db.selectFrom('cluster_jobs').selectAll().where('name', '=', 'uploads.sweep').execute();
    expect(await jobs()).toEqual([expect.objectContaining({ holder: a.app.services.cluster.instanceId })]);
    // A third instance starting within the period does not sweep: the job ran less than a period ago.
    let third = await startThird(instances);
    await third.close();
    expect(await jobs()).toEqual([expect.objectContaining({ holder: a.app.services.cluster.instanceId })]);
    // Once the period is over, the next instance to start sweeps, but with the others serving it
    // cannot take a fresh unreferenced staging file for an orphan.
    await a.app.services.db.updateTable('cluster_jobs').set({ started_at: 0 }).where('name', '=', 'uploads.sweep').execute();
    third = await startThird(instances);
    try {
      expect(await jobs()).toEqual([expect.objectContaining({ holder: third.app.services.cluster.instanceId })]);
      expect(fs.existsSync(young) && fs.existsSync(write)).toBe(true);
      expect((await uploadRows(b)).map((upload) => upload.path)).toEqual(['/kept.bin']);
    } finally {
      await third.close();
    }
    // A sweep that does run (the periodic one) takes the orphan only once it is old.
    expect((await b.app.services.uploads.sweep()).orphans).toBe(0);
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(young, old, old);
    expect((await b.app.services.uploads.sweep()).orphans).toBe(1);
    expect(fs.existsSync(young)).toBe(false);
    expect(fs.existsSync(write)).toBe(true);
  });
});

/** Starts one more instance over the same database and folders. */
function startThird(running: Instances): Promise<TestApp> {
  return createTestApp({ database: running.a.config.database, root: running.root, cacheDir: running.cacheDir, uploadExpiry: 3600 });
}

describe('upload-only links across instances', () => {
  it('holds the file limit when parallel uploads go to both instances', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    fs.mkdirSync(path.join(root, 'inbox'));
    const link = await requestLink(a, token, '/inbox', { maxFiles: 3, maxTotalSize: 0 });
    const ports = [await portOf(a), await portOf(b)];
    const attempts = Array.from({ length: 10 }, (_, index) => uploader(ports[index % 2]!, link.hash).create(`file-${index}.txt`, 5));
    const statuses = (await Promise.all(attempts)).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 403)).toBe(true);
    expect((await uploadRows(a)).length).toBe(3);
  });

  it('holds the size limit when parallel uploads go to both instances', async () => {
    const instances = await startInstances();
    const { a, b, root } = instances;
    const token = await a.login();
    fs.mkdirSync(path.join(root, 'drop'));
    const link = await requestLink(a, token, '/drop', { maxTotalSize: 1000 });
    const ports = [await portOf(a), await portOf(b)];
    const attempts = Array.from({ length: 8 }, (_, index) => uploader(ports[index % 2]!, link.hash).send(`part-${index}.bin`, randomBytes(300, index + 1)));
    const results = await Promise.all(attempts);
    const accepted = results.filter((result) => result.created.status === 201);
    expect(accepted).toHaveLength(3);
    for (const result of accepted) expect(result.patched?.status).toBe(204);
    const stored = fs.readdirSync(path.join(root, 'drop'));
    expect(stored).toHaveLength(3);
    expect(stored.reduce((sum, name) => sum + fs.statSync(path.join(root, 'drop', name)).size, 0)).toBe(900);
  });
});
