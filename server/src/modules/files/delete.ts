import fsp from 'node:fs/promises';
import { forbidden, notFound } from '../../errors.js';
import { cleanVirtualPath } from '../../storage/virtual-path.js';
import type { Actor, FilesDeps } from './files.deps.js';
import { assertDescendantsAllowed } from './descendants.js';
import { moveToTrash } from '../trash/trash-entry.js';

/**
 * DELETE: refuses the root and users without `delete`, and (with rules) any folder holding a
 * denied entry; then, inside the `delete` hooks, moves it to the requester's trash (or, with the
 * trash off, removes it recursively). The share lifecycle drops the links to it on the event.
 * Every way of deleting (the API, WebDAV, overwrites that replace an item) comes through here.
 * Listeners see a delete either way: the item left every scope. A link is unlinked, never
 * followed: the gate resolves the entry itself for deletes, and the removal does not descend
 * into links.
 */
export async function removeResource(deps: FilesDeps, actor: Actor, virtualPath: string): Promise<void> {
  const { user, scope } = actor;
  if (cleanVirtualPath(virtualPath).path === '/' || !user.perm.delete) throw forbidden();
  const resolved = await scope.resolve(virtualPath, 'delete');
  if (resolved.virtual === '/') throw forbidden();
  const stat = resolved.stat;
  if (!stat) throw notFound();
  const isDir = stat.isDirectory();
  if (isDir) await assertDescendantsAllowed(scope, resolved.real, resolved.virtual);
  await deps.hooks.around('delete', { user, file: resolved.real }, async () => {
    if (!(await moveToTrash(deps, user, resolved, isDir))) await fsp.rm(resolved.real, { recursive: isDir, force: false });
    await deps.fileEvents.emit({ kind: 'deleted', user, real: resolved.real, virtual: resolved.virtual, isDir });
  });
}
