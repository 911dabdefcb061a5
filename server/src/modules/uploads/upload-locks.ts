import type { Cluster } from '../../storage/cluster.js';

type Lease = NonNullable<Awaited<ReturnType<Cluster['lease']>>>;

/**
 * A lock taken with `tryAcquire`. `signal` aborts when the lock is lost (another instance took
 * it over after this one failed to renew it in time): whoever writes under the lock must stop
 * at once. `confirm()` says, after checking, that the lock is still held; call it right before
 * recording anything. `release()` lets go; calling it twice is harmless.
 */
export type HeldLock = {
  readonly signal: AbortSignal;
  confirm(): Promise<boolean>;
  release(): Promise<void>;
};

export type UploadLocks = ReturnType<typeof createUploadLocks>;

type UploadLocksOptions = {
  /**
   * Instances sharing the database take each lock in the cluster too (a lease renewed while it
   * is held); without it, or on SQLite, the in-memory lock table is the whole story.
   */
  cluster?: Pick<Cluster, 'shared' | 'lease'>;
  /** How long a lease outlives its last renewal: a killed holder's uploads resume after this. */
  leaseMs?: number;
  log?: { warn: (object: unknown, message: string) => void };
};

/** A killed instance's uploads can be resumed elsewhere this long after its last renewal. */
const DEFAULT_LEASE_MS = 10_000;
/** Polling pause while waiting for a lock held on another instance. */
const REMOTE_POLL_MS = 100;

/**
 * One writer per upload. In one process an in-memory set is the whole lock table: a second
 * request for a held key is refused at once (423) rather than queued, which is what tus clients
 * expect and retry on. When instances share the database, a key held here is also claimed as a
 * cluster lease, renewed four times per lifetime while held. A holder that cannot renew stops on
 * its own before its lease can lapse (its clock, counted from the last renewal it sent), so by
 * the time another instance may take the lease over, the old holder writes nothing more.
 */
export function createUploadLocks(options: UploadLocksOptions = {}) {
  const cluster = options.cluster?.shared ? options.cluster : undefined;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const held = new Set<string>();
  const waiters = new Map<string, Set<() => void>>();

  const never = new AbortController().signal;

  function takeLocal(key: string): (() => void) | undefined {
    if (held.has(key)) return undefined;
    held.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.delete(key);
      for (const wake of waiters.get(key) ?? []) wake();
    };
  }

  /** Holds `lease` for as long as the lock is held; aborts when it cannot be kept. */
  function keepLease(key: string, lease: Lease, claimedAt: number, releaseLocal: () => void): HeldLock {
    const controller = new AbortController();
    // The start of the last renewal that succeeded: the lease runs at least leaseMs from there.
    let confirmedAt = claimedAt;
    let released = false;
    // Renews four times per lifetime (the callback runs only after everything below is set up).
    const timer = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 4)));
    timer.unref();
    // Stop a little before the lease can lapse: the last writes in progress still finish in time.
    const deadline = () => confirmedAt + leaseMs - Math.min(1000, leaseMs / 5);
    const lose = (reason: string) => {
      if (controller.signal.aborted || released) return;
      clearInterval(timer);
      options.log?.warn({ key, reason }, 'an upload lock was lost; its writer stops');
      controller.abort(new Error(reason));
    };
    // Fires at the deadline unless a renewal moves it on first.
    let deadlineTimer: NodeJS.Timeout | undefined;
    const armDeadline = () => {
      clearTimeout(deadlineTimer);
      deadlineTimer = setTimeout(() => lose('the lease could not be renewed in time'), Math.max(0, deadline() - Date.now()));
      deadlineTimer.unref();
    };
    armDeadline();
    const renew = async (): Promise<boolean> => {
      if (controller.signal.aborted) return false;
      const started = Date.now();
      try {
        if (await lease.renew()) {
          if (started > confirmedAt && !controller.signal.aborted) {
            confirmedAt = started;
            armDeadline();
          }
          return true;
        }
        lose('the lease was taken over');
        return false;
      } catch (error) {
        if (Date.now() >= deadline()) lose(`the lease could not be renewed: ${(error as Error).message}`);
        return false;
      }
    };
    return {
      signal: controller.signal,
      async confirm() {
        return (await renew()) && !controller.signal.aborted;
      },
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        clearTimeout(deadlineTimer);
        try {
          if (!controller.signal.aborted) await lease.release();
        } catch (error) {
          // It lapses on its own.
          options.log?.warn({ err: error, key }, 'could not release an upload lease');
        } finally {
          releaseLocal();
        }
      },
    };
  }

  async function tryAcquire(key: string): Promise<HeldLock | undefined> {
    const releaseLocal = takeLocal(key);
    if (!releaseLocal) return undefined;
    if (!cluster) {
      return {
        signal: never,
        confirm: async () => true,
        release: async () => releaseLocal(),
      };
    }
    const claimedAt = Date.now();
    let lease: Lease | undefined;
    try {
      lease = await cluster.lease(key, leaseMs);
    } catch (error) {
      releaseLocal();
      throw error;
    }
    if (!lease) {
      releaseLocal();
      return undefined;
    }
    return keepLease(key, lease, claimedAt, releaseLocal);
  }

  return {
    tryAcquire,
    /**
     * Waits up to `timeoutMs` for a held key. Used where the holder is expected to let go soon:
     * a client that aborts its PATCH and terminates the upload sends the DELETE before the server
     * has noticed the dropped connection.
     */
    async acquireWithin(key: string, timeoutMs: number): Promise<HeldLock | undefined> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const lock = await tryAcquire(key);
        if (lock) return lock;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        await new Promise<void>((resolve) => {
          const set = waiters.get(key) ?? new Set<() => void>();
          waiters.set(key, set);
          const wake = () => {
            clearTimeout(timer);
            set.delete(wake);
            if (set.size === 0) waiters.delete(key);
            resolve();
          };
          // Held here: woken on release. Held elsewhere: nobody here will wake us, so look again soon.
          const timer = setTimeout(wake, held.has(key) ? left : Math.min(left, REMOTE_POLL_MS));
          set.add(wake);
        });
      }
    },
    /** Whether this instance holds the key (other instances' locks are not seen here). */
    isHeld(key: string): boolean {
      return held.has(key);
    },
  };
}
