import fs from 'node:fs';
import path from 'node:path';
import { childPath, isSameOrBelow } from './walk-order.js';

export type DirectoryWatcher = {
  /** Starts watching a root-relative folder (no-op when watched, over the cap or recursive). */
  watch(relativePath: string): void;
  /** Stops watching a folder, and with `subtree` everything below it too. */
  forget(relativePath: string, subtree: boolean): void;
  readonly watchedCount: number;
  close(): void;
};

export type WatcherOptions = {
  rootReal: string;
  /** Changed root-relative paths, batched; `deep` when only the folder is known to have changed. */
  onChange: (paths: string[], deep: boolean) => void;
  /** Folders watched at most (one inotify watch each on Linux); the periodic rescan covers the rest. */
  maxDirectories: number;
  skip: (relativePath: string) => boolean;
  log: { warn: (object: unknown, message: string) => void };
  /** Changes are gathered for this long before they are reported (default 50 ms). */
  debounceMs?: number;
};

/**
 * Notices changes made outside Burrow. Where the platform watches a whole tree natively (macOS,
 * Windows) one recursive watch covers the root. On Linux a recursive watch costs memory for every
 * file (hundreds of megabytes for a million files), so each folder gets its own watch as the
 * index walk reaches it, up to a cap.
 */
export function createDirectoryWatcher(options: WatcherOptions): DirectoryWatcher {
  const { rootReal, onChange, maxDirectories, skip, log } = options;
  const debounceMs = options.debounceMs ?? 50;
  const watchers = new Map<string, fs.FSWatcher>();
  const shallow = new Set<string>();
  const deep = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let warnedFull = false;
  let recursive: fs.FSWatcher | undefined;

  function flush(): void {
    timer = undefined;
    if (closed) return;
    if (deep.size > 0) onChange([...deep], true);
    if (shallow.size > 0) onChange([...shallow], false);
    deep.clear();
    shallow.clear();
  }

  function report(relative: string, isDeep: boolean): void {
    if (closed || skip(relative)) return;
    (isDeep ? deep : shallow).add(relative);
    timer ??= setTimeout(flush, debounceMs);
  }

  function toRelative(file: string): string {
    return file.split(path.sep).join('/');
  }

  if (process.platform === 'darwin' || process.platform === 'win32') {
    try {
      recursive = fs.watch(rootReal, { recursive: true, persistent: false }, (_event, file) => {
        if (file) report(toRelative(file.toString()), false);
        else report('', true);
      });
      recursive.on('error', (error) => log.warn({ err: error }, 'search index: the watcher stopped'));
    } catch (error) {
      log.warn({ err: error }, 'search index: cannot watch the root; relying on rescans');
    }
  }

  return {
    watch(relative: string): void {
      if (closed || recursive || watchers.has(relative)) return;
      if (watchers.size >= maxDirectories) {
        if (!warnedFull) {
          warnedFull = true;
          log.warn({ maxDirectories }, 'search index: watching the first folders only; periodic rescans find the other changes');
        }
        return;
      }
      const real = relative === '' ? rootReal : path.join(rootReal, ...relative.split('/'));
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(real, { persistent: false }, (_event, file) => {
          if (file) report(childPath(relative, file.toString()), false);
          else report(relative, true);
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOSPC' || code === 'EMFILE') {
          if (!warnedFull) {
            warnedFull = true;
            log.warn({ code, watched: watchers.size }, 'search index: the system allows no more watches; periodic rescans find the other changes');
          }
        }
        return;
      }
      // A watched folder that goes away ends its watch; its parent reports the removal.
      watcher.on('error', () => {
        watcher.close();
        if (watchers.get(relative) === watcher) watchers.delete(relative);
      });
      watchers.set(relative, watcher);
    },

    forget(relative: string, subtree: boolean): void {
      if (relative === '') return;
      const own = watchers.get(relative);
      if (own) {
        own.close();
        watchers.delete(relative);
      }
      if (!subtree) return;
      for (const [watched, watcher] of watchers) {
        if (isSameOrBelow(relative, watched)) {
          watcher.close();
          watchers.delete(watched);
        }
      }
    },

    get watchedCount(): number {
      return recursive ? 1 : watchers.size;
    },

    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      recursive?.close();
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
