import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TrashItem } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../storage/db.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ResolvedPath } from '../../storage/scoped-fs.js';
import type { UserRecord } from '../users/users.model.js';
import { entrySize, moveAcross, placeInTrash, removeStored } from './trash-bin.js';
import { createTrashRepository, type TrashRecord } from './trash.repository.js';
import { createUsersRepository } from '../users/users.repository.js';

export type TrashDeps = { config: Config; db: Db; scopes: Scopes; settings: SettingsService };

const DayMs = 24 * 3600 * 1000;

/** The extension as listings show it: `.gz` of `a.tar.gz`, nothing for folders and dotfiles. */
function extensionOf(name: string, isDir: boolean): string {
  if (isDir) return '';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

export function presentTrashItem(record: TrashRecord): TrashItem {
  return {
    id: record.id,
    name: record.name,
    path: record.path,
    isDir: record.isDir,
    size: record.size,
    deleted: new Date(record.deletedAt).toISOString(),
    deletedBy: record.deletedBy,
    extension: extensionOf(record.name, record.isDir),
  };
}

/**
 * Takes a row out of the database before its item is touched, so two requests (a restore and a
 * sweep, two purges) never both act on one item: only the one that removed the row goes on.
 */
export async function claim(deps: Pick<TrashDeps, 'db'>, id: string): Promise<boolean> {
  return createTrashRepository(deps.db).claim(id);
}

/** Removes a kept item and its row for good. */
export async function drop(deps: Pick<TrashDeps, 'db'>, record: TrashRecord): Promise<void> {
  if (await claim(deps, record.id)) await removeStored(record.storedPath);
}

/** Over the size limit, a user's oldest items go first until the rest fit. */
async function enforceSizeLimit(deps: TrashDeps, userId: number): Promise<void> {
  const { maxSize } = deps.settings.get().trash;
  if (maxSize <= 0) return;
  const repository = createTrashRepository(deps.db);
  let { size } = await repository.totals(userId);
  if (size <= maxSize) return;
  for (const record of await repository.oldestFirst(userId)) {
    if (size <= maxSize) break;
    await drop(deps, record);
    size -= record.size;
  }
}

/**
 * The delete use-case's step: moves an entry the gate has resolved (for `delete`) into its
 * owner's trash and records it. False when the trash is off or no place outside every scope can
 * hold it; the caller then removes the entry as before.
 */
export async function moveToTrash(deps: TrashDeps, user: UserRecord, resolved: ResolvedPath, isDir: boolean): Promise<boolean> {
  if (!deps.settings.get().trash.enabled) return false;
  const id = crypto.randomBytes(16).toString('hex');
  const places = { cacheTrash: path.join(await fsp.realpath(deps.config.cacheDir), 'trash'), serverRoot: await deps.scopes.serverRoot(), dirMode: deps.config.dirMode };
  const stored = await placeInTrash(places, user.id, resolved.real, id);
  if (stored === undefined) return false;
  const record: TrashRecord = {
    id,
    userId: user.id,
    name: path.basename(resolved.real),
    path: resolved.virtual,
    realPath: resolved.real,
    storedPath: stored,
    isDir,
    size: await entrySize(stored),
    deletedAt: Date.now(),
    deletedBy: user.username,
  };
  try {
    await createTrashRepository(deps.db).insert(record);
  } catch (error) {
    // Unrecorded, the item could never be found again: it goes back where it was.
    await moveAcross(stored, resolved.real).catch(() => undefined);
    throw error;
  }
  await enforceSizeLimit(deps, user.id);
  return true;
}

/**
 * The periodic sweep: items past the retention time, items of users who no longer exist, kept
 * items that vanished from disk, and, over the size limit, each user's oldest items.
 */
export async function sweepTrash(deps: TrashDeps, now = Date.now()): Promise<void> {
  const repository = createTrashRepository(deps.db);
  const { retentionDays } = deps.settings.get().trash;
  if (retentionDays > 0) {
    for (const record of await repository.deletedBefore(now - retentionDays * DayMs)) await drop(deps, record);
  }
  const users = new Set(await createUsersRepository(deps.db).ids());
  for (const record of await repository.all()) {
    if (!users.has(record.userId)) {
      await drop(deps, record);
      continue;
    }
    const exists = await fsp.lstat(record.storedPath).then(
      () => true,
      () => false,
    );
    if (!exists) await claim(deps, record.id);
  }
  for (const userId of await repository.userIds()) await enforceSizeLimit(deps, userId);
}

