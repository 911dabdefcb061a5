import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { TextInlineLimit, type ResourceType } from '@burrow/protocol';
import { mimeTypeOf } from '../../storage/mime.js';
import type { Scope } from '../../storage/scoped-fs.js';
import { joinVirtual, parentOf, baseName } from '../../storage/virtual-path.js';
import type { AnyStats } from './file-info.js';
import { SNIFF_LENGTH, isBinarySample, sniffMimeType } from './content-sniff.js';

/** What the type decision needs of a stat: whether it is a regular file, and its size. */
export type FileShape = { isFile: boolean; size: number };

export type DetectOptions = {
  /**
   * Read the first bytes when the extension does not settle the type. Single-file requests
   * always sniff; listings may skip it (see `listing.ts`), and then an unknown small file is
   * `text`, as upstream with `typeDetectionByHeader` off.
   */
  sniff: boolean;
};

/** The type a file's MIME type settles on its own, before any content is read. */
function typeFromMime(mime: string | undefined): ResourceType | undefined {
  if (!mime) return undefined;
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('image/')) return 'image';
  const base = mime.split(';')[0]!.trim();
  if (base.endsWith('pdf')) return 'pdf';
  return undefined;
}

/** Known application/* types whose files are text (used only when the content is not read). */
function isTextLikeMime(mime: string): boolean {
  const base = mime.split(';')[0]!.trim();
  return base.startsWith('text/') || base === 'application/json' || base.endsWith('+json') || base.endsWith('+xml') || base === 'application/javascript';
}

