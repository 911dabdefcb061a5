import v8 from 'node:v8';
import vm from 'node:vm';
import { libcFunction } from './libc.js';

/** glibc's mallopt parameter for the most malloc arenas it creates (M_ARENA_MAX). */
const M_ARENA_MAX = -8;

/**
 * glibc gives every thread that meets a locked arena a new one, up to eight per core, and each
 * keeps the memory it once held: after archives were compressed and listings read on the
 * thread pool, tens of megabytes of freed memory stay resident. Two arenas are plenty for a
 * process whose JavaScript runs on one thread. `MALLOC_ARENA_MAX` in the environment, read by
 * glibc itself at start, takes precedence. Returns whether the limit was set.
 */
export function limitMallocArenas(arenas = 2): boolean {
  if (process.env.MALLOC_ARENA_MAX !== undefined) return false;
  const mallopt = libcFunction('int mallopt(int param, int value)');
  if (!mallopt) return false;
  try {
    return (mallopt(M_ARENA_MAX, arenas) as number) === 1;
  } catch {
    return false;
  }
}

let collector: (() => void) | null | undefined;

/**
 * V8's full garbage collection, or null where it cannot be had. After a burst of work (an index
 * build of hundreds of thousands of entries) V8 may leave tens of megabytes of garbage
 * uncollected for minutes, because an idle process allocates nothing that would start a
 * collection. Node offers no call for one; `--expose-gc` set at run time makes V8 put its `gc`
 * function into every context created afterwards, and a fresh context hands it over without
 * touching this one's globals.
 */
function fullCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  collector = null;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    if (typeof gc === 'function') collector = () => void (gc as () => unknown)();
  } catch {
    // Left to V8's own schedule.
  }
  return collector;
}

/**
 * Hands back the caches `release` empties, collects the garbage of the last burst of work, then
 * gives malloc's free memory back.
 */
function defaultTrim(release?: () => void): (() => void) | undefined {
  const mallocTrim = libcFunction('int malloc_trim(size_t pad)');
  const collect = fullCollector();
  if (!mallocTrim && !collect && !release) return undefined;
  return () => {
    release?.();
    collect?.();
    if (mallocTrim) mallocTrim(0);
  };
}

export type IdleTrimmer = { stop(): void; readonly trims: number };

export type IdleTrimOptions = {
  /** How often the process's CPU time is looked at (default 5 s). */
  intervalMs?: number;
  /** CPU time since the last trim that makes another one worth it (default 500 ms). */
  busyMs?: number;
  /** Under this share of one core over an interval, the process counts as idle (default 10%). */
  idleShare?: number;
  /** What to do once idle after work; by default, collect V8's garbage and hand malloc's free memory back to the system. */
  trim?: () => void;
  /** Caches to empty before the default trim (the search index's page cache). */
  release?: () => void;
};

/**
 * Once the process has worked (an index build, archives, big listings) and then gone quiet,
 * collects V8's garbage and hands the memory malloc keeps free back to the system (glibc's
 * malloc_trim), so an idle server's resident size falls back instead of staying at its peak. Watches the process's own
 * CPU time, so it needs no hook in any request path; its timer never keeps the process alive.
 * Without the C library binding (not glibc, koffi missing) only the collection runs.
 */
export function startIdleTrimmer(options: IdleTrimOptions = {}): IdleTrimmer {
  const intervalMs = options.intervalMs ?? 5000;
  const busyUs = (options.busyMs ?? 500) * 1000;
  const idleUs = intervalMs * 1000 * (options.idleShare ?? 0.1);
  const trim = options.trim ?? defaultTrim(options.release);
  let trims = 0;
  if (!trim) return { stop: () => undefined, trims };
  const cpuNow = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  let last = cpuNow();
  let sinceTrim = 0;
  const timer = setInterval(() => {
    const now = cpuNow();
    const used = now - last;
    last = now;
    sinceTrim += used;
    if (used < idleUs && sinceTrim >= busyUs) {
      try {
        trim();
        trims++;
      } catch {
        // Nothing to give back this time.
      }
      sinceTrim = 0;
      // The trim's own time does not count as work.
      last = cpuNow();
    }
  }, intervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get trims() {
      return trims;
    },
  };
}
