import type fs from 'node:fs';

/** Go's `os.FileMode` bits, which the wire format carries in `mode`. */
const GoMode = {
  dir: 2 ** 31,
  symlink: 2 ** 27,
  device: 2 ** 26,
  namedPipe: 2 ** 25,
  socket: 2 ** 24,
  setuid: 2 ** 23,
  setgid: 2 ** 22,
  charDevice: 2 ** 21,
  sticky: 2 ** 20,
} as const;

/** POSIX `st_mode` type and special bits. */
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const S_IFIFO = 0o010000;
const S_IFSOCK = 0o140000;
const S_IFBLK = 0o060000;
const S_IFCHR = 0o020000;

/** Either flavour of stat result; listings use bigint stats for nanosecond times. */
export type AnyStats = fs.Stats | fs.BigIntStats;

/** Converts a POSIX mode to the number Go's FileMode would print (0755 folder → 2147484141). */
export function goFileMode(posixMode: number): number {
  let mode = posixMode & 0o777;
  switch (posixMode & S_IFMT) {
    case S_IFDIR:
      mode += GoMode.dir;
      break;
    case S_IFLNK:
      mode += GoMode.symlink;
      break;
    case S_IFIFO:
      mode += GoMode.namedPipe;
      break;
    case S_IFSOCK:
      mode += GoMode.socket;
      break;
    case S_IFBLK:
      mode += GoMode.device;
      break;
    case S_IFCHR:
      mode += GoMode.device + GoMode.charDevice;
      break;
    default:
      break;
  }
  if (posixMode & 0o4000) mode += GoMode.setuid;
  if (posixMode & 0o2000) mode += GoMode.setgid;
  if (posixMode & 0o1000) mode += GoMode.sticky;
  return mode;
}

/** Modification time in nanoseconds since the epoch, exact for bigint stats. */
export function mtimeNanoseconds(stat: AnyStats): bigint {
  if (typeof stat.mtimeMs === 'bigint') return (stat as fs.BigIntStats).mtimeNs;
  return BigInt(Math.round((stat as fs.Stats).mtimeMs * 1e6));
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The local UTC offset (minutes) at an instant. Asking the Date API is slow enough to dominate a
 * 100,000-entry listing, so answers are cached per quarter hour: time-zone transitions fall on
 * quarter-hour boundaries.
 */
const offsetCache = new Map<number, number>();
export function localOffsetMinutes(seconds: number): number {
  const bucket = Math.floor(seconds / 900);
  let offset = offsetCache.get(bucket);
  if (offset === undefined) {
    offset = -new Date(bucket * 900_000).getTimezoneOffset();
    if (offsetCache.size >= 4096) offsetCache.clear();
    offsetCache.set(bucket, offset);
  }
  return offset;
}

/** Year, month and day of a day count since 1970-01-01 (proleptic Gregorian calendar). */
function civilFromDays(days: number): [number, number, number] {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return [year, month, day];
}

/** A day count since 1970-01-01 as `YYYY-MM-DD`. */
export function dateText(days: number): string {
  const [year, month, day] = civilFromDays(days);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A UTC offset in minutes as RFC 3339 writes it: `Z`, or `+hh:mm` / `-hh:mm`. */
export function zoneText(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'Z';
  const absolute = Math.abs(offsetMinutes);
  return `${offsetMinutes > 0 ? '+' : '-'}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** The date and time part of a timestamp, for the last second formatted (listings share seconds). */
let cachedSecond = Number.NaN;
let cachedDateTime = '';
let cachedZone = '';

/** Fills the cache above for a second. */
function formatSecond(utcSeconds: number): void {
  if (utcSeconds !== cachedSecond) {
    const offsetMinutes = localOffsetMinutes(utcSeconds);
    const local = utcSeconds + offsetMinutes * 60;
    const days = Math.floor(local / 86_400);
    const secondOfDay = local - days * 86_400;
    cachedDateTime = `${dateText(days)}T${pad(Math.floor(secondOfDay / 3600))}:${pad(Math.floor(secondOfDay / 60) % 60)}:${pad(secondOfDay % 60)}`;
    cachedZone = zoneText(offsetMinutes);
    cachedSecond = utcSeconds;
  }
}

/**
 * RFC 3339 with nanoseconds and the server's local offset, as Go's `time.Time` marshals:
 * trailing zeros of the fraction are trimmed (no fraction at all when it is zero) and a zero
 * offset is written `Z`. Takes whole seconds since the epoch and the nanoseconds within.
 */
export function formatModifiedParts(utcSeconds: number, nanos: number): string {
  formatSecond(utcSeconds);
  if (nanos === 0) return cachedDateTime + cachedZone;
  let digits = 9;
  let fraction = nanos;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${cachedDateTime}.${String(fraction).padStart(digits, '0')}${cachedZone}`;
}

/** `formatModified` for a time in nanoseconds since the epoch. */
export function formatModified(nanoseconds: bigint): string {
  const billion = 1_000_000_000n;
  let seconds = nanoseconds / billion;
  let fraction = nanoseconds % billion;
  if (fraction < 0n) {
    fraction += billion;
    seconds -= 1n;
  }
  return formatModifiedParts(Number(seconds), Number(fraction));
}

/** `ETag: "<hex mtime ns><hex size>"`, the value filebrowser sends after a write. */
export function etagOf(stat: AnyStats): string {
  return `"${mtimeNanoseconds(stat).toString(16)}${BigInt(stat.size).toString(16)}"`;
}

/** The extension with its dot, as Go's `filepath.Ext` returns it ("" when there is none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
}
