import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import { mimeTypeOf } from '../../storage/mime.js';
import { fileEtag } from '../../http/send-file.js';
import type { Lock, LockStore } from './locks.js';
import { DAV, emptyElement, escapeText } from './xml.js';

/** What PROPFIND needs to know of one resource. */
export type DavResource = {
  href: string;
  /** Virtual path in the requester's scope. */
  virtual: string;
  /** Real path of the content (links followed), for quota and reading. */
  real: string;
  /** Key of the entry itself (locks and dead properties). */
  key: string;
  name: string;
  stat: fs.BigIntStats;
};

/** Live properties, in the order allprop lists them. The quota ones are only sent when asked for. */
const LIVE_PROPERTIES = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
  'quota-available-bytes',
  'quota-used-bytes',
] as const;
const NOT_IN_ALLPROP = new Set(['quota-available-bytes', 'quota-used-bytes']);
export const ALLPROP_LIVE = LIVE_PROPERTIES.filter((name) => !NOT_IN_ALLPROP.has(name));

export function isLiveProperty(ns: string, name: string): boolean {
  return ns === DAV && (LIVE_PROPERTIES as readonly string[]).includes(name);
}

export function etagOfStat(stat: fs.BigIntStats): string {
  return fileEtag(stat.mtimeNs, stat.isDirectory() ? 0n : stat.size);
}

/** `<D:activelock>` of one lock. */
export function activeLockXml(lock: Lock, secondsLeft: number): string {
  return (
    '<D:activelock>' +
    '<D:locktype><D:write/></D:locktype>' +
    `<D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>` +
    (lock.ownerXml ? `<D:owner>${lock.ownerXml}</D:owner>` : '') +
    `<D:timeout>Second-${secondsLeft}</D:timeout>` +
    `<D:locktoken><D:href>${escapeText(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeText(lock.rootHref)}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** The value of a live property as XML content, or undefined when the resource has none (404). */
export async function liveValue(name: string, resource: DavResource, locks: LockStore): Promise<string | undefined> {
  const { stat } = resource;
  const isDir = stat.isDirectory();
  switch (name) {
    case 'creationdate': {
      const born = stat.birthtimeMs > 0n ? stat.birthtimeMs : stat.mtimeMs;
      return new Date(Number(born)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case 'displayname':
      return escapeText(resource.name);
    case 'getcontentlength':
      return isDir ? undefined : stat.size.toString();
    case 'getcontenttype':
      return isDir ? undefined : escapeText(mimeTypeOf(resource.name) ?? 'application/octet-stream');
    case 'getetag':
      return escapeText(etagOfStat(stat));
    case 'getlastmodified':
      return new Date(Number(stat.mtimeMs)).toUTCString();
    case 'resourcetype':
      return isDir ? '<D:collection/>' : '';
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery':
      return locks
        .covering(resource.key)
        .map((lock) => activeLockXml(lock, locks.secondsLeft(lock)))
        .join('');
    case 'quota-available-bytes':
    case 'quota-used-bytes': {
      try {
        const stats = await fsp.statfs(resource.real);
        return name === 'quota-available-bytes' ? String(stats.bavail * stats.bsize) : String((stats.blocks - stats.bfree) * stats.bsize);
      } catch {
        return undefined;
      }
    }
    default:
      return undefined;
  }
}

/** `<D:name>value</D:name>`, or the empty element for an empty value. */
export function liveElement(name: string, value: string): string {
  return value === '' ? `<D:${name}/>` : `<D:${name}>${value}</D:${name}>`;
}

export { emptyElement };
