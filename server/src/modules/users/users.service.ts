import { AdminOnlyFields, SensitiveFields, type User, type UserWriteRequest } from '@burrow/protocol';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { Scopes } from '../../storage/scopes.js';
import { RESYNC, type Cluster } from '../../storage/cluster.js';
import { hashPassword, validateNewPassword, verifyPassword as realVerifyPassword } from '../auth/passwords.js';
import { createPasswordGuard, LoginPolicy, loginAccount, type PasswordGuard } from '../auth/password-guard.js';
import type { UsersRepository } from './users.repository.js';
import { allPermissions, type NewUserRecord, type UserRecord } from './users.model.js';
import { toUserView } from './users.presenter.js';
import { applyField, canonicalField, checkField, isWritableField, type WritableField } from './user-fields.js';
import { createMutex, homeScope, normaliseScope } from './homes.js';

export type UsersService = ReturnType<typeof createUsersService>;

/** The cluster topic under which a changed user's id is told to the other instances. */
const USERS_CHANGED_TOPIC = 'users.changed';

type Requester = UserRecord;
/**
 * `trusted` callers (the CLI on the server's own machine) skip the current-password check;
 * `client` is the address the request came from, for the limits on password guesses.
 */
type TrustOptions = { trusted?: boolean; client?: string };

/**
 * Fields whose change needs the requester's current password under json auth. Beyond the
 * upstream list, lockPassword and rules count too: both decide what an account may do.
 */
const SENSITIVE_FIELDS = new Set<string>([...SensitiveFields, 'lockPassword', 'rules']);

/** Admins always hold every permission; share requires download. */
function enforcePermissionInvariants(record: NewUserRecord): void {
  if (record.perm.admin) {
    record.perm = allPermissions();
    record.lockPassword = false;
  }
  if (record.perm.share && !record.perm.download) throw badRequest('permission to share requires permission to download');
}

function stripRecord(user: UserRecord): NewUserRecord {
  const { id: _id, tokensValidAfter: _t, updatedAt: _u, createdAt: _c, ...rest } = user;
  return structuredClone(rest);
}

