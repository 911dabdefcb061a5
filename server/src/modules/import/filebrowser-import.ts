import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { Settings } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import { cleanVirtualPath } from '../../storage/virtual-path.js';
import { normaliseUpdate } from '../settings/settings.service.js';
import type { ImportPlan } from './filebrowser-mapping.js';
import { syncGeneratedIds } from '../../storage/engine.js';

export type ImportOptions = {
  /** Update users and links that already exist instead of refusing them. */
  merge: boolean;
  /** Write nothing: everything runs in a transaction that is rolled back. */
  dryRun: boolean;
  /** Burrow's root folder, to tell shared folders from shared files. */
  root?: string;
  now?: number;
};

export type ImportReport = {
  users: Array<{ username: string; id: number; action: 'create' | 'update'; admin: boolean; previousId?: number }>;
  shares: Array<{ hash: string; path: string; owner: string; action: 'create' | 'update'; protected: boolean; expire: number }>;
  settings: boolean;
  /** Notes that only the target database could tell (paths, ids). */
  notes: string[];
};

export class ImportConflictError extends Error {
  constructor(readonly conflicts: string[]) {
    super(`already in the Burrow database: ${conflicts.join('; ')}. Nothing was imported; run again with --merge to update them from filebrowser`);
    this.name = 'ImportConflictError';
  }
}

class DryRunRollback extends Error {}

/**
 * The link path as Burrow stores it: canonical, and ending with `/` exactly when it names a
 * folder. filebrowser keeps whatever URL the link was made from, so the folder is looked up on
 * disk when the root is known; otherwise the path keeps its own trailing slash.
 */
function sharePath(root: string | undefined, scope: string, linkPath: string, notes: string[], hash: string): string {
  const clean = cleanVirtualPath(linkPath);
  const given = clean.path === '/' || clean.trailingSlash;
  if (!root) return clean.path === '/' ? '/' : clean.path + (given ? '/' : '');
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(path.join(root, scope, clean.path));
  } catch {
    stat = undefined;
  }
  if (!stat) {
    notes.push(`share link ${JSON.stringify(hash)}: ${clean.path} is not under ${path.join(root, scope)}; kept as ${given ? 'a folder' : 'a file'} link`);
    return clean.path === '/' ? '/' : clean.path + (given ? '/' : '');
  }
  return clean.path === '/' ? '/' : clean.path + (stat.isDirectory() ? '/' : '');
}

/**
 * Writes the plan into Burrow's database in one transaction: all of it or none of it.
 *
 * Users keep their filebrowser id unless another Burrow user holds it (then they get a new one
 * and their links follow). Without `merge`, a username or link hash already present stops the
 * import; with it, such users are updated in place (password hash, scope, permissions and
 * preferences from filebrowser; the Burrow id stays) and such links replaced.
 */
