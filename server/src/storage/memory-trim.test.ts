import { afterEach, describe, expect, it } from 'vitest';
import { limitMallocArenas, startIdleTrimmer, type IdleTrimmer } from './memory-trim.js';

/** Spends `ms` of CPU time (not wall time: on a busy machine the two differ a lot). */
function burn(ms: number): void {
  const cpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const until = cpu() + ms;
  let x = 0;
  while (cpu() < until) for (let step = 0; step < 10_000; step++) x += Math.sqrt(x + 1);
  if (x < 0) throw new Error('unreachable');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('idle trimmer', () => {
  let trimmer: IdleTrimmer | undefined;
  afterEach(() => trimmer?.stop());

  it('trims once after a burst of work followed by a quiet interval, and not again while nothing happens', async () => {
    let calls = 0;
    trimmer = startIdleTrimmer({ intervalMs: 200, busyMs: 100, idleShare: 0.5, trim: () => calls++ });
    burn(300);
    // The interval that saw the burst is busy; the next quiet one trims.
    for (let waited = 0; calls === 0 && waited < 5000; waited += 100) await sleep(100);
    expect(calls).toBe(1);
    expect(trimmer.trims).toBe(1);
    await sleep(700);
    expect(calls).toBe(1);
  });

  it('does not trim a process that never worked', async () => {
    let calls = 0;
    trimmer = startIdleTrimmer({ intervalMs: 100, busyMs: 10_000, trim: () => calls++ });
    await sleep(450);
    expect(calls).toBe(0);
  });

  it('keeps going when a trim throws', async () => {
    let calls = 0;
    trimmer = startIdleTrimmer({
      intervalMs: 150,
      busyMs: 50,
      idleShare: 0.5,
      trim: () => {
        calls++;
        throw new Error('nothing to give back');
      },
    });
    burn(150);
    for (let waited = 0; calls === 0 && waited < 5000; waited += 100) await sleep(100);
    burn(150);
    for (let waited = 0; calls === 1 && waited < 5000; waited += 100) await sleep(100);
    expect(calls).toBe(2);
  });

  it('runs the default trim (a full collection, then malloc_trim where glibc has it)', async () => {
    trimmer = startIdleTrimmer({ intervalMs: 150, busyMs: 20, idleShare: 0.5 });
    burn(60);
    for (let waited = 0; trimmer.trims === 0 && waited < 5000; waited += 100) await sleep(100);
    expect(trimmer.trims).toBe(1);
  });

  it('empties the given caches first in the default trim', async () => {
    let released = 0;
    trimmer = startIdleTrimmer({ intervalMs: 150, busyMs: 20, idleShare: 0.5, release: () => released++ });
    burn(60);
    for (let waited = 0; trimmer.trims === 0 && waited < 5000; waited += 100) await sleep(100);
    expect(trimmer.trims).toBe(1);
    expect(released).toBe(1);
  });
});

describe('malloc arenas', () => {
  it('leaves a limit given in the environment to glibc', () => {
    const saved = process.env.MALLOC_ARENA_MAX;
    process.env.MALLOC_ARENA_MAX = '4';
    try {
      expect(limitMallocArenas()).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = saved;
    }
  });
});
