import crypto from 'node:crypto';
import { ApiTokenPrefix, type ApiToken, type ApiTokenCreateRequest, type ApiTokenCreated, type Permissions } from '@burrow/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { ApiTokensTable } from '../../storage/schema.js';
import { badRequest, notFound, unauthorized } from '../../errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UserRecord } from '../users/users.model.js';
import type { Authenticated } from '../auth/auth.service.js';
import { intersect, requestedPermissions } from './token-permissions.js';

export type ApiTokensService = ReturnType<typeof createApiTokensService>;

/** Last use is written at most this often per token. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Tokens one user may hold. */
const MAX_TOKENS_PER_USER = 100;
/** Where an expiry would otherwise go in a session's shape: the far future. */
const NEVER_SECONDS = 253402300799;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function toView(row: Selectable<ApiTokensTable>): ApiToken {
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
  const { db, users } = deps;
  const now = deps.now ?? Date.now;

  return {
    async list(user: UserRecord): Promise<ApiToken[]> {
      const rows = await db.selectFrom('api_tokens').selectAll().where('user_id', '=', user.id).orderBy('created_at', 'desc').execute();
      return rows.map(toView);
    },

    /** A new token; its secret is in this answer only. */
    async create(user: UserRecord, request: ApiTokenCreateRequest): Promise<ApiTokenCreated> {
      const name = request.name.trim();
      if (!name) throw badRequest('name is empty');
      const perm = requestedPermissions(request, user.perm);
      const count = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_TOKENS_PER_USER) throw badRequest(`at most ${MAX_TOKENS_PER_USER} tokens per user`);
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
      await db.insertInto('api_tokens').values(row).execute();
      return { ...toView(row), token };
    },

    async revoke(user: UserRecord, id: string): Promise<void> {
      const result = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound();
    },

    /**
     * The user a token acts for, with the token's permissions intersected with the user's
     * current ones; 401 for an unknown, revoked or expired token or a deleted owner.
     */
    async authenticate(token: string): Promise<Authenticated> {
      const row = await db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hashOf(token)).executeTakeFirst();
      const at = now();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= at)) throw unauthorized();
      const owner = await users.findById(Number(row.user_id));
      if (!owner) throw unauthorized();
      if (row.last_used_at === null || at - Number(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
        await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', row.id).execute();
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
      await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    },
  };
}
