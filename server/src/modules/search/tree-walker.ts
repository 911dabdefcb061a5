import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { childPath, compareKeys } from './walk-order.js';

/** What an index row records about an entry; links are never followed. */
export const EntryKind = { file: 0, dir: 1, link: 2, other: 3 } as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

export type WalkEntry = {
  /** Path relative to the walk's base (the server root for the index), `/`-separated. */
  path: string;
  name: string;
  kind: EntryKind;
};

export type WalkOptions = {
  signal?: AbortSignal;
  /** Called for every folder just before it is read (the watcher attaches here). */
  onDirectory?: (relativePath: string) => void;
  /** Entries to leave out, with everything below them. */
  skip?: (relativePath: string) => boolean;
};

function kindOf(entry: Pick<Dirent, 'isDirectory' | 'isSymbolicLink' | 'isFile'>): EntryKind {
  if (entry.isSymbolicLink()) return EntryKind.link;
  if (entry.isDirectory()) return EntryKind.dir;
  if (entry.isFile()) return EntryKind.file;
  return EntryKind.other;
}

type Frame = { real: string; relative: string; entries: Dirent[]; next: number };

async function readSorted(real: string): Promise<Dirent[]> {
  try {
    const entries = await fsp.readdir(real, { withFileTypes: true });
    return entries.sort((a, b) => compareKeys(a.name, b.name));
  } catch (error) {
    // A folder that vanished or cannot be read mid-walk simply has no entries for this walk.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM' || code === 'ELOOP') return [];
    throw error;
  }
}

/**
 * Depth-first walk below `baseReal` in walk order (names sorted by code point, a folder before its
 * contents). The base itself is not yielded. Symbolic links are reported, never followed, so the
 * walk cannot leave the tree it started in. Only the folders on the current branch are held in
 * memory.
 */
export async function* walkTree(baseReal: string, relativeBase: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const { signal, onDirectory, skip } = options;
  onDirectory?.(relativeBase);
  const stack: Frame[] = [{ real: baseReal, relative: relativeBase, entries: await readSorted(baseReal), next: 0 }];
  while (stack.length > 0) {
    if (signal?.aborted) return;
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const dirent = frame.entries[frame.next++]!;
    const relative = childPath(frame.relative, dirent.name);
    if (skip?.(relative)) continue;
    const kind = kindOf(dirent);
    yield { path: relative, name: dirent.name, kind };
    if (kind === EntryKind.dir) {
      const real = path.join(frame.real, dirent.name);
      onDirectory?.(relative);
      stack.push({ real, relative, entries: await readSorted(real), next: 0 });
    }
  }
}
