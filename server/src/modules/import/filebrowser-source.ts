import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { BoltDatabase, BoltError, hasBoltMagic, type BoltBucket } from './bolt-reader.js';

/** A JSON object read from filebrowser, its keys lower-cased (see `lowerKeys`). */
export type Fields = Record<string, unknown>;

/** What a filebrowser database or export file holds, as plain records. */
export type FilebrowserData = {
  kind: 'database' | 'config export' | 'users export';
  settings?: Fields;
  server?: Fields;
  auther?: Fields;
  users: Fields[];
  links: Fields[];
};

class ImportSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportSourceError';
  }
}

/**
 * Lower-cases every object key, recursively. filebrowser writes JSON with camelCase names but its
 * YAML exports with the Go field names lower-cased (`createuserdir`, `hidedotfiles`): folding both
 * lets one mapping read either.
 */
function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.toLowerCase(), lowerKeys(inner)]));
  }
  return value;
}

function isObject(value: unknown): value is Fields {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function parseRecord(bucketName: string, key: Buffer, value: Buffer): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    throw new ImportSourceError(`record ${describeKey(key)} of bucket ${bucketName} is not JSON`);
  }
  if (!isObject(parsed)) throw new ImportSourceError(`record ${describeKey(key)} of bucket ${bucketName} is not a JSON object`);
  return lowerKeys(parsed) as Fields;
}

function describeKey(key: Buffer): string {
  return /^[\x20-\x7e]+$/.test(key.toString('latin1')) ? JSON.stringify(key.toString('latin1')) : `0x${key.toString('hex')}`;
}

/** storm keeps each bucket's codec in its metadata; filebrowser always uses JSON. */
function checkCodec(name: string, bucket: BoltBucket): void {
  const codec = bucket.bucket('__storm_metadata')?.get('codec')?.toString();
  if (codec !== undefined && codec !== 'json') throw new ImportSourceError(`bucket ${name} is stored with the ${codec} codec; only JSON is read`);
}

/** The records of one storm type bucket: its plain values (index and metadata are buckets). */
function stormRecords(db: BoltDatabase, name: string): Fields[] {
  const bucket = db.bucket(name);
  if (!bucket) return [];
  checkCodec(name, bucket);
  return [...bucket.values()].map(({ key, value }) => parseRecord(name, key, value));
}

/** Reads a filebrowser BoltDB database: users, share links, and the `config` bucket. */
function readFilebrowserDatabase(file: Buffer): FilebrowserData {
  const db = new BoltDatabase(file);
  const config = db.bucket('config');
  const single = (key: string): Fields | undefined => {
    const value = config?.get(key);
    return value ? parseRecord('config', Buffer.from(key), value) : undefined;
  };
  if (config) checkCodec('config', config);
  const users = stormRecords(db, 'User');
  if (!config && !users.length && !db.bucket('__storm_db')) {
    throw new ImportSourceError('this BoltDB file holds no filebrowser data (no config bucket, no users)');
  }
  return { kind: 'database', settings: single('settings'), server: single('server'), auther: single('auther'), users, links: stormRecords(db, 'Link') };
}

/** Parses the text of `filebrowser config export` or `filebrowser users export`, JSON or YAML. */
function readFilebrowserExport(text: string): FilebrowserData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    try {
      // Loaded here only: the server, which never reads such a file, does not carry the YAML parser.
      parsed = (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text);
    } catch (error) {
      throw new ImportSourceError(`neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const data = lowerKeys(parsed);
  if (Array.isArray(data)) {
    if (!data.every((user) => isObject(user) && typeof user.username === 'string')) {
      throw new ImportSourceError('a users export is a list of users, each with a username');
    }
    return { kind: 'users export', users: data as Fields[], links: [] };
  }
  if (isObject(data) && (isObject(data.settings) || isObject(data.server))) {
    return {
      kind: 'config export',
      settings: isObject(data.settings) ? data.settings : undefined,
      server: isObject(data.server) ? data.server : undefined,
      auther: isObject(data.auther) ? data.auther : undefined,
      users: [],
      links: [],
    };
  }
  throw new ImportSourceError('not a filebrowser export: expected the output of `filebrowser config export` or `filebrowser users export`');
}

/** Reads a filebrowser database, or one of its export files, telling them apart by content. */
export function readFilebrowserSource(file: string): FilebrowserData {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new ImportSourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (hasBoltMagic(bytes)) {
    try {
      return readFilebrowserDatabase(bytes);
    } catch (error) {
      if (error instanceof BoltError) throw new ImportSourceError(error.message);
      throw error;
    }
  }
  if (bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
    throw new ImportSourceError(`${file} is an SQLite database, not a filebrowser BoltDB database or export`);
  }
  if (bytes.length >= 4096 && bytes.includes(0)) {
    // Binary, yet without the magic at the start: the first meta page may be damaged.
    try {
      return readFilebrowserDatabase(bytes);
    } catch (error) {
      if (error instanceof BoltError) throw new ImportSourceError(error.message);
      throw error;
    }
  }
  return readFilebrowserExport(bytes.toString('utf8'));
}
