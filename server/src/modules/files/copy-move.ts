import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Scope, ResolvedPath } from '../../storage/scoped-fs.js';
import { badRequest, conflict, forbidden, internal, notFound } from '../../errors.js';
import { baseName, cleanVirtualPath, isWithin, joinVirtual, parentOf } from '../../storage/virtual-path.js';
import type { Actor, FilesDeps } from './files.deps.js';
import { assertDescendantsAllowed } from './descendants.js';
import { privateStagingDir, hiddenSiblingPath } from '../../storage/staging-place.js';
import { copyFileAtomically, syncFolder } from './atomic-write.js';
import { makeParents } from './write.js';

export type PatchOptions = {
  action: string;
  /** Destination virtual path, already decoded (the front end encodes it twice). */
  destination: string;
  override: boolean;
  rename: boolean;
};

const MAX_RENAME_ATTEMPTS = 10_000;

/**
 * Splits a name for numbering: `a.tar.gz` → `a.tar` + `.gz`, `dir` → `dir` + ``. A name that is
 * only an extension (`.bashrc`) is numbered at its end rather than before the dot.
 */
function splitForNumbering(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** The first free `base(N)ext` beside `virtual`, N = 1, 2, … (existing links count as taken). */
export async function freeName(scope: Scope, virtual: string): Promise<ResolvedPath> {
  const parent = parentOf(virtual);
  const [base, extension] = splitForNumbering(baseName(virtual));
  for (let counter = 1; counter <= MAX_RENAME_ATTEMPTS; counter++) {
    const candidate = joinVirtual(parent, `${base}(${counter})${extension}`);
    if (!scope.isAllowed(candidate)) throw forbidden();
    const resolved = await scope.resolveClean(cleanVirtualPath(candidate).path, false, 'delete');
    if (!resolved.stat) return resolved;
  }
  throw conflict();
}

const isInsideReal = (parent: string, child: string) => child === parent || child.startsWith(parent + path.sep);

async function lstatOrUndefined(real: string): Promise<fs.Stats | undefined> {
  try {
    return await fsp.lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Recreates a link at `to` only when it cannot reach outside the scope from its new place: the
 * link is staged, and kept only if it resolves inside the root (or, when dangling, if its text
 * points inside the root lexically). Escaping links are skipped, never dereferenced.
 */
async function copyLink(scope: Scope, from: string, to: string): Promise<boolean> {
  const text = await fsp.readlink(from);
  // Staged beside its destination, so the check below sees where the link text leads from there.
  const staging = hiddenSiblingPath(to);
  await fsp.symlink(text, staging);
  try {
    if (!scope.followExternalSymlinks) {
      let target: string | undefined;
      try {
        target = await fsp.realpath(staging);
      } catch {
        target = undefined;
      }
      const landing = target ?? path.resolve(path.dirname(to), text);
      if (!scope.isInside(landing)) {
        await fsp.unlink(staging);
        return false;
      }
    }
    const existing = await lstatOrUndefined(to);
    if (existing?.isDirectory()) throw conflict();
    await fsp.rename(staging, to);
    return true;
  } catch (error) {
    await fsp.unlink(staging).catch(() => undefined);
    throw error;
  }
}

/**
 * Copies `from` onto `to` without following links: folders merge (created with `dirMode`),
 * files are written atomically and keep their permission bits, links are recreated only when
 * they stay in the scope, and special files (pipes, sockets, devices) are skipped, as are entries
 * that vanish or cannot be named (invalid UTF-8). Returns how many entries were left behind.
 */
async function copyTree(scope: Scope, from: string, to: string, dirMode: number, isTop = true, stagingDir?: string): Promise<number> {
  const stat = await lstatOrUndefined(from);
  if (!stat) return 1;
  if (stat.isDirectory()) {
    const existing = await lstatOrUndefined(to);
    if (existing && !existing.isDirectory()) throw conflict();
    if (!existing) await fsp.mkdir(to, { mode: dirMode });
    let skipped = 0;
    for (const name of await fsp.readdir(from)) {
      skipped += await copyTree(scope, path.join(from, name), path.join(to, name), dirMode, false, stagingDir);
    }
    await syncFolder(to);
    return skipped;
  }
  if (stat.isFile()) {
    const existing = await lstatOrUndefined(to);
    if (existing?.isDirectory()) throw conflict();
    const copied = await copyFileAtomically(from, to, stat.mode & 0o777, stagingDir);
    if (isTop) await syncFolder(path.dirname(to));
    return copied ? 0 : 1;
  }
  if (stat.isSymbolicLink()) return (await copyLink(scope, from, to)) ? 0 : 1;
  return 1;
}

/**
 * PATCH: copy or move (`rename`) with the wire protocol's check order: rules and the root (403),
 * a destination inside the source (400), an existing destination (409 unless `override`, or
 * `rename` picks `base(N)ext`), `override` without `modify` (403), denied descendants or
 * destinations (403), then the action's own permission (403) or an unknown action (400).
 */
export async function patchResource(deps: FilesDeps, actor: Actor, sourcePath: string, options: PatchOptions): Promise<void> {
  const { user, scope } = actor;
  const source = cleanVirtualPath(sourcePath).path;
  const destination = cleanVirtualPath(options.destination).path;
  if (!scope.isAllowed(source) || !scope.isAllowed(destination)) throw forbidden();
  if (source === '/' || destination === '/') throw forbidden();
  if (destination !== source && isWithin(source, destination)) throw badRequest('source is parent');

  // The content to copy (links followed, refused when they escape) and the entry to move.
  const sourceContent = await scope.resolveClean(source, false, 'read');
  const sourceEntry = await scope.resolveClean(source, false, 'delete');
  if (!sourceContent.stat || !sourceEntry.stat) throw notFound();

  let target = await scope.resolveClean(destination, false, 'delete');
  let isSameEntry = Boolean(target.stat && target.stat.dev === sourceEntry.stat.dev && target.stat.ino === sourceEntry.stat.ino);
  if (!(options.action === 'rename' && isSameEntry)) {
    if (target.stat && !options.override && !options.rename) throw conflict();
    if (options.rename && target.stat) {
      target = await freeName(scope, destination);
      isSameEntry = false;
    }
    if (options.override && !user.perm.modify) throw forbidden();
  }

  const isCopy = options.action === 'copy';
  // Through links, a lexically unrelated destination can still lie inside the source folder.
  const treeRoot = isCopy ? sourceContent : sourceEntry;
  if (treeRoot.stat!.isDirectory() && target.virtual !== source && isInsideReal(treeRoot.real, target.real)) throw badRequest('source is parent');
  if (treeRoot.stat!.isDirectory()) await assertDescendantsAllowed(scope, treeRoot.real, source, target.virtual);

  if (isCopy) {
    if (!user.perm.create) throw forbidden();
  } else if (options.action === 'rename') {
    if (!user.perm.rename) throw forbidden();
  } else {
    throw badRequest('invalid action');
  }

  const isDir = treeRoot.stat!.isDirectory();
  const hookAction = isCopy ? 'copy' : 'rename';
  await deps.hooks.around(hookAction, { user, file: treeRoot.real, destination: target.real }, async () => {
    await makeParents(deps, actor, target);
    if (isCopy) {
      if (isSameEntry || target.real === sourceContent.real) return;
      const stat = sourceContent.stat!;
      if (!stat.isDirectory() && !stat.isFile()) throw badRequest('cannot copy a special file');
      await copyTree(scope, sourceContent.real, target.real, deps.config.dirMode, true, privateStagingDir(deps.config.cacheDir));
      await deps.fileEvents.emit({ kind: 'copied', user, fromReal: sourceContent.real, toReal: target.real, fromVirtual: source, toVirtual: target.virtual, isDir });
      return;
    }
    await moveEntry(scope, sourceEntry.real, target.real, deps.config.dirMode, privateStagingDir(deps.config.cacheDir));
    await deps.fileEvents.emit({ kind: 'moved', user, fromReal: sourceEntry.real, toReal: target.real, fromVirtual: source, toVirtual: target.virtual, isDir });
  });
}

/**
 * Renames, falling back to copy + delete when the rename cannot be done in place: across
 * filesystems (EXDEV) or onto an existing non-empty folder (which then merges, as upstream).
 */
async function moveEntry(scope: Scope, from: string, to: string, dirMode: number, stagingDir: string): Promise<void> {
  try {
    await fsp.rename(from, to);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTDIR') throw conflict();
    if (code !== 'EXDEV' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
  // The source goes only once everything reached the destination: a pipe, an escaping link or
  // an unnameable entry that could not be carried over keeps the source in place.
  const skipped = await copyTree(scope, from, to, dirMode, true, stagingDir);
  if (skipped > 0) throw internal(`${skipped} entries could not be moved`);
  await fsp.rm(from, { recursive: true, force: false });
}
