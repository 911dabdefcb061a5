import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { acquireTestCluster, type TestCluster } from './postgres.js';

/**
 * Two instances of one cluster, as tests see them: two real apps over one PostgreSQL database,
 * one served root and one cache folder (which instances share, see the README).
 */
export type Instances = { a: TestApp; b: TestApp; root: string; cacheDir: string; close(): Promise<void> };

let cluster: TestCluster | undefined;

/** The PostgreSQL cluster the instances' databases live on (started once per test file). */
async function instancesCluster(): Promise<TestCluster> {
  cluster ??= await acquireTestCluster();
  return cluster;
}

async function releaseInstancesCluster(): Promise<void> {
  await cluster?.release();
  cluster = undefined;
}

let sequence = 0;

async function startInstances(overrides: Record<string, unknown> = {}): Promise<Instances> {
  const database = await (await instancesCluster()).createDatabase(`instances_${++sequence}`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-instances-'));
  const root = path.join(base, 'root');
  const cacheDir = path.join(base, 'cache');
  fs.mkdirSync(root);
  const shared = { ...overrides, database, root, cacheDir };
  const a = await createTestApp(shared);
  let b: TestApp;
  try {
    b = await createTestApp(shared);
  } catch (error) {
    await a.close();
    throw error;
  }
  // Both hear the other's messages before the test begins.
  await Promise.all([a.app.services.cluster.listening(), b.app.services.cluster.listening()]);
  return {
    a,
    b,
    root,
    cacheDir,
    async close() {
      try {
        await b.close();
      } finally {
        await a.close();
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/**
 * For a test file about instances: whatever a test started is closed after it, and the cluster
 * after the file. Returns how a test starts its two instances.
 */
export function instancesPerTest(): (overrides?: Record<string, unknown>) => Promise<Instances> {
  let current: Instances | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  afterAll(releaseInstancesCluster);
  return async (overrides = {}) => {
    current = await startInstances(overrides);
    return current;
  };
}
