import fsp from 'node:fs/promises';
import type { RestoreRequest, TrashList, TrashSortField } from '@burrow/protocol';
import type { ResolvedPath } from '../../storage/scoped-fs.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { joinVirtual } from '../../storage/virtual-path.js';
import type { UserRecord } from '../users/users.model.js';
import type { Actor, FilesDeps } from '../files/files.deps.js';
import { assertDescendantsAllowed } from '../files/descendants.js';
import { freeName } from '../files/copy-move.js';
import { removeResource } from '../files/delete.js';
import { makeParents } from '../files/write.js';
import { moveAcross, removeStored } from './trash-bin.js';
import { claim, drop, presentTrashItem, type TrashDeps } from './trash-entry.js';
import { createTrashRepository, type TrashRecord } from './trash.repository.js';

export type TrashListOptions = { sort: TrashSortField; asc: boolean; offset: number; limit?: number };

export type TrashService = ReturnType<typeof createTrashService>;

/** The trash screen's use-cases; each acts on the caller's own trash only, admins included. */
export function createTrashService(deps: FilesDeps & TrashDeps) {
  const repository = createTrashRepository(deps.db);

  async function owned(user: UserRecord, id: string): Promise<TrashRecord> {
    const record = await repository.find(user.id, id);
    if (!record) throw notFound();
    return record;
  }

  /** Where a restore lands: the chosen folder, or the original place when the scope still holds it. */
  async function targetOf(actor: Actor, record: TrashRecord, destination: string | undefined): Promise<ResolvedPath> {
    const { scope } = actor;
    let virtual: string;
    if (destination !== undefined) {
      const folder = await scope.resolve(destination, 'read');
      if (!folder.stat) throw notFound();
      if (!folder.stat.isDirectory()) throw badRequest('destination is not a folder');
      virtual = joinVirtual(folder.virtual, record.name);
    } else {
      // The scope may have changed since: the real path decides where "back" is.
      const original = scope.toVirtual(record.realPath);
      if (original === undefined || original === '/') throw badRequest('the original place is outside your scope; choose a destination');
      virtual = original;
    }
    return scope.resolve(virtual, 'write');
  }

  return {
    async list(user: UserRecord, options: TrashListOptions): Promise<TrashList> {
      const [records, totals] = await Promise.all([repository.page(user.id, options), repository.totals(user.id)]);
      return { items: records.map(presentTrashItem), total: totals.count, totalSize: totals.size };
    },

    /**
     * Puts an item back, through the same gate as a move into the destination: `create`, the
     * rules on the place and on everything inside a folder, a taken name answered with 409
     * unless `rename` (a free `name(N).ext`) or `override` (needs `modify`; what was there goes
     * to the trash through the delete use-case, so it needs `delete` too).
     */
    async restore(user: UserRecord, id: string, request: RestoreRequest): Promise<string> {
      if (!user.perm.create) throw forbidden();
      const actor: Actor = { user, scope: await deps.scopes.forUser(user) };
      const record = await owned(user, id);
      let target = await targetOf(actor, record, request.destination);
      if (target.virtual === '/') throw forbidden();
      if (target.stat) {
        if (!request.override && !request.rename) throw conflict();
        if (request.rename) target = await freeName(actor.scope, target.virtual);
        else if (!user.perm.modify) throw forbidden();
      }
      if (record.isDir) await assertDescendantsAllowed(actor.scope, record.storedPath, target.virtual);
      if (target.stat && request.override) {
        await removeResource(deps, actor, target.virtual);
        target = await actor.scope.resolve(target.virtual, 'write');
        if (target.stat) throw conflict();
      }

      if (!(await claim(deps, record.id))) throw notFound();
      try {
        await fsp.lstat(record.storedPath);
      } catch {
        throw notFound();
      }
      try {
        await makeParents(deps, actor, target);
        await moveAcross(record.storedPath, target.real);
      } catch (error) {
        await repository.insert(record).catch(() => undefined);
        throw error;
      }
      await deps.fileEvents.emit({ kind: 'created', user, real: target.real, virtual: target.virtual, isDir: record.isDir });
      return target.virtual;
    },

    /** Deletes one item for good (needs `delete`). */
    async purge(user: UserRecord, id: string): Promise<void> {
      if (!user.perm.delete) throw forbidden();
      const record = await owned(user, id);
      if (!(await claim(deps, record.id))) throw notFound();
      await removeStored(record.storedPath);
    },

    /** Deletes everything in the caller's trash for good (needs `delete`). */
    async empty(user: UserRecord): Promise<void> {
      if (!user.perm.delete) throw forbidden();
      for (const record of await repository.oldestFirst(user.id)) await drop(deps, record);
    },
  };
}

/** Checks a trash id before it reaches the database or a path. */
export function assertTrashId(id: string): string {
  if (!/^[0-9a-f]{32}$/.test(id)) throw notFound();
  return id;
}

