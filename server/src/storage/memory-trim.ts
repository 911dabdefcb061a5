import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { libcFunction } from './libc.js';

/** glibc's mallopt parameter for the most malloc arenas it creates (M_ARENA_MAX). */
const M_ARENA_MAX = -8;

/**
 * glibc gives every thread that meets a locked arena a new one, up to eight per core, and each
 * keeps the memory it once held: after archives were compressed and listings read on the
 * thread pool, tens of megabytes of freed memory stay resident. One arena is plenty for a
 * process whose JavaScript runs on one thread. `MALLOC_ARENA_MAX` in the environment, read by
 * glibc itself at start, takes precedence. Returns whether the limit was set. It holds only for
 * threads that have not allocated yet: V8's own threads, started with the process, keep the
 * arenas they already have (see `execWithOneMallocArena`).
 */
export function limitMallocArenas(arenas = 1): boolean {
  if (process.env.MALLOC_ARENA_MAX !== undefined) return false;
  const mallopt = libcFunction('int mallopt(int param, int value)');
  if (!mallopt) return false;
  try {
    return (mallopt(M_ARENA_MAX, arenas) as number) === 1;
  } catch {
    return false;
  }
}

/** fcntl's commands for the descriptor flags, and the close-on-exec flag. */
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

/**
 * Runs this same program again in this same process (execve: same process id, arguments,
 * options, environment and standard streams) with `MALLOC_ARENA_MAX=1`, so that glibc gives
 * every thread, V8's own included, the one arena from the first allocation on. Setting the
 * limit from inside comes too late for the threads V8 starts with the process: measured with a
 * 300,000-entry tree indexed, the idle server holds 81.5 MB with the late limit and 79.5 MB
 * with the early one, and 102.0 against 97.8 MB after a round of listings, archives and
 * searches. Costs one more start of the node binary, about 40 ms.
 *
 * Returns, having changed nothing, where it does not apply: not glibc, the limit already set (by
 * the user, or by this very call before the restart), a debugger attached, an IPC channel to a
 * parent (its serialization cannot be handed on), a worker thread, or execve failing.
 */
export function execWithOneMallocArena(): void {
  if (process.env.MALLOC_ARENA_MAX !== undefined || process.channel || !isMainThread) return;
  if (process.execArgv.some((option) => option.startsWith('--inspect') || option.startsWith('--debug'))) return;
  if (!libcFunction('const char *gnu_get_libc_version()')) return;
  const execve = libcFunction('int execve(const char *path, const char **argv, const char **envp)');
  const fcntl = libcFunction('int fcntl(int fd, int cmd, ...)');
  if (!execve || !fcntl) return;
  try {
    // Node marks the standard streams close-on-exec; the program run again must keep them.
    for (const fd of [0, 1, 2]) {
      const flags = fcntl(fd, F_GETFD) as number;
      if (flags >= 0 && flags & FD_CLOEXEC) fcntl(fd, F_SETFD, 'int', flags & ~FD_CLOEXEC);
    }
    const environment = Object.entries({ ...process.env, MALLOC_ARENA_MAX: '1' }).map(([name, value]) => `${name}=${value ?? ''}`);
    const argv = [process.argv0, ...process.execArgv, ...process.argv.slice(1)];
    execve(process.execPath, [...argv, null], [...environment, null]);
  } catch {
    // Not restarted: the server runs with the limit set from inside.
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
 * A full collection that also drops the bytecode of every function not running now. V8 keeps the
 * bytecode it compiled until a function has gone unused through several collections, and an idle
 * server collects nothing: the code that ran once at start (migrations, route set-up, schema
 * building) would stay compiled for good. Dropped bytecode is compiled again from the source V8
 * keeps, on the function's next call, which costs well under a millisecond for most functions.
 */
function collectWithCodeFlush(collect: () => void): void {
  try {
    v8.setFlagsFromString('--stress-flush-code');
  } catch {
    collect();
    return;
  }
  try {
    // The first collection marks the old bytecode, the second one frees it.
    collect();
    collect();
  } finally {
    v8.setFlagsFromString('--no-stress-flush-code');
  }
}

/**
 * Hands back the caches `release` empties, collects the garbage of the last burst of work along
 * with the bytecode of code not in use, then gives malloc's free memory back.
 */
function defaultTrim(release?: () => void): (() => void) | undefined {
  const mallocTrim = libcFunction('int malloc_trim(size_t pad)');
  const collect = fullCollector();
  if (!mallocTrim && !collect && !release) return undefined;
  return () => {
    release?.();
    if (collect) collectWithCodeFlush(collect);
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
