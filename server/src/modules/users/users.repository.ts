import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { UsersTable } from '../../storage/schema.js';
import type { NewUserRecord, UserRecord } from './users.model.js';

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: Number(row.id),
    username: row.username,
    passwordHash: row.password_hash,
    scope: row.scope,
    locale: row.locale,
    viewMode: row.view_mode,
    singleClick: Boolean(row.single_click),
    redirectAfterCopyMove: Boolean(row.redirect_after_copy_move),
    hideDotfiles: Boolean(row.hide_dotfiles),
    dateFormat: Boolean(row.date_format),
    aceEditorTheme: row.ace_editor_theme,
    sorting: { by: row.sorting_by, asc: Boolean(row.sorting_asc) },
    lockPassword: Boolean(row.lock_password),
    perm: JSON.parse(row.perm),
    commands: JSON.parse(row.commands),
    rules: JSON.parse(row.rules),
    tokensValidAfter: Number(row.tokens_valid_after),
    keptTokenJti: row.kept_token_jti ?? null,
    updatedAt: Number(row.updated_at),
    createdAt: Number(row.created_at),
  };
}

function toRow(user: NewUserRecord) {
  return {
    username: user.username,
    password_hash: user.passwordHash,
    scope: user.scope,
    locale: user.locale,
    view_mode: user.viewMode,
    single_click: user.singleClick ? 1 : 0,
    redirect_after_copy_move: user.redirectAfterCopyMove ? 1 : 0,
    hide_dotfiles: user.hideDotfiles ? 1 : 0,
    date_format: user.dateFormat ? 1 : 0,
    ace_editor_theme: user.aceEditorTheme,
    sorting_by: user.sorting.by,
    sorting_asc: user.sorting.asc ? 1 : 0,
    lock_password: user.lockPassword ? 1 : 0,
    perm: JSON.stringify(user.perm),
    commands: JSON.stringify(user.commands),
    rules: JSON.stringify(user.rules),
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export function createUsersRepository(db: Db) {
  return {
    async list(): Promise<UserRecord[]> {
      const rows = await db.selectFrom('users').selectAll().orderBy('id').execute();
      return rows.map(toRecord);
    },
    async findById(id: number): Promise<UserRecord | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async findByUsername(username: string): Promise<UserRecord | undefined> {
      const row = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    /** The id of every user. */
    async ids(): Promise<number[]> {
      return (await db.selectFrom('users').select('id').execute()).map((row) => Number(row.id));
    },
    async count(): Promise<number> {
      const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async countAdmins(): Promise<number> {
      const rows = await db.selectFrom('users').select('perm').execute();
      return rows.filter((row) => JSON.parse(row.perm).admin === true).length;
    },
    async insert(user: NewUserRecord, id?: number): Promise<UserRecord> {
      const now = Date.now();
      const values = { ...toRow(user), tokens_valid_after: 0, kept_token_jti: null, updated_at: now, created_at: now, ...(id !== undefined ? { id } : {}) };
      const result = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
      return (await this.findById(Number(result.id)))!;
    },
    /**
     * `revokeTokens` revokes every token issued until now, except the one whose id is `keepToken`
     * (the session changing its own password).
     */
    async update(id: number, user: NewUserRecord, options: { revokeTokens?: boolean; keepToken?: string } = {}): Promise<void> {
      const now = Date.now();
      const revocation = options.revokeTokens ? { tokens_valid_after: now, kept_token_jti: options.keepToken ?? null } : {};
      await db
        .updateTable('users')
        .set({ ...toRow(user), updated_at: now, ...revocation })
        .where('id', '=', id)
        .execute();
    },
    async remove(id: number): Promise<void> {
      await db.deleteFrom('users').where('id', '=', id).execute();
    },
  };
}
