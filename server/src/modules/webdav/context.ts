import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { ResolvedPath, Scope } from '../../storage/scoped-fs.js';
import { cleanVirtualPath, parentOf } from '../../storage/virtual-path.js';
import type { FilesService } from '../files/files.service.js';
import type { UserRecord } from '../users/users.model.js';
import type { DeadProperties } from './dead-properties.js';
import { parseIfHeader, sameEtag, submittedTokens, type Lock, type LockStore } from './locks.js';
import { hrefOf, pathOfUrl } from './paths.js';
import { etagOfStat } from './properties.js';
import { davError } from './responses.js';
import { escapeText } from './xml.js';

/** What every WebDAV handler works with: the request, its user's scope and the shared stores. */
export type DavContext = {
  request: FastifyRequest;
  reply: FastifyReply;
  user: UserRecord;
  scope: Scope;
  /** The decoded request path (trailing slash kept; the gate canonicalises it). */
  path: string;
  config: Config;
  files: FilesService;
  locks: LockStore;
  properties: DeadProperties;
};

/** An entry of the scope as locks and properties see it: the entry itself, links not followed. */
export type Entry = { virtual: string; key: string; exists: boolean; isDir: boolean };

/** Resolves a path to its entry (rules, hidden dotfiles and confinement apply: 403). */
export async function entryOf(ctx: DavContext, path: string): Promise<Entry> {
  const resolved = await ctx.scope.resolve(path, 'delete');
  return { virtual: resolved.virtual, key: resolved.real, exists: Boolean(resolved.stat), isDir: Boolean(resolved.stat?.isDirectory()) };
}

/** The entry of the parent folder of `virtual`. */
export async function parentEntryOf(ctx: DavContext, virtual: string): Promise<Entry> {
  const parent = parentOf(virtual);
  const resolved = await ctx.scope.resolveClean(parent, false, 'delete');
  return { virtual: parent, key: resolved.real, exists: Boolean(resolved.stat), isDir: Boolean(resolved.stat?.isDirectory()) };
}

/** Reads a path's content (links followed); `stat` is a bigint stat when it exists. */
export async function readTarget(ctx: DavContext, path: string): Promise<{ resolved: ResolvedPath; stat?: fs.BigIntStats }> {
  const resolved = await ctx.scope.resolve(path, 'read');
  if (!resolved.stat || resolved.stat.isSymbolicLink()) return { resolved };
  const stat = await fsp.stat(resolved.real, { bigint: true }).catch(() => undefined);
  return { resolved, stat };
}

export function hrefFor(ctx: DavContext, virtual: string, isCollection: boolean): string {
  return hrefOf(ctx.config.baseURL, virtual, isCollection);
}

/** The state an `If` condition is checked against: the resource's locks and entity tag. */
async function stateOf(ctx: DavContext, path: string): Promise<{ key?: string; etag?: string }> {
  try {
    const entry = await entryOf(ctx, path);
    const { stat } = await readTarget(ctx, path);
    return { key: entry.key, etag: stat ? etagOfStat(stat) : undefined };
  } catch {
    // A resource the user cannot reach has no state they may test.
    return {};
  }
}

/**
 * Evaluates the `If` header (RFC 4918 section 10.4): it holds when any of its lists holds for
 * its resource, else 412. Returns the lock tokens it submits (empty without the header).
 */
export async function evaluateIf(ctx: DavContext): Promise<Set<string>> {
  const header = ctx.request.headers.if;
  if (header === undefined) return new Set();
  const lists = parseIfHeader(Array.isArray(header) ? header.join(' ') : header);
  for (const list of lists) {
    let path = ctx.path;
    if (list.resource !== undefined) {
      try {
        path = pathOfUrl(ctx.request, ctx.config.baseURL, list.resource);
      } catch {
        continue;
      }
    }
    const state = await stateOf(ctx, path);
    const tokens = state.key ? new Set(ctx.locks.covering(state.key).map((lock) => lock.token)) : new Set<string>();
    const holds = list.conditions.every((condition) => {
      const matched = condition.token !== undefined ? tokens.has(condition.token) : state.etag !== undefined && sameEtag(condition.etag!, state.etag);
      return condition.not ? !matched : matched;
    });
    if (holds) return submittedTokens(lists);
  }
  throw davError(412, 'If header precondition failed');
}

/**
 * Refuses a change (423) when a lock applies whose token the request did not submit, or whose
 * token belongs to another user: a lock token is only good for the user who took the lock.
 * `keys` are the entries changed; `deep` ones also count locks on anything below them
 * (deleting or moving a folder); `members` are folders whose membership changes (a lock on the
 * folder itself guards its list of members, whatever its depth).
 */
export function assertUnlocked(ctx: DavContext, tokens: Set<string>, targets: { keys?: string[]; deep?: string[]; members?: string[] }): void {
  const held = (lock: Lock) => tokens.has(lock.token) && lock.userId === ctx.user.id;
  const groups: Lock[][] = [];
  for (const key of [...(targets.keys ?? []), ...(targets.deep ?? []), ...(targets.members ?? [])]) groups.push(ctx.locks.covering(key));
  for (const key of targets.deep ?? []) for (const lock of ctx.locks.inside(key)) groups.push([lock]);
  // The locks on one resource are shared ones when there are several: any one of them will do.
  const blocked = groups.find((group) => group.length > 0 && !group.some(held));
  if (blocked) {
    throw davError(423, 'locked', `<D:lock-token-submitted><D:href>${escapeText(blocked[0]!.rootHref)}</D:href></D:lock-token-submitted>`);
  }
}

/**
 * `If-Match` and `If-None-Match` on a change (RFC 9110 section 13.1): `If-None-Match: *` makes a
 * PUT create-only, `If-Match` makes it replace only the version the client has. 412 otherwise.
 */
export async function assertHttpPreconditions(ctx: DavContext, path: string): Promise<void> {
  const ifMatch = ctx.request.headers['if-match'];
  const ifNoneMatch = ctx.request.headers['if-none-match'];
  if (ifMatch === undefined && ifNoneMatch === undefined) return;
  const { stat } = await readTarget(ctx, path);
  const etag = stat ? etagOfStat(stat) : undefined;
  const tags = (value: string | string[]) => (Array.isArray(value) ? value.join(',') : value).split(',').map((tag) => tag.trim()).filter(Boolean);
  if (ifMatch !== undefined) {
    const list = tags(ifMatch);
    const holds = etag !== undefined && (list.includes('*') || list.includes(etag));
    if (!holds) throw davError(412, 'If-Match failed');
  }
  if (ifNoneMatch !== undefined) {
    const list = tags(ifNoneMatch);
    const matches = etag !== undefined && (list.includes('*') || list.some((tag) => sameEtag(tag, etag)));
    if (matches) throw davError(412, 'If-None-Match failed');
  }
}

/** The canonical virtual path of a decoded path. */
export function canonical(path: string): string {
  return cleanVirtualPath(path).path;
}
