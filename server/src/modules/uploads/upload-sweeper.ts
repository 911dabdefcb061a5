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

/** The sweep's name among the cluster's periodic jobs. */
const SWEEP_JOB = 'uploads.sweep';

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
      const lock = await locks.tryAcquire(uploadLockKey(upload)).catch((error: unknown) => {
        context.log.warn({ err: error, upload: upload.id }, 'upload sweep could not lock one upload');
        return undefined;
      });
      if (!lock) continue;
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
        await lock.release();
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
   * Sweeps now and then on an unref'd timer. Returns the function that stops it. Alone on its
   * database, this instance sweeps before it serves requests, so nothing is in flight and every
   * unreferenced staging file is an orphan. When instances share the database and the staging
   * folder, the others are serving: the sweep runs on one instance per period, and a staging
   * file is only an orphan once nobody has written to it for the usual grace.
   */
  async function start(): Promise<() => Promise<void>> {
    await staging.prepare();
    const periodMs = Math.max(1, Math.min(config.uploadExpiry, 600)) * 1000;
    const cluster = context.cluster?.shared ? context.cluster : undefined;
    if (cluster) await cluster.once(SWEEP_JOB, periodMs, () => sweep());
    else await sweep({ orphanGraceMs: 0 });
    const timer = setInterval(() => {
      const pass = cluster ? cluster.once(SWEEP_JOB, periodMs, () => sweep()) : sweep();
      pass.catch((error: unknown) => context.log.warn({ err: error }, 'upload sweep failed'));
    }, periodMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    };
  }

  return { sweep, start };
}
