import crypto from 'node:crypto';
import { ApiTokenPrefix, type ApiToken, type ApiTokenCreateRequest, type ApiTokenCreated, type Permissions } from '@burrow/protocol';
import type { Db } from '../../storage/db.js';
import { badRequest, notFound, unauthorized } from '../../errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UserRecord } from '../users/users.model.js';
import type { Authenticated } from '../auth/auth.service.js';
import { intersect, requestedPermissions } from './token-permissions.js';
import { createApiTokensRepository, type ApiTokenRow } from './api-tokens.repository.js';

export type ApiTokensService = ReturnType<typeof createApiTokensService>;

/** Last use is written at most this often per token. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Tokens one user may hold. */
const MAX_TOKENS_PER_USER = 100;
/** Where an expiry would otherwise go in a session's shape: the far future. */
const NEVER_SECONDS = 253402300799;

/** A token: the prefix, then 32 random bytes in base64url (256 bits; a fast hash is enough). */
export function isApiToken(value: string | undefined): value is string {
  return typeof value === 'string' && value.startsWith(ApiTokenPrefix) && value.length > ApiTokenPrefix.length;
}

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function toView(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    perm: JSON.parse(row.perm) as Permissions,
    created: new Date(Number(row.created_at)).toISOString(),
    expires: iso(row.expires_at),
    lastUsed: iso(row.last_used_at),
  };
}

export function createApiTokensService(deps: { db: Db; users: UsersRepository; now?: () => number }) {
  const { users } = deps;
  const tokens = createApiTokensRepository(deps.db);
  const now = deps.now ?? Date.now;

  return {
    async list(user: UserRecord): Promise<ApiToken[]> {
      return (await tokens.listByUser(user.id)).map(toView);
    },

    /** A new token; its secret is in this answer only. */
    async create(user: UserRecord, request: ApiTokenCreateRequest): Promise<ApiTokenCreated> {
      const name = request.name.trim();
      if (!name) throw badRequest('name is empty');
      const perm = requestedPermissions(request, user.perm);
      if ((await tokens.countByUser(user.id)) >= MAX_TOKENS_PER_USER) throw badRequest(`at most ${MAX_TOKENS_PER_USER} tokens per user`);
      const token = ApiTokenPrefix + crypto.randomBytes(32).toString('base64url');
      const createdAt = now();
      const row = {
        id: crypto.randomBytes(9).toString('base64url'),
        user_id: user.id,
        name,
        token_hash: hashOf(token),
        perm: JSON.stringify(perm),
        created_at: createdAt,
        expires_at: request.expiresInDays ? createdAt + request.expiresInDays * 86_400_000 : null,
        last_used_at: null,
      };
      await tokens.insert(row);
      return { ...toView(row), token };
    },

    async revoke(user: UserRecord, id: string): Promise<void> {
      if (!(await tokens.removeOwned(user.id, id))) throw notFound();
    },

    /**
     * The user a token acts for, with the token's permissions intersected with the user's
     * current ones; 401 for an unknown, revoked or expired token or a deleted owner.
     */
    async authenticate(token: string): Promise<Authenticated> {
      const row = await tokens.findByHash(hashOf(token));
      const at = now();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= at)) throw unauthorized();
      const owner = await users.findById(Number(row.user_id));
      if (!owner) throw unauthorized();
      if (row.last_used_at === null || at - Number(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
        await tokens.setLastUsed(row.id, at);
      }
      const perm = intersect(JSON.parse(row.perm) as Permissions, owner.perm);
      return {
        user: { ...owner, perm },
        shouldRenew: false,
        exp: row.expires_at === null ? NEVER_SECONDS : Math.floor(Number(row.expires_at) / 1000),
        apiToken: { id: row.id },
      };
    },

    /** A deleted user's tokens go with them. */
    async forget(userId: number): Promise<void> {
      await tokens.removeByUser(userId);
    },
  };
}
