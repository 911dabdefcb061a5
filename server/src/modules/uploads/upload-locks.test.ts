import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../storage/cluster.js';

type Lease = NonNullable<Awaited<ReturnType<Cluster['lease']>>>;
import { createUploadLocks } from './upload-locks.js';

/** A lease table in memory, as `cluster.lease` keeps it in the database, with switches for faults. */
function fakeCluster() {
  const leases = new Map<string, { holder: number; expiresAt: number }>();
  let holders = 0;
  const state = { failRenewals: false, renewals: 0 };
  return {
    state,
    leases,
    shared: true,
    async lease(name: string, ttlMs: number): Promise<Lease | undefined> {
      const holder = ++holders;
      const claim = () => {
        const now = Date.now();
        const current = leases.get(name);
        if (current && current.expiresAt > now && current.holder !== holder) return false;
        leases.set(name, { holder, expiresAt: now + ttlMs });
        return true;
      };
      if (!claim()) return undefined;
      return {
        async renew() {
          state.renewals++;
          if (state.failRenewals) throw new Error('database unreachable');
          return claim();
        },
        async release() {
          if (leases.get(name)?.holder === holder) leases.delete(name);
        },
      };
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('upload locks across instances', () => {
  it('refuses a key held by another instance and takes it once released', async () => {
    const cluster = fakeCluster();
    const here = createUploadLocks({ cluster, leaseMs: 400 });
    const there = createUploadLocks({ cluster, leaseMs: 400 });
    const held = (await here.tryAcquire('upload:1'))!;
    expect(await there.tryAcquire('upload:1')).toBeUndefined();
    await held.release();
    const taken = await there.tryAcquire('upload:1');
    expect(taken).toBeDefined();
    await taken!.release();
  });

  it('keeps a lease alive while held, past its lifetime', async () => {
    const cluster = fakeCluster();
    const here = createUploadLocks({ cluster, leaseMs: 200 });
    const there = createUploadLocks({ cluster, leaseMs: 200 });
    const held = (await here.tryAcquire('upload:2'))!;
    await sleep(700);
    expect(held.signal.aborted).toBe(false);
    expect(cluster.state.renewals).toBeGreaterThan(2);
    expect(await there.tryAcquire('upload:2')).toBeUndefined();
    expect(await held.confirm()).toBe(true);
    await held.release();
  });

  it('stops the writer before the lease can lapse when renewals fail, so no two ever write', async () => {
    const cluster = fakeCluster();
    const here = createUploadLocks({ cluster, leaseMs: 300 });
    const held = (await here.tryAcquire('upload:3'))!;
    cluster.state.failRenewals = true;
    const abortedAt = await new Promise<number>((resolve) => held.signal.addEventListener('abort', () => resolve(Date.now())));
    // The lease is still in force at the moment the writer is told to stop.
    expect(cluster.leases.get('upload:3')!.expiresAt).toBeGreaterThan(abortedAt);
    expect(await held.confirm()).toBe(false);
    await held.release();
  });

  it('aborts at once when another instance took the lease over', async () => {
    const cluster = fakeCluster();
    const here = createUploadLocks({ cluster, leaseMs: 200 });
    const held = (await here.tryAcquire('upload:4'))!;
    cluster.leases.set('upload:4', { holder: -1, expiresAt: Date.now() + 10_000 });
    expect(await held.confirm()).toBe(false);
    expect(held.signal.aborted).toBe(true);
    await held.release();
    // Releasing a lost lock leaves the new holder's lease alone.
    expect(cluster.leases.get('upload:4')!.holder).toBe(-1);
  });

  it('is a plain in-memory lock without a shared database', async () => {
    const locks = createUploadLocks();
    const held = (await locks.tryAcquire('upload:5'))!;
    expect(await locks.tryAcquire('upload:5')).toBeUndefined();
    expect(await held.confirm()).toBe(true);
    const waiting = locks.acquireWithin('upload:5', 1000);
    await held.release();
    const next = await waiting;
    expect(next).toBeDefined();
    await next!.release();
  });
});
