import fsp from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '../../errors.js';
import { baseName, joinVirtual } from '../../storage/virtual-path.js';
import { hrefFor, readTarget, type DavContext } from './context.js';
import { ALLPROP_LIVE, emptyElement, isLiveProperty, liveElement, liveValue, type DavResource } from './properties.js';
import { davError, sendMultistatus, statusLine } from './responses.js';
import { childElements, DAV, escapeText, findChild, parseXml } from './xml.js';
import { readXmlBody } from './request-body.js';

type PropRequest = { kind: 'allprop'; include: Array<{ ns: string; name: string }> } | { kind: 'propname' } | { kind: 'prop'; names: Array<{ ns: string; name: string }> };

/** Most resources one Depth: infinity answer may describe, when that depth is enabled at all. */
const MAX_INFINITE_RESOURCES = 100_000;

function parseRequest(body: string): PropRequest {
  if (body.trim() === '') return { kind: 'allprop', include: [] };
  const root = parseXml(body);
  if (root.ns !== DAV || root.name !== 'propfind') throw davError(400, 'expected a propfind element');
  const prop = findChild(root, DAV, 'prop');
  if (findChild(root, DAV, 'propname')) return { kind: 'propname' };
  if (findChild(root, DAV, 'allprop')) {
    const include = findChild(root, DAV, 'include');
    return { kind: 'allprop', include: include ? childElements(include).map(({ ns, name }) => ({ ns, name })) : [] };
  }
  if (prop) return { kind: 'prop', names: childElements(prop).map(({ ns, name }) => ({ ns, name })) };
  throw davError(400, 'propfind names no properties');
}

/** `Depth` of a PROPFIND: 0, 1 or infinity (also when absent, as RFC 4918 says). */
function depthOf(ctx: DavContext): '0' | '1' | 'infinity' {
  const header = ctx.request.headers.depth;
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  if (value === '0' || value === '1') return value;
  if (value === undefined || value === 'infinity') return 'infinity';
  throw davError(400, 'invalid Depth header');
}

/** The listable members of a folder: what the files API would list (rules, dotfiles, links). */
export async function membersOf(ctx: DavContext, folder: DavResource): Promise<DavResource[]> {
  let names: string[];
  try {
    names = await fsp.readdir(folder.real);
  } catch {
    return [];
  }
  const members: DavResource[] = [];
  for (const name of names.sort()) {
    const virtual = joinVirtual(folder.virtual, name);
    if (!ctx.scope.isListable(virtual)) continue;
    let resolved;
    try {
      resolved = await ctx.scope.resolveClean(virtual, false, 'read');
    } catch {
      // Links that leave the scope or land on a denied place are not listed, as in the API.
      continue;
    }
    if (!resolved.stat || resolved.stat.isSymbolicLink()) continue;
    if (!resolved.stat.isFile() && !resolved.stat.isDirectory()) continue;
    const stat = await fsp.stat(resolved.real, { bigint: true }).catch(() => undefined);
    if (!stat) continue;
    // The entry's key as the gate resolves it for changes: the real folder joined with the name.
    const key = path.join(folder.real, name);
    members.push({ href: hrefFor(ctx, virtual, stat.isDirectory()), virtual, real: resolved.real, key, name, stat });
  }
  return members;
}

async function responseFor(ctx: DavContext, resource: DavResource, request: PropRequest): Promise<string> {
  const found: string[] = [];
  const missing: string[] = [];
  const needsDead = request.kind !== 'prop' || request.names.some((name) => !isLiveProperty(name.ns, name.name));
  const dead = needsDead ? await ctx.properties.list(resource.key) : [];
  if (request.kind === 'propname') {
    for (const name of ALLPROP_LIVE) {
      if ((await liveValue(name, resource, ctx.locks)) !== undefined) found.push(`<D:${name}/>`);
    }
    for (const property of dead) found.push(emptyElement(property.namespace, property.name));
  } else {
    const wanted = request.kind === 'prop' ? request.names : [...ALLPROP_LIVE.map((name) => ({ ns: DAV, name })), ...request.include];
    const seen = new Set<string>();
    for (const { ns, name } of wanted) {
      const id = `{${ns}}${name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (isLiveProperty(ns, name)) {
        const value = await liveValue(name, resource, ctx.locks);
        if (value === undefined) {
          if (request.kind === 'prop') missing.push(emptyElement(ns, name));
        } else found.push(liveElement(name, value));
        continue;
      }
      const property = dead.find((item) => item.namespace === ns && item.name === name);
      if (property) found.push(property.xml);
      else if (request.kind === 'prop' || request.include.some((item) => item.ns === ns && item.name === name)) missing.push(emptyElement(ns, name));
    }
    if (request.kind === 'allprop') {
      for (const property of dead) if (!seen.has(`{${property.namespace}}${property.name}`)) found.push(property.xml);
    }
  }
  let xml = `<D:response><D:href>${escapeText(resource.href)}</D:href>`;
  if (found.length > 0 || missing.length === 0) xml += `<D:propstat><D:prop>${found.join('')}</D:prop><D:status>${statusLine(200)}</D:status></D:propstat>`;
  if (missing.length > 0) xml += `<D:propstat><D:prop>${missing.join('')}</D:prop><D:status>${statusLine(404)}</D:status></D:propstat>`;
  return `${xml}</D:response>`;
}

/** The resource at the request path, 404 when missing. */
export async function requestResource(ctx: DavContext): Promise<DavResource> {
  const { resolved, stat } = await readTarget(ctx, ctx.path);
  if (!stat || (!stat.isFile() && !stat.isDirectory())) throw notFound();
  const entry = await ctx.scope.resolveClean(resolved.virtual, false, 'delete');
  const name = resolved.virtual === '/' ? '' : baseName(resolved.virtual);
  return { href: hrefFor(ctx, resolved.virtual, stat.isDirectory()), virtual: resolved.virtual, real: resolved.real, key: entry.real, name, stat };
}

/**
 * PROPFIND: Depth 0 and 1; infinity (also an absent Depth) only when the server enables it,
 * else 403 with `propfind-finite-depth`. Members are what the files API lists for the user.
 */
export async function propfind(ctx: DavContext): Promise<unknown> {
  const depth = depthOf(ctx);
  if (depth === 'infinity' && !ctx.config.webdavDepthInfinity) throw davError(403, 'Depth: infinity is not served', '<D:propfind-finite-depth/>');
  const request = parseRequest(await readXmlBody(ctx.request, ctx.reply));
  const self = await requestResource(ctx);
  const responses = [await responseFor(ctx, self, request)];
  if (depth !== '0' && self.stat.isDirectory()) {
    const queue = [self];
    let count = 1;
    while (queue.length > 0) {
      const folder = queue.shift()!;
      for (const member of await membersOf(ctx, folder)) {
        if (++count > MAX_INFINITE_RESOURCES) throw davError(403, 'too many resources for Depth: infinity', '<D:propfind-finite-depth/>');
        responses.push(await responseFor(ctx, member, request));
        if (depth === 'infinity' && member.stat.isDirectory()) queue.push(member);
      }
    }
  }
  return sendMultistatus(ctx.reply, responses);
}
