import { describe, expect, it } from 'vitest';
import { UploadQueue, type TransferHandle, type UploadJob } from './upload-queue';
import { UploadError, isAbortedUpload } from './upload-error';
import { shouldRetryTus, tusOptions, tusRetryDelays } from './tus-transport';

function job(id: number): UploadJob {
  return { id, path: `/f${id}`, file: new Blob(['x']), size: 1, override: false };
}

type Deferred = { resolve: () => void; reject: (error: unknown) => void; aborted: boolean };

function controllableQueue() {
  const running = new Map<number, Deferred>();
  let peak = 0;
  const settled: Array<[number, unknown]> = [];
  let idleCalls = 0;
  const queue = new UploadQueue({
    start: (entry): TransferHandle => {
      const deferred = { aborted: false } as Deferred;
      const done = new Promise<void>((resolve, reject) => {
        deferred.resolve = resolve;
        deferred.reject = reject;
      });
      running.set(entry.id, deferred);
      peak = Math.max(peak, running.size);
      return {
        done: done.finally(() => running.delete(entry.id)),
        abort: async () => {
          deferred.aborted = true;
          deferred.reject(new UploadError('Upload aborted', 0, true));
        },
      };
    },
    onSettled: (entry, error) => settled.push([entry.id, error]),
    onIdle: () => (idleCalls += 1),
  });
  return { queue, running, settled, peak: () => peak, idleCalls: () => idleCalls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('UploadQueue', () => {
  it('runs at most five at once, first in first out, and goes on after failures', async () => {
    const { queue, running, settled, peak, idleCalls } = controllableQueue();
    queue.add(Array.from({ length: 12 }, (_, index) => job(index + 1)));
    expect([...running.keys()]).toEqual([1, 2, 3, 4, 5]);
    expect(queue.pendingCount).toBe(7);

    running.get(2)!.reject(new UploadError('boom', 500));
    await tick();
    expect([...running.keys()]).toEqual([1, 3, 4, 5, 6]);

    while (running.size > 0) {
      for (const deferred of [...running.values()]) deferred.resolve();
      await tick();
    }
    expect(peak()).toBe(5);
    expect(settled.map(([id]) => id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(settled.filter(([, error]) => error !== undefined).map(([id]) => id)).toEqual([2]);
    expect(queue.isIdle).toBe(true);
    expect(idleCalls()).toBeGreaterThanOrEqual(1);
  });

  it('abortAll drops the waiting jobs and aborts the running ones', async () => {
    const { queue, running, settled } = controllableQueue();
    queue.add(Array.from({ length: 8 }, (_, index) => job(index + 1)));
    const active = [...running.values()];
    await queue.abortAll();
    await tick();
    expect(active.every((deferred) => deferred.aborted)).toBe(true);
    expect(settled).toHaveLength(8);
    expect(settled.every(([, error]) => isAbortedUpload(error))).toBe(true);
    expect(queue.isIdle).toBe(true);
  });
});

describe('tus retry policy', () => {
  it('waits 0, then 1 s doubling up to 20 s, once per allowed retry', () => {
    expect(tusRetryDelays(0)).toEqual([]);
    expect(tusRetryDelays(1)).toEqual([0]);
    expect(tusRetryDelays(5)).toEqual([0, 1000, 2000, 4000, 8000]);
    expect(tusRetryDelays(9)).toEqual([0, 1000, 2000, 4000, 8000, 16000, 20000, 20000, 20000]);
  });

  it('never retries a conflict', () => {
    expect(shouldRetryTus(409)).toBe(false);
    expect(shouldRetryTus(403)).toBe(false);
    expect(shouldRetryTus(423)).toBe(true);
    expect(shouldRetryTus(500)).toBe(true);
    expect(shouldRetryTus(undefined)).toBe(true);
    expect(shouldRetryTus(0)).toBe(true);
    expect(shouldRetryTus(503)).toBe(true);
    expect(shouldRetryTus(413)).toBe(false);
    expect(shouldRetryTus(429)).toBe(false);
  });

  it('builds client options from the settings, without stored fingerprints', () => {
    const options = tusOptions(
      { chunkSize: 5 * 1024 * 1024, retryCount: 3 },
      { endpoint: 'http://127.0.0.1/api/tus/a?override=false', getToken: () => 'tok', onProgress: () => undefined, onSuccess: () => undefined, onError: () => undefined },
    );
    expect(options.chunkSize).toBe(5 * 1024 * 1024);
    expect(options.retryDelays).toEqual([0, 1000, 2000]);
    expect(options.storeFingerprintForResuming).toBe(false);
    expect(options.removeFingerprintOnSuccess).toBe(true);
    const response = (status: number) => ({ originalResponse: { getStatus: () => status } }) as never;
    expect(options.onShouldRetry!(response(409), 0, options)).toBe(false);
    expect(options.onShouldRetry!(response(502), 0, options)).toBe(true);
    const headers: Record<string, string> = {};
    void options.onBeforeRequest!({ setHeader: (name: string, value: string) => (headers[name] = value) } as never);
    expect(headers['X-Auth']).toBe('tok');
    expect(tusOptions({ chunkSize: 0, retryCount: 0 }, { endpoint: '', getToken: () => null, onProgress: () => undefined, onSuccess: () => undefined, onError: () => undefined }).chunkSize).toBe(1024 * 1024);
  });
});
