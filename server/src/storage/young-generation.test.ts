import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const moduleUrl = new URL('./young-generation.ts', import.meta.url).href;

/**
 * Runs a fresh Node process (V8 flags are process-wide, so the test process stays untouched)
 * that keeps the young generation small, optionally starts a worker thread, then allocates
 * short-lived objects at length; prints the young generation's size in bytes afterwards.
 */
function youngGenerationAfterWork(worker: 'none' | 'kept' | 'plain'): number {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    const { keepYoungGenerationSmall, keepYoungGenerationSmallAfter } = await import(${JSON.stringify(moduleUrl)});
    keepYoungGenerationSmall();
    const mode = ${JSON.stringify(worker)};
    if (mode !== 'none') {
      const started = new Worker('setTimeout(() => {}, 2000)', { eval: true, execArgv: [] });
      if (mode === 'kept') keepYoungGenerationSmallAfter(started);
      await new Promise((resolve) => started.once('online', () => setImmediate(resolve)));
      await started.terminate();
    }
    let kept = [];
    for (let index = 0; index < 3_000_000; index++) {
      kept.push({ index, name: 'entry-' + index });
      if (kept.length > 200_000) kept = [];
    }
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    process.stdout.write(String(young.space_size));
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`the child failed: ${result.stderr}`);
  return Number(result.stdout);
}

const MiB = 1024 * 1024;

describe('young generation', () => {
  it('stays at its initial size through a burst of short-lived allocations', () => {
    expect(youngGenerationAfterWork('none')).toBeLessThanOrEqual(4 * MiB);
  });

  it('stays small after a worker thread starts, which resets V8 flags, when the worker is handed over', () => {
    // Without the hand-over the burst grows it to its maximum (16 MiB per semi-space).
    expect(youngGenerationAfterWork('plain')).toBeGreaterThan(8 * MiB);
    expect(youngGenerationAfterWork('kept')).toBeLessThanOrEqual(4 * MiB);
  });
});