/** Reads up to `SNIFF_LENGTH` bytes; never opens anything but a regular file. */
async function readSample(realPath: string): Promise<Buffer | undefined> {
  let handle: fsp.FileHandle | undefined;
  try {
    // O_NONBLOCK: should the entry have been swapped for a pipe since the stat, opening it
    // must not hang the request waiting for a writer.
    handle = await fsp.open(realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.alloc(SNIFF_LENGTH);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_LENGTH, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    // An unreadable file still gets a type; failing here must not fail a whole listing.
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The resource type of a non-folder entry, following the wire protocol: named pipes (and other
 * special files) are `blob` and never opened; the extension's MIME type decides video, audio,
 * image and pdf; otherwise a text MIME type or a non-binary sample makes a file of at most
 * 10 MiB `text`; everything else is `blob`. The caller turns `text` into `textImmutable` for a
 * single-file request by a user without `modify`.
 */
export async function detectType(name: string, realPath: string, stat: AnyStats, options: DetectOptions): Promise<ResourceType> {
  return detectTypeOf(name, realPath, { isFile: stat.isFile(), size: Number(stat.size) }, options);
}

/** `detectType` for callers that keep only the shape of a stat. */
export async function detectTypeOf(name: string, realPath: string, shape: FileShape, options: DetectOptions): Promise<ResourceType> {
  if (!options.sniff || !needsSniff(name, shape)) return typeWithoutContent(name, shape);
  const sample = await readSample(realPath);
  if (!sample) return typeWithoutContent(name, shape);
  let mime = mimeTypeOf(name);
  if (!mime) {
    mime = sniffMimeType(sample);
    const sniffed = typeFromMime(mime);
    if (sniffed) return sniffed;
  }
  if (shape.size > TextInlineLimit) return 'blob';
  if (mime.startsWith('text')) return 'text';
  return isBinarySample(sample) ? 'blob' : 'text';
}

/**
 * The type decided without reading the file: special files are `blob`; the extension settles
 * media, pdf and text; over 10 MiB is `blob`; empty is `text`; a known non-text type is taken at
 * its word and an unknown one counts as `text`.
 */
export function typeWithoutContent(name: string, file: FileShape): ResourceType {
  if (!file.isFile) return 'blob';
  const mime = mimeTypeOf(name);
  const settled = typeFromMime(mime);
  if (settled) return settled;
  if (file.size > TextInlineLimit) return 'blob';
  if (mime?.startsWith('text')) return 'text';
  if (file.size === 0) return 'text';
  if (mime) return isTextLikeMime(mime) ? 'text' : 'blob';
  return 'text';
}

/**
 * True when the type decision for this entry needs its first bytes: an unknown extension (the
 * content may reveal media, at any size) or a known non-text, non-media type of at most 10 MiB
 * (the binary test decides between text and blob).
 */
export function needsSniff(name: string, file: FileShape): boolean {
  if (!file.isFile || file.size === 0) return false;
  const mime = mimeTypeOf(name);
  if (!mime) return true;
  if (typeFromMime(mime) || mime.startsWith('text')) return false;
  return file.size <= TextInlineLimit;
}

const SUBTITLE_EXTENSIONS = ['.vtt', '.srt', '.ass', '.ssa'];

function isSubtitleName(name: string): boolean {
  const lower = name.toLowerCase();
  return SUBTITLE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

type FolderIndex = {
  /** Subtitle file names, sorted. */
  subtitles: string[];
  /** Folder names, sorted. */
  folders: string[];
};

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The subtitle files and folders of a folder, sorted by name like Go's ReadDir. Links count only
 * when their target stays in the scope and is allowed there (a link to a denied or hidden file
 * is left out, as listings leave it out); entries are judged where they really are, so a
 * folder reached through a link cannot show what the rules deny at its real place. Special
 * files and unreadable entries are left out.
 */
async function indexFolder(scope: Scope, realDir: string): Promise<FolderIndex> {
  const index: FolderIndex = { subtitles: [], folders: [] };
  let dirents: fs.Dirent[];
  let landedDir: string;
  try {
    landedDir = await fsp.realpath(realDir);
    dirents = await fsp.readdir(landedDir, { withFileTypes: true });
  } catch {
    return index;
  }
  for (const dirent of dirents) {
    if (!dirent.isSymbolicLink() && !scope.allowsLanding(path.join(landedDir, dirent.name))) continue;
    if (dirent.isDirectory()) index.folders.push(dirent.name);
    else if (dirent.isFile()) {
      if (isSubtitleName(dirent.name)) index.subtitles.push(dirent.name);
    } else if (dirent.isSymbolicLink()) {
      try {
        const target = await fsp.realpath(path.join(landedDir, dirent.name));
        if (!scope.isInside(target) && !scope.followExternalSymlinks) continue;
        if (!scope.allowsLanding(target)) continue;
        const stat = await fsp.stat(target);
        if (stat.isDirectory()) index.folders.push(dirent.name);
        else if (stat.isFile() && isSubtitleName(dirent.name)) index.subtitles.push(dirent.name);
      } catch {
        // dangling or unreadable link: not a subtitle source
      }
    }
  }
  index.subtitles.sort(byName);
  index.folders.sort(byName);
  return index;
}

/** Names in a sorted list that start with `prefix` (one contiguous run). */
function withPrefix(sorted: string[], prefix: string): string[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const matches: string[] = [];
  for (let index = low; index < sorted.length && sorted[index]!.startsWith(prefix); index++) matches.push(sorted[index]!);
  return matches;
}

/** Reuses folder reads across the videos of one listing. */
export type SubtitleLookup = {
  /** Real path of the folder holding the video. */
  parentReal: string;
  cache: Map<string, Promise<FolderIndex>>;
};

/**
 * A lookup for the videos of one folder. A listing that already read the folder passes its
 * entries (names of files and of folders, links resolved) so the folder is not read twice.
 */
export function createSubtitleLookup(parentReal: string, entries?: { files: string[]; folders: string[] }): SubtitleLookup {
  const lookup: SubtitleLookup = { parentReal, cache: new Map() };
  if (entries) {
    lookup.cache.set(
      parentReal,
      Promise.resolve({ subtitles: entries.files.filter(isSubtitleName).sort(byName), folders: [...entries.folders].sort(byName) }),
    );
  }
  return lookup;
}

function cachedIndex(scope: Scope, lookup: SubtitleLookup, realDir: string): Promise<FolderIndex> {
  let index = lookup.cache.get(realDir);
  if (!index) {
    index = indexFolder(scope, realDir);
    lookup.cache.set(realDir, index);
  }
  return index;
}

/**
 * Subtitle files of a video, as virtual paths the scope allows: siblings named `base…` with a
 * subtitle extension; every subtitle file in sibling `subs` or `subtitles` folders (any case);
 * and those one level deeper in sibling folders whose name starts with `base`. Results follow
 * the sibling order by name, as upstream walks the folder.
 */
export async function subtitlesOf(scope: Scope, videoVirtual: string, lookup?: SubtitleLookup): Promise<string[]> {
  const parentVirtual = parentOf(videoVirtual);
  let parentReal = lookup?.parentReal;
  if (parentReal === undefined) {
    try {
      const parent = await scope.resolveClean(parentVirtual, false, 'read');
      if (!parent.stat?.isDirectory()) return [];
      parentReal = parent.real;
    } catch {
      return [];
    }
  }
  const context = lookup ?? createSubtitleLookup(parentReal);
  const name = baseName(videoVirtual);
  const dot = name.lastIndexOf('.');
  const base = dot < 0 ? name : name.slice(0, dot);
  const parent = await cachedIndex(scope, context, parentReal);

  const folders = new Set(withPrefix(parent.folders, base));
  for (const folder of parent.folders) {
    const lower = folder.toLowerCase();
    if (lower === 'subs' || lower === 'subtitles') folders.add(folder);
  }
  const siblings = withPrefix(parent.subtitles, base);
  const ordered = [...siblings.map((entry) => ({ entry, isFolder: false })), ...[...folders].map((entry) => ({ entry, isFolder: true }))];
  ordered.sort((a, b) => byName(a.entry, b.entry));

  const found: string[] = [];
  for (const { entry, isFolder } of ordered) {
    const entryVirtual = joinVirtual(parentVirtual, entry);
    if (!scope.isListable(entryVirtual)) continue;
    if (!isFolder) {
      found.push(entryVirtual);
      continue;
    }
    const inner = await cachedIndex(scope, context, path.join(parentReal, entry));
    for (const subtitle of inner.subtitles) {
      const subtitleVirtual = joinVirtual(entryVirtual, subtitle);
      if (scope.isListable(subtitleVirtual)) found.push(subtitleVirtual);
    }
  }
  return found;
}