export function createUsersService(deps: {
  users: UsersRepository;
  settings: SettingsService;
  scopes: Scopes;
  onUserDeleted?: (user: UserRecord) => Promise<void>;
  /** Instances sharing the database: each change of a user is told to the others. */
  cluster?: Pick<Cluster, 'publish' | 'on'>;
  /** Limits on password guesses; the login's guard, so both count against the same budget. */
  guard?: PasswordGuard;
  verifyPassword?: typeof realVerifyPassword;
}) {
  const { users, settings, scopes } = deps;
  const verifyPassword = deps.verifyPassword ?? realVerifyPassword;
  const guard = deps.guard ?? createPasswordGuard(LoginPolicy);
  const runExclusive = createMutex();
  const deletedListeners: Array<(user: UserRecord) => Promise<void>> = deps.onUserDeleted ? [deps.onUserDeleted] : [];
  const changedListeners: Array<(userId: number | undefined) => void> = [];

  function notifyChanged(userId: number | undefined): void {
    for (const listener of changedListeners) {
      try {
        listener(userId);
      } catch {
        // A listener only drops what it remembered; one failing must not stop the others.
      }
    }
  }
  // What other instances change reaches this one's listeners too (all users after a gap).
  deps.cluster?.on(USERS_CHANGED_TOPIC, (payload) => notifyChanged(payload === RESYNC || !/^\d+$/.test(payload) ? undefined : Number(payload)));

  /** Tells this instance's listeners, then the other instances, that a user changed. */
  async function changed(userId: number): Promise<void> {
    notifyChanged(userId);
    await deps.cluster?.publish(USERS_CHANGED_TOPIC, String(userId)).catch(() => undefined);
  }

  /** Checks the requester's password like a login: the same guessing limits apply (429). */
  async function requireCurrentPassword(requester: Requester, currentPassword: string | undefined, options: TrustOptions): Promise<void> {
    if (settings.get().authMethod !== 'json') return;
    const incorrect = () => badRequest('the current password is incorrect');
    if (!currentPassword) throw incorrect();
    const source = { account: loginAccount(requester.username), client: options.client ?? 'unknown' };
    if (!(await guard.verify(source, () => verifyPassword(currentPassword, requester.passwordHash)))) throw incorrect();
  }

  /** Refuses a scope already owned by another user (case-insensitive). */
  async function assertHomeFree(scope: string, exceptId?: number): Promise<void> {
    const lower = scope.toLowerCase();
    for (const user of await users.list()) {
      if (user.id !== exceptId && user.scope.toLowerCase() === lower) throw conflict('home folder already taken');
    }
  }

  async function assertUsernameFree(username: string, exceptId?: number): Promise<void> {
    const lower = username.toLowerCase();
    for (const user of await users.list()) {
      if (user.id !== exceptId && user.username.toLowerCase() === lower) throw conflict('username already taken');
    }
  }

  function templateFromDefaults(username: string): NewUserRecord {
    const defaults = settings.get().defaults;
    return {
      username,
      passwordHash: '',
      scope: defaults.scope,
      locale: defaults.locale || 'en',
      viewMode: defaults.viewMode || 'mosaic',
      singleClick: defaults.singleClick,
      redirectAfterCopyMove: defaults.redirectAfterCopyMove,
      hideDotfiles: defaults.hideDotfiles,
      dateFormat: defaults.dateFormat,
      aceEditorTheme: defaults.aceEditorTheme,
      sorting: { by: defaults.sorting.by || 'name', asc: defaults.sorting.asc },
      lockPassword: false,
      perm: { ...defaults.perm },
      commands: [...defaults.commands],
      rules: [],
    };
  }

  return {
    onUserDeleted(listener: (user: UserRecord) => Promise<void>) {
      deletedListeners.push(listener);
    },

    /**
     * Calls `listener` whenever a user is updated or deleted, through this instance or another
     * one sharing the database (with `undefined`, meaning any user, when messages may have been
     * missed). Whoever remembers something about a user's credentials or rights drops it then.
     */
    onUserChanged(listener: (userId: number | undefined) => void) {
      changedListeners.push(listener);
    },

    async list(requester: Requester): Promise<User[]> {
      if (!requester.perm.admin) throw forbidden();
      return (await users.list()).map((user) => toUserView(user, { viewerIsAdmin: true }));
    },

    async get(requester: Requester, id: number): Promise<User> {
      if (!requester.perm.admin && requester.id !== id) throw forbidden();
      const user = await users.findById(id);
      if (!user) throw notFound();
      return toUserView(user, { viewerIsAdmin: requester.perm.admin });
    },

    /** POST /api/users (admin). Returns the new id. */
    async create(requester: Requester, request: UserWriteRequest, options: TrustOptions = {}): Promise<number> {
      if (!requester.perm.admin) throw forbidden();
      if (request.what !== 'user') throw badRequest('invalid request params');
      if (request.which.length > 0) throw badRequest('invalid request params');
      if (!options.trusted) await requireCurrentPassword(requester, request.current_password, options);
      const data = request.data ?? {};
      const record = templateFromDefaults('');
      for (const [name, value] of Object.entries(data)) {
        if (name === 'id' || value === undefined) continue;
        if (!isWritableField(name)) continue;
        checkField(name, value);
        if (name !== 'password') applyField(record, name, value);
      }
      if (!record.username) throw badRequest('username is empty');
      const password = validateNewPassword(data.password as string | undefined, settings.get().minimumPasswordLength);
      record.passwordHash = await hashPassword(password);
      enforcePermissionInvariants(record);
      // A scope left out or blank means "derive a home" when createUserDir is on; otherwise the
      // defaults' scope applies (the template already holds it).
      const scopeGiven = typeof data.scope === 'string' && data.scope.trim() !== '';
      return runExclusive(async () => {
        await assertUsernameFree(record.username);
        if (!scopeGiven && settings.get().createUserDir) {
          record.scope = homeScope(settings.get().userHomeBasePath, record.username);
          await assertHomeFree(record.scope);
        } else if (!scopeGiven) {
          record.scope = settings.get().defaults.scope;
        }
        record.scope = normaliseScope(record.scope);
        await scopes.scopeRoot(record.scope);
        const created = await users.insert(record);
        return created.id;
      });
    },

    /**
     * PUT /api/users/{id}. Returns the updated record and whether tokens were revoked.
     * `keepToken` is the id of the requester's token: a user changing their own password keeps
     * that session, while every other token of theirs is revoked.
     */
    async update(
      requester: Requester,
      id: number,
      request: UserWriteRequest,
      options: TrustOptions & { keepToken?: string } = {},
    ): Promise<{ user: UserRecord; passwordChanged: boolean }> {
      if (request.what !== 'user') throw badRequest('invalid request params');
      const data = request.data ?? {};
      if (data.id !== undefined && data.id !== id) throw badRequest('invalid request params');
      if (!requester.perm.admin && requester.id !== id) throw forbidden();
      const existing = await users.findById(id);
      if (!existing) throw notFound();
      const which = request.which.map((name) => name.trim()).filter(Boolean);
      const replaceAll = which.length === 0 || which.some((name) => name.toLowerCase() === 'all');
      // Field names are matched case-insensitively; unknown ones are refused before anything else.
      const named = replaceAll ? [] : which.map((name) => canonicalField(name) ?? name);
      if (!replaceAll) {
        const unknown = named.find((name) => !isWritableField(name));
        if (unknown !== undefined) throw badRequest(`unknown field ${unknown}`);
      }
      // Privilege checks come before the password check: a request that can never succeed is
      // refused as forbidden whatever password accompanies it.
      if (!requester.perm.admin) {
        if (replaceAll || named.some((name) => (AdminOnlyFields as readonly string[]).includes(name))) throw forbidden();
        if (named.includes('password') && existing.lockPassword) throw forbidden();
      }
      if (!options.trusted && (replaceAll || named.some((name) => SENSITIVE_FIELDS.has(name)))) {
        await requireCurrentPassword(requester, request.current_password, options);
      }
      const record = stripRecord(existing);
      let newPassword: string | undefined;
      const fields = replaceAll ? Object.keys(data).filter((name) => name !== 'id') : (named as WritableField[]);
      for (const name of fields) {
        if (!isWritableField(name)) continue;
        const value = (data as Record<string, unknown>)[name];
        if (value === undefined) {
          if (replaceAll) continue;
          throw badRequest(`missing field ${name}`);
        }
        checkField(name, value);
        if (name === 'password') {
          if (!value) {
            if (replaceAll) continue;
            throw badRequest('password is empty');
          }
          newPassword = validateNewPassword(value as string, settings.get().minimumPasswordLength);
          continue;
        }
        applyField(record, name, value);
      }
      record.scope = normaliseScope(record.scope);
      enforcePermissionInvariants(record);
      if (existing.perm.admin && !record.perm.admin && (await users.countAdmins()) <= 1) {
        throw forbidden('the sole admin cannot lose admin rights');
      }
      if (newPassword) record.passwordHash = await hashPassword(newPassword);
      await runExclusive(async () => {
        if (record.username !== existing.username) await assertUsernameFree(record.username, id);
        if (record.scope !== existing.scope) await scopes.scopeRoot(record.scope);
        // Only a password change revokes tokens: the scope, rules and permissions are read from
        // the stored record on every request, so older tokens merely get asked to renew.
        await users.update(id, record, { revokeTokens: Boolean(newPassword), keepToken: requester.id === id ? options.keepToken : undefined });
      });
      await changed(id);
      return { user: (await users.findById(id))!, passwordChanged: Boolean(newPassword) };
    },

    /** DELETE /api/users/{id}. */
    async remove(requester: Requester, id: number, currentPassword: string | undefined, options: TrustOptions = {}): Promise<void> {
      if (!requester.perm.admin && requester.id !== id) throw forbidden();
      if (!options.trusted) await requireCurrentPassword(requester, currentPassword, options);
      const existing = await users.findById(id);
      if (!existing) throw notFound();
      if (existing.perm.admin && (await users.countAdmins()) <= 1) throw forbidden('the sole admin cannot be deleted');
      await users.remove(id);
      await changed(id);
      for (const listener of deletedListeners) await listener(existing);
    },

    /**
     * Creates a user for signup or proxy authentication: defaults without admin or execute and
     * without commands, a home folder when createUserDir is on, all under one lock.
     */
    async provision(username: string, password: string | undefined, options: { lockPassword: boolean }): Promise<UserRecord> {
      checkField('username', username);
      const record = templateFromDefaults(username.trim());
      record.perm = { ...record.perm, admin: false, execute: false };
      record.commands = [];
      record.lockPassword = options.lockPassword;
      enforcePermissionInvariants(record);
      record.passwordHash = await hashPassword(password ?? crypto.randomUUID() + crypto.randomUUID());
      return runExclusive(async () => {
        await assertUsernameFree(record.username);
        if (settings.get().createUserDir) {
          record.scope = homeScope(settings.get().userHomeBasePath, record.username);
          await assertHomeFree(record.scope);
        }
        record.scope = normaliseScope(record.scope);
        await scopes.scopeRoot(record.scope);
        return users.insert(record);
      });
    },
  };
}
