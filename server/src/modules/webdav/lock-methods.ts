import { Readable } from 'node:stream';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { assertUnlocked, entryOf, evaluateIf, hrefFor, parentEntryOf, type DavContext } from './context.js';
import { parseTimeout, type Lock, type LockScope } from './locks.js';
import { activeLockXml } from './properties.js';
import { readXmlBody } from './request-body.js';
import { davError, XML_TYPE } from './responses.js';
import { childElements, DAV, findChild, isElement, parseXml, serializeElement, escapeText, type XmlElement } from './xml.js';

function header(ctx: DavContext, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendLock(ctx: DavContext, lock: Lock, status: number): unknown {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="${DAV}"><D:lockdiscovery>${activeLockXml(lock, ctx.locks.secondsLeft(lock))}</D:lockdiscovery></D:prop>\n`;
  return ctx.reply.code(status).header('lock-token', `<${lock.token}>`).header('content-type', XML_TYPE).send(body);
}

/** The content of `<D:owner>` as it came, serialised so it stays well-formed anywhere. */
function ownerXml(owner: XmlElement | undefined): string {
  if (!owner) return '';
  return owner.children.map((child) => (isElement(child) ? serializeElement(child) : escapeText(child.text))).join('');
}

/**
 * LOCK: a new exclusive or shared write lock (Depth 0 or infinity), or, without a body, a
 * refresh of a lock whose token the `If` header submits (also through a member of a locked
 * folder). Locking an unmapped URL creates an empty file there (201), as RFC 4918 describes.
 * Needs `modify` on an existing resource and `create` for a new one.
 */
export async function lock(ctx: DavContext): Promise<unknown> {
  const entry = await entryOf(ctx, ctx.path);
  const body = await readXmlBody(ctx.request, ctx.reply);
  const timeout = parseTimeout(header(ctx, 'timeout'));

  if (body.trim() === '') {
    if (!entry.exists) throw notFound();
    const tokens = await evaluateIf(ctx);
    if (tokens.size === 0) throw badRequest('a lock refresh needs the lock token in an If header');
    const held = ctx.locks.covering(entry.key).find((candidate) => tokens.has(candidate.token) && candidate.userId === ctx.user.id);
    if (!held) throw davError(412, 'no such lock on this resource', '<D:lock-token-matches-request-uri/>');
    await ctx.locks.refresh(held, timeout);
    return sendLock(ctx, held, 200);
  }

  const info = parseXml(body);
  if (info.ns !== DAV || info.name !== 'lockinfo') throw badRequest('expected a lockinfo element');
  const scopeElement = findChild(info, DAV, 'lockscope');
  const scopeChoice = scopeElement ? childElements(scopeElement).find((child) => child.ns === DAV)?.name : undefined;
  if (scopeChoice !== 'exclusive' && scopeChoice !== 'shared') throw badRequest('lockscope must be exclusive or shared');
  const typeElement = findChild(info, DAV, 'locktype');
  if (!typeElement || !findChild(typeElement, DAV, 'write')) throw badRequest('only write locks exist');
  const depthHeader = header(ctx, 'depth')?.trim().toLowerCase();
  if (depthHeader !== undefined && depthHeader !== '0' && depthHeader !== 'infinity') throw badRequest('LOCK Depth must be 0 or infinity');
  const depth = depthHeader === '0' ? '0' : 'infinity';

  if (entry.exists ? !ctx.user.perm.modify : !ctx.user.perm.create) throw forbidden();
  const tokens = await evaluateIf(ctx);
  let created = false;
  if (!entry.exists) {
    const parent = await parentEntryOf(ctx, entry.virtual);
    if (!parent.isDir) throw davError(409, 'the parent folder does not exist');
    assertUnlocked(ctx, tokens, { members: [parent.key] });
  }
  const owner = ownerXml(findChild(info, DAV, 'owner'));
  const result = await ctx.locks.create({
    key: entry.key,
    rootHref: hrefFor(ctx, entry.virtual, entry.isDir),
    scope: scopeChoice as LockScope,
    depth,
    ownerXml: owner,
    userId: ctx.user.id,
    timeoutSeconds: timeout,
  });
  if ('conflict' in result) throw davError(423, 'locked', '<D:no-conflicting-lock/>');
  if (!entry.exists) {
    try {
      // A locked empty resource: an ordinary empty file, made the way uploads make files.
      await ctx.files.create(ctx.user, entry.virtual, { override: false, body: { stream: Readable.from([]), length: 0 } });
      created = true;
    } catch (error) {
      await ctx.locks.remove(result.lock.token);
      throw error;
    }
  }
  return sendLock(ctx, result.lock, created ? 201 : 200);
}

/** UNLOCK: removes the lock named by `Lock-Token` if it applies here and belongs to the user. */
export async function unlock(ctx: DavContext): Promise<unknown> {
  const raw = header(ctx, 'lock-token')?.trim();
  const token = raw && /^<.+>$/.test(raw) ? raw.slice(1, -1) : undefined;
  if (!token) throw badRequest('missing Lock-Token header');
  const entry = await entryOf(ctx, ctx.path);
  const held = ctx.locks.covering(entry.key).find((candidate) => candidate.token === token);
  if (!held) throw davError(409, 'no such lock on this resource', '<D:lock-token-matches-request-uri/>');
  if (held.userId !== ctx.user.id) throw forbidden();
  await ctx.locks.remove(token);
  return ctx.reply.code(204).send();
}