export async function applyImport(db: Db, plan: ImportPlan, options: ImportOptions): Promise<ImportReport> {
  if (plan.problems.length) throw new Error(`cannot import:\n  - ${plan.problems.join('\n  - ')}`);
  const now = options.now ?? Date.now();
  const report: ImportReport = { users: [], shares: [], settings: false, notes: [] };
  if (plan.settings) {
    const settings = normaliseUpdate(plan.settings, plan.settings);
    if (!Value.Check(Settings, settings)) throw new Error('the imported settings do not form valid Burrow settings');
  }
  try {
    await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('users').select(['id', 'username', 'password_hash']).execute();
      const byName = new Map(existing.map((row) => [row.username, row]));
      const takenIds = new Set(existing.map((row) => Number(row.id)));
      const shareHashes = new Set((await trx.selectFrom('shares').select('hash').execute()).map((row) => row.hash));

      const conflicts = [
        ...plan.users.filter((user) => byName.has(user.record.username)).map((user) => `user ${JSON.stringify(user.record.username)}`),
        ...plan.shares.filter((share) => shareHashes.has(share.hash)).map((share) => `share link ${JSON.stringify(share.hash)}`),
      ];
      if (conflicts.length && !options.merge) throw new ImportConflictError(conflicts);

      const row = (record: ImportPlan['users'][number]['record']) => ({
        username: record.username,
        password_hash: record.passwordHash,
        scope: record.scope,
        locale: record.locale,
        view_mode: record.viewMode,
        single_click: record.singleClick ? 1 : 0,
        redirect_after_copy_move: record.redirectAfterCopyMove ? 1 : 0,
        hide_dotfiles: record.hideDotfiles ? 1 : 0,
        date_format: record.dateFormat ? 1 : 0,
        ace_editor_theme: record.aceEditorTheme,
        sorting_by: record.sorting.by,
        sorting_asc: record.sorting.asc ? 1 : 0,
        lock_password: record.lockPassword ? 1 : 0,
        perm: JSON.stringify(record.perm),
        commands: JSON.stringify(record.commands),
        rules: JSON.stringify(record.rules),
        updated_at: now,
      });

      const idMap = new Map<number, number>();
      const scopes = new Map<number, string>();
      const names = new Map<number, string>();
      // Updates first, then users whose id is free, then the rest: a new id never takes one
      // that a later user of the import still needs.
      const renumbered: typeof plan.users = [];
      for (const user of plan.users) {
        const current = byName.get(user.record.username);
        if (current) {
          const id = Number(current.id);
          const passwordChanged = current.password_hash !== user.record.passwordHash;
          await trx
            .updateTable('users')
            // A new password ends every session, none kept: the change did not come from one of them.
            .set({ ...row(user.record), ...(passwordChanged ? { tokens_valid_after: now, kept_token_jti: null } : {}) })
            .where('id', '=', id)
            .execute();
          idMap.set(user.id, id);
          report.users.push({ username: user.record.username, id, action: 'update', admin: user.record.perm.admin, ...(id !== user.id ? { previousId: user.id } : {}) });
        }
      }
      for (const user of plan.users) {
        if (idMap.has(user.id) && byName.has(user.record.username)) continue;
        if (takenIds.has(user.id)) {
          renumbered.push(user);
          continue;
        }
        await trx.insertInto('users').values({ ...row(user.record), id: user.id, tokens_valid_after: 0, created_at: now }).execute();
        takenIds.add(user.id);
        idMap.set(user.id, user.id);
        report.users.push({ username: user.record.username, id: user.id, action: 'create', admin: user.record.perm.admin });
      }
      await syncGeneratedIds(trx, 'users');
      for (const user of renumbered) {
        const inserted = await trx
          .insertInto('users')
          .values({ ...row(user.record), tokens_valid_after: 0, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(inserted.id);
        idMap.set(user.id, id);
        report.users.push({ username: user.record.username, id, action: 'create', admin: user.record.perm.admin, previousId: user.id });
        report.notes.push(`user ${JSON.stringify(user.record.username)}: id ${user.id} is taken in Burrow; the user gets id ${id} and keeps their links`);
      }
      for (const user of plan.users) {
        scopes.set(user.id, user.record.scope);
        names.set(user.id, user.record.username);
      }

      for (const share of plan.shares) {
        const userId = idMap.get(share.userId)!;
        const values = {
          hash: share.hash,
          path: sharePath(options.root, scopes.get(share.userId)!, share.path, report.notes, share.hash),
          user_id: userId,
          expire: share.expire,
          password_hash: share.passwordHash,
          token: share.passwordHash ? share.token : '',
          created_at: now,
        };
        const exists = shareHashes.has(share.hash);
        if (exists) await trx.updateTable('shares').set(values).where('hash', '=', share.hash).execute();
        else await trx.insertInto('shares').values(values).execute();
        report.shares.push({
          hash: share.hash,
          path: values.path,
          owner: names.get(share.userId)!,
          action: exists ? 'update' : 'create',
          protected: share.passwordHash !== '',
          expire: share.expire,
        });
      }

      if (plan.settings) {
        const value = JSON.stringify(normaliseUpdate(plan.settings, plan.settings));
        await trx
          .insertInto('settings')
          .values({ key: 'settings', value })
          .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
          .execute();
        report.settings = true;
      }

      const admins = await trx.selectFrom('users').select('perm').execute();
      if (!admins.some((user) => JSON.parse(user.perm).admin === true)) {
        report.notes.push('no user is an admin after the import; make one with `burrow users update NAME --admin true`');
      }
      if (options.dryRun) throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return report;
}
