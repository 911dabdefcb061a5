import { badRequest, forbidden, notFound, unsupportedMediaType } from '../../errors.js';
import { isWithin } from '../../storage/virtual-path.js';
import { sendFile } from '../../http/send-file.js';
import { assertHttpPreconditions, assertUnlocked, canonical, entryOf, evaluateIf, parentEntryOf, readTarget, type DavContext } from './context.js';
import { destinationOf } from './paths.js';
import { etagOfStat } from './properties.js';
import { hasBody, uploadBody } from './request-body.js';
import { davError } from './responses.js';
import { escapeAttribute, escapeText } from './xml.js';
import { membersOf, requestResource } from './propfind.js';

/** Methods answered on every WebDAV URL. */
export const DAV_METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPFIND', 'PROPPATCH', 'LOCK', 'UNLOCK'];

/** OPTIONS: class 1 and 2, and the header Windows' WebDAV client looks for before it writes. */
export function options(ctx: Pick<DavContext, 'reply'>): unknown {
  return ctx.reply.code(200).header('dav', '1, 2').header('ms-author-via', 'DAV').header('allow', DAV_METHODS.join(', ')).header('content-length', '0').send();
}

/** A small HTML index for a browser that opens a folder's URL: what PROPFIND would list. */
async function folderIndex(ctx: DavContext): Promise<unknown> {
  const folder = await requestResource(ctx);
  const items = (await membersOf(ctx, folder)).map((member) => {
    const label = `${member.name}${member.stat.isDirectory() ? '/' : ''}`;
    return `<li><a href="${escapeAttribute(member.href)}">${escapeText(label)}</a></li>`;
  });
  const title = escapeText(folder.virtual);
  const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><ul>${items.join('')}</ul></body></html>\n`;
  ctx.reply.code(200).header('content-type', 'text/html; charset=utf-8').header('content-length', String(Buffer.byteLength(html)));
  return ctx.reply.send(ctx.request.method === 'HEAD' ? undefined : html);
}

/** GET and HEAD: files as `/api/raw` sends them (ranges, conditionals); needs `download`. */
export async function get(ctx: DavContext): Promise<unknown> {
  if (!ctx.user.perm.download) throw forbidden();
  const { resolved, stat } = await readTarget(ctx, ctx.path);
  if (!stat || !resolved.stat) throw notFound();
  if (stat.isDirectory()) return folderIndex(ctx);
  return sendFile(ctx.request, ctx.reply, resolved, { inline: false });
}

/**
 * PUT: streamed through the files service's atomic writer, as uploads are: 201 for a new file
 * (needs `create`), 204 for a replaced one (needs `modify`), 409 when the parent folder is
 * missing, 405 on a folder.
 */
export async function put(ctx: DavContext): Promise<unknown> {
  const entry = await entryOf(ctx, ctx.path);
  if (entry.virtual === '/' || entry.isDir || ctx.path.endsWith('/')) throw davError(405, 'cannot PUT a folder');
  const parent = await parentEntryOf(ctx, entry.virtual);
  if (!parent.isDir) throw davError(409, 'the parent folder does not exist');
  await assertHttpPreconditions(ctx, entry.virtual);
  const tokens = await evaluateIf(ctx);
  assertUnlocked(ctx, tokens, entry.exists ? { keys: [entry.key] } : { keys: [entry.key], members: [parent.key] });
  const body = uploadBody(ctx.request, ctx.reply, ctx.config.maxUploadSize);
  const result = entry.exists ? await ctx.files.save(ctx.user, entry.virtual, body) : await ctx.files.create(ctx.user, entry.virtual, { override: false, body });
  if (result.etag) ctx.reply.header('etag', result.etag);
  return ctx.reply.code(entry.exists ? 204 : 201).send();
}

/** DELETE: through the files service (rules on every descendant, hooks, share links); needs `delete`. */
export async function remove(ctx: DavContext): Promise<unknown> {
  const entry = await entryOf(ctx, ctx.path);
  if (entry.virtual === '/') throw forbidden();
  if (!entry.exists) throw notFound();
  const parent = await parentEntryOf(ctx, entry.virtual);
  await assertHttpPreconditions(ctx, entry.virtual);
  const tokens = await evaluateIf(ctx);
  assertUnlocked(ctx, tokens, { deep: [entry.key], members: [parent.key] });
  await ctx.files.remove(ctx.user, entry.virtual);
  return ctx.reply.code(204).send();
}

/** MKCOL: one folder; 405 when the name is taken, 409 without a parent, 415 with a body. */
export async function mkcol(ctx: DavContext): Promise<unknown> {
  if (hasBody(ctx.request)) throw unsupportedMediaType();
  const entry = await entryOf(ctx, ctx.path);
  if (entry.exists) throw davError(405, 'the name is taken');
  const parent = await parentEntryOf(ctx, entry.virtual);
  const tokens = await evaluateIf(ctx);
  assertUnlocked(ctx, tokens, { keys: [entry.key], members: [parent.key] });
  await ctx.files.makeFolder(ctx.user, entry.virtual);
  return ctx.reply.code(201).send();
}

function headerOf(ctx: DavContext, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * COPY and MOVE through the files service's copy and rename. `Overwrite: F` refuses an
 * existing destination (412); with `T` (the default) it is replaced: a file by a file in one
 * step (needs `modify`), anything involving a folder by deleting the destination first (needs
 * `delete`), so folders are replaced rather than merged. COPY with Depth 0 copies a folder
 * without its members. Locks stay behind (see the module's file event listener); dead
 * properties go along.
 */
export async function copyOrMove(ctx: DavContext, action: 'copy' | 'move'): Promise<unknown> {
  const destinationPath = destinationOf(ctx.request, ctx.config.baseURL);
  const overwriteHeader = headerOf(ctx, 'overwrite')?.trim().toUpperCase();
  if (overwriteHeader !== undefined && overwriteHeader !== 'T' && overwriteHeader !== 'F') throw badRequest('Overwrite must be T or F');
  const overwrite = overwriteHeader !== 'F';
  const depthHeader = headerOf(ctx, 'depth')?.trim().toLowerCase();
  if (depthHeader !== undefined && depthHeader !== 'infinity' && !(action === 'copy' && depthHeader === '0')) throw badRequest('invalid Depth header');
  const shallow = depthHeader === '0';

  const source = await entryOf(ctx, ctx.path);
  if (source.virtual === '/') throw forbidden();
  const { stat: sourceStat } = await readTarget(ctx, ctx.path);
  if (!source.exists || !sourceStat) throw notFound();
  const target = await entryOf(ctx, destinationPath);
  if (target.virtual === '/') throw forbidden();
  if (target.virtual === source.virtual) throw davError(403, 'source and destination are the same');
  if (isWithin(source.virtual, target.virtual)) throw davError(403, 'cannot copy or move a folder into itself');
  const targetParent = await parentEntryOf(ctx, target.virtual);
  if (!targetParent.isDir) throw davError(409, 'the destination folder does not exist');
  if (target.exists && !overwrite) throw davError(412, 'the destination exists');

  const tokens = await evaluateIf(ctx);
  if (action === 'move') {
    const sourceParent = await parentEntryOf(ctx, source.virtual);
    assertUnlocked(ctx, tokens, { deep: [source.key], members: [sourceParent.key] });
  }
  assertUnlocked(ctx, tokens, { deep: target.exists ? [target.key] : [], keys: [target.key], members: [targetParent.key] });

  const sourceIsDir = sourceStat.isDirectory();
  const bothFiles = !sourceIsDir && target.exists && !target.isDir;
  if (target.exists && !bothFiles) {
    // Permissions first, so a refused copy never costs the destination.
    if (action === 'copy' ? !ctx.user.perm.create : !ctx.user.perm.rename) throw forbidden();
    await ctx.files.remove(ctx.user, target.virtual);
  }
  if (action === 'copy' && shallow && sourceIsDir) {
    await ctx.files.makeFolder(ctx.user, target.virtual);
    const own = await ctx.properties.list(source.key);
    if (own.length > 0) await ctx.properties.apply(target.key, own.map((property) => ({ namespace: property.namespace, name: property.name, xml: property.xml })));
  } else {
    await ctx.files.patch(ctx.user, source.virtual, { action: action === 'copy' ? 'copy' : 'rename', destination: canonical(target.virtual), override: bothFiles, rename: false });
  }
  const { stat: written } = await readTarget(ctx, target.virtual).catch(() => ({ stat: undefined }));
  if (written && !written.isDirectory()) ctx.reply.header('etag', etagOfStat(written));
  return ctx.reply.code(target.exists ? 204 : 201).send();
}
