import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { conflict, forbidden, insufficientStorage, methodNotAllowed, notFound } from '../../errors.js';
import type { Actor, FilesDeps } from './files.deps.js';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import { parentOf } from '../../storage/virtual-path.js';
import { privateStagingDir } from '../../storage/staging-place.js';
import { writeAtomically } from './atomic-write.js';
import { etagOf } from './file-info.js';

export type WriteBody = {
  stream: Readable;
  /** Declared Content-Length, when the client sent one. */
  length?: number;
};

export type WriteResult = { etag?: string };

/** Refuses a body that cannot fit: free space (for this process) below the declared length. */
async function ensureSpace(folder: string, fallback: string, length: number | undefined): Promise<void> {
  if (!length) return;
  let stats;
  try {
    stats = await fsp.statfs(folder);
  } catch {
    stats = await fsp.statfs(fallback);
  }
  if (stats.bavail * stats.bsize < length) throw insufficientStorage();
}

/** Folders that `ensureParent` is about to create for `virtual`, outermost first. */
async function missingParents(scope: Scope, virtual: string): Promise<Array<{ real: string; virtual: string }>> {
  const missing: Array<{ real: string; virtual: string }> = [];
  for (let folder = parentOf(virtual); folder !== '/'; folder = parentOf(folder)) {
    const resolved = await scope.resolveClean(folder, false, 'delete');
    if (resolved.stat) break;
    missing.unshift({ real: resolved.real, virtual: resolved.virtual });
  }
  return missing;
}

/**
 * Creates the missing parent folders of a write target and announces each one, so derived
 * state (the search index) learns about folders made implicitly.
 */
export async function makeParents(deps: FilesDeps, actor: Actor, target: ResolvedPath): Promise<void> {
  const missing = await missingParents(actor.scope, target.virtual);
  await actor.scope.ensureParent(target, deps.config.dirMode);
  for (const folder of missing) await deps.fileEvents.emit({ kind: 'created', user: actor.user, real: folder.real, virtual: folder.virtual, isDir: true });
}

/**
 * POST: a path ending in `/` makes the folder (mkdir -p, success even when it exists); anything
 * else creates a file from the raw body. An existing file needs `override` and `modify`. Both run
 * inside the `upload` hooks.
 */
export async function createResource(deps: FilesDeps, actor: Actor, virtualPath: string, options: { override: boolean; body: WriteBody }): Promise<WriteResult> {
  const { user, scope } = actor;
  if (!user.perm.create) throw forbidden();
  const resolved = await scope.resolve(virtualPath, 'write');
  if (resolved.virtual === '/') throw forbidden();
  const hookContext = { user, file: resolved.real };

  if (resolved.trailingSlash) {
    if (resolved.stat && !resolved.stat.isDirectory()) throw conflict();
    await deps.hooks.around('upload', hookContext, async () => {
      await makeParents(deps, actor, resolved);
      let created = true;
      try {
        await fsp.mkdir(resolved.real, { mode: deps.config.dirMode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const stat = await fsp.lstat(resolved.real);
        if (!stat.isDirectory()) throw conflict();
        created = false;
      }
      if (created) await deps.fileEvents.emit({ kind: 'created', user, real: resolved.real, virtual: resolved.virtual, isDir: true });
    });
    return {};
  }

  const existing = resolved.stat;
  if (existing) {
    if (!options.override) throw conflict();
    if (!user.perm.modify) throw forbidden();
    if (existing.isDirectory()) throw conflict();
  }
  await ensureSpace(path.dirname(resolved.real), scope.root, options.body.length);
  const stat = await deps.hooks.around('upload', hookContext, async () => {
    await makeParents(deps, actor, resolved);
    const written = await writeAtomically(resolved.real, options.body.stream, {
      fileMode: deps.config.fileMode,
      keepMode: existing?.isFile() ? existing.mode & 0o777 : undefined,
      expectedBytes: options.body.length,
      stagingDir: privateStagingDir(deps.config.cacheDir),
    });
    await deps.fileEvents.emit(
      existing ? { kind: 'modified', user, real: resolved.real, virtual: resolved.virtual } : { kind: 'created', user, real: resolved.real, virtual: resolved.virtual, isDir: false },
    );
    return written;
  });
  return { etag: etagOf(stat) };
}

/**
 * Makes exactly one folder, as WebDAV's MKCOL asks: its parent must already exist (409) and the
 * name must be free (405, whatever holds it). Needs `create`; runs inside the `upload` hooks
 * like the folders POST makes.
 */
export async function createFolder(deps: FilesDeps, actor: Actor, virtualPath: string): Promise<void> {
  const { user, scope } = actor;
  if (!user.perm.create) throw forbidden();
  const resolved = await scope.resolve(virtualPath, 'write');
  if (resolved.virtual === '/' || resolved.stat) throw methodNotAllowed();
  const parent = await scope.resolveClean(parentOf(resolved.virtual), false, 'read').catch((error: unknown) => {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  });
  if (!parent?.stat?.isDirectory()) throw conflict();
  await deps.hooks.around('upload', { user, file: resolved.real }, async () => {
    try {
      await fsp.mkdir(resolved.real, { mode: deps.config.dirMode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw methodNotAllowed();
      if (code === 'ENOENT' || code === 'ENOTDIR') throw conflict();
      throw error;
    }
    await deps.fileEvents.emit({ kind: 'created', user, real: resolved.real, virtual: resolved.virtual, isDir: true });
  });
}

/** PUT: replaces an existing file's content atomically, inside the `save` hooks. */
export async function saveResource(deps: FilesDeps, actor: Actor, virtualPath: string, body: WriteBody): Promise<WriteResult> {
  const { user, scope } = actor;
  if (!user.perm.modify) throw forbidden();
  const resolved = await scope.resolve(virtualPath, 'write');
  if (resolved.trailingSlash) throw methodNotAllowed();
  const existing = resolved.stat;
  if (!existing) throw notFound();
  if (existing.isDirectory()) throw methodNotAllowed();
  if (!existing.isFile()) throw forbidden();
  await ensureSpace(path.dirname(resolved.real), scope.root, body.length);
  const stat = await deps.hooks.around('save', { user, file: resolved.real }, async () => {
    const written = await writeAtomically(resolved.real, body.stream, {
      fileMode: deps.config.fileMode,
      keepMode: existing.mode & 0o777,
      expectedBytes: body.length,
      stagingDir: privateStagingDir(deps.config.cacheDir),
    });
    await deps.fileEvents.emit({ kind: 'modified', user, real: resolved.real, virtual: resolved.virtual });
    return written;
  });
  return { etag: etagOf(stat) };
}
