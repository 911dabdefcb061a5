import { discardUpload, reconcileUpload, uploadLockKey, type UploadContext } from './upload-context.js';
import { isFinished } from './uploads.repository.js';

/** A finished upload is remembered only long enough for a client to retry its last request. */
const FINISHED_RECORD_SECONDS = 600;

/** Staging files no upload refers to are left alone this long (a POST may be between steps). */
const ORPHAN_GRACE_MS = 10 * 60_000;

/**
 * A replacing write's staging file is written to for as long as its request body flows; one
 * untouched this long belongs to a request that is gone (or to a crash, swept at start).
 */
const WRITE_ORPHAN_MS = 24 * 60 * 60_000;

export type SweepResult = { expired: number; reconciled: number; orphans: number };

/**
 * Expiry and consistency: uploads idle for longer than `uploadExpiry` are forgotten with their
 * staging files, stored offsets are checked against the staging files, and staging files nothing
 * refers to (a crash between steps) are removed. Runs at start and then periodically.
 */
export function createUploadSweeper(context: UploadContext) {
  const { repository, staging, locks, config } = context;
  let running: Promise<SweepResult> | undefined;

  async function sweepOnce(now: number, orphanGraceMs: number): Promise<SweepResult> {
    const result: SweepResult = { expired: 0, reconciled: 0, orphans: 0 };
    const uploads = await repository.list();
    for (const upload of uploads) {
      // Uploads being written are active, whatever their recorded time says.
      const release = locks.tryAcquire(uploadLockKey(upload));
      if (!release) continue;
      try {
        const lifetime = isFinished(upload) ? Math.min(config.uploadExpiry, FINISHED_RECORD_SECONDS) : config.uploadExpiry;
        if (upload.updatedAt + lifetime * 1000 <= now) {
          await discardUpload(context, upload);
          result.expired++;
          continue;
        }
        const current = await reconcileUpload(context, upload);
        if (current?.offset !== upload.offset) result.reconciled++;
      } catch (error) {
        context.log.warn({ err: error, upload: upload.id }, 'upload sweep failed for one upload');
      } finally {
        release();
      }
    }
    const referenced = new Set(uploads.map((upload) => upload.stagingPath));
    for (const file of await staging.list()) {
      // A grace of zero (the pass at start, with nothing in flight) takes every orphan.
      const grace = file.write && orphanGraceMs > 0 ? Math.max(orphanGraceMs, WRITE_ORPHAN_MS) : orphanGraceMs;
      if (referenced.has(file.path) || now - file.mtimeMs < grace) continue;
      await staging.discard(file.path);
      result.orphans++;
    }
    return result;
  }

  /** One pass; concurrent callers share the pass already running. */
  function sweep(options: { now?: number; orphanGraceMs?: number } = {}): Promise<SweepResult> {
    if (!running) {
      running = sweepOnce(options.now ?? Date.now(), options.orphanGraceMs ?? ORPHAN_GRACE_MS).finally(() => {
        running = undefined;
      });
    }
    return running;
  }

  /**
   * Sweeps now (before requests are served, so nothing is in flight and every unreferenced staging
   * file is an orphan) and then on an unref'd timer. Returns the function that stops it.
   */
  async function start(): Promise<() => Promise<void>> {
    await staging.prepare();
    await sweep({ orphanGraceMs: 0 });
    const periodMs = Math.max(1, Math.min(config.uploadExpiry, 600)) * 1000;
    const timer = setInterval(() => {
      sweep().catch((error: unknown) => context.log.warn({ err: error }, 'upload sweep failed'));
    }, periodMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    };
  }

  return { sweep, start };
}
