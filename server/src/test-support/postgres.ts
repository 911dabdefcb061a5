import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../storage/db.js';

/**
 * A private, throwaway PostgreSQL cluster for tests and benchmarks: `initdb` in a temporary
 * folder, run by an unprivileged user when started as root (PostgreSQL refuses to run as root),
 * listening on a free 127.0.0.1 port with its socket in the same folder, removed on stop.
 */
type PostgresCluster = {
  port: number;
  /** The cluster's folder (data, socket and log). */
  dir: string;
  /** A connection URL for `database` on this cluster. */
  url(database: string): string;
  /** Creates an empty database (or a copy of `template`) and returns its URL. */
  createDatabase(name: string, template?: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  stop(): void;
};

const SUPERUSER = 'burrow';

/** The folder holding initdb and pg_ctl: BURROW_PG_BIN, the newest Debian install, or PATH. */
function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.BURROW_PG_BIN) candidates.push(process.env.BURROW_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
function runAs(owner: { uid: number; gid: number } | undefined, program: string, args: string[]): void {
  const result = owner
    ? spawnSync(program, args, { encoding: 'utf8', uid: owner.uid, gid: owner.gid, env: { ...process.env, HOME: os.tmpdir() } })
    : spawnSync(program, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${path.basename(program)} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr || result.stdout || '').trim()}`);
  }
}

/** The uid and gid of the `postgres` account (Debian's package creates it). */
function postgresAccount(): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('PostgreSQL refuses to run as root and there is no "postgres" user to run it as (install the postgresql package)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: initdb and pg_ctl were not found (apt-get install postgresql, or set BURROW_PG_BIN)');
  const owner = process.getuid?.() === 0 ? postgresAccount() : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-pg-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'socket');
  fs.mkdirSync(socket);
  if (owner) {
    fs.chownSync(dir, owner.uid, owner.gid);
    fs.chownSync(socket, owner.uid, owner.gid);
  }
  const port = await freePort();
  const stop = () => {
    try {
      if (fs.existsSync(path.join(data, 'postmaster.pid'))) runAs(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone: the folder is removed all the same.
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    runAs(owner, path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
    const settings = [
      `-p ${port}`,
      `-k ${socket}`,
      '-c listen_addresses=127.0.0.1',
      // A throwaway cluster: durability buys nothing here.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    runAs(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = path.join(dir, 'server.log');
    const detail = fs.existsSync(log) ? `\n${fs.readFileSync(log, 'utf8').slice(-2000)}` : '';
    stop();
    throw new Error(`${(error as Error).message}${detail}`);
  }
  const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const admin = async <T>(work: (query: (text: string) => Promise<unknown>) => Promise<T>): Promise<T> => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      return await work((text) => client.query(text));
    } finally {
      await client.end();
    }
  };
  return {
    port,
    dir,
    url,
    async createDatabase(name, template) {
      await admin((query) => query(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`));
      return url(name);
    },
    async dropDatabase(name) {
      await admin((query) => query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    },
    stop,
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Set by the test run's global setup when the suite runs against PostgreSQL. */
const URL_ENV = 'BURROW_TEST_POSTGRES_URL';
/** The migrated database every test database is copied from. */
const TEMPLATE = 'burrow_template';

// Read once when loaded: tests may clear BURROW_* variables to test configuration.
const onPostgres = process.env.BURROW_TEST_DATABASE === 'postgres';
const clusterUrl = process.env[URL_ENV];

/** Whether this test run uses PostgreSQL (BURROW_TEST_DATABASE=postgres). */
function testingOnPostgres(): boolean {
  return onPostgres;
}

/**
 * Vitest global setup: with BURROW_TEST_DATABASE=postgres, starts the cluster for the whole run
 * and prepares a migrated template database; the returned teardown removes it (and so does exit).
 */
export async function setupTestCluster(): Promise<(() => void) | undefined> {
  if (!testingOnPostgres()) return undefined;
  const cluster = await startPostgresCluster();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cluster.stop();
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  try {
    const db = await openDatabase(await cluster.createDatabase(TEMPLATE));
    await db.destroy();
  } catch (error) {
    stop();
    throw error;
  }
  process.env[URL_ENV] = cluster.url('postgres');
  return stop;
}

let sequence = 0;
const databases = new Map<string, string>();

type AdminClient = { query(text: string): Promise<unknown>; end(): Promise<void> };
/** One connection per test process for creating and dropping test databases. */
let admin: Promise<AdminClient> | undefined;
/**
 * The next test database, copied from the template in the background while a test runs (a copy
 * takes a good part of a short test's time); dropped by `releaseTestDatabases` if nobody takes it.
 */
let spare: Promise<string> | undefined;

function adminClient(): Promise<AdminClient> {
  admin ??= (async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: clusterUrl });
    await client.connect();
    return client;
  })();
  return admin;
}

async function copyTemplate(): Promise<string> {
  const name = `t_${process.pid}_${++sequence}_${Date.now().toString(36)}`;
  await (await adminClient()).query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(TEMPLATE)}`);
  return name;
}

function prepareSpare(): void {
  spare = copyTemplate();
  // A failed copy is reported to the test that takes it.
  spare.catch(() => undefined);
}

/**
 * The database a test should open in place of the SQLite `file`: the file itself normally; on a
 * PostgreSQL run, a fresh database on the test cluster, the same one every time for the same file
 * (so a test can close and reopen it).
 */
export async function testDatabase(file: string): Promise<string> {
  if (!testingOnPostgres()) return file;
  const known = databases.get(file);
  if (known) return known;
  if (!clusterUrl) throw new Error('BURROW_TEST_DATABASE=postgres, but no test cluster runs (the vitest global setup starts it)');
  const taken = spare ?? copyTemplate();
  spare = undefined;
  const name = await taken;
  prepareSpare();
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  databases.set(file, url.toString());
  return url.toString();
}

async function dropDatabaseNamed(name: string): Promise<void> {
  await (await adminClient()).query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}

/** Drops the database `testDatabase` made for `file` (nothing on a SQLite run). */
export async function dropTestDatabase(file: string): Promise<void> {
  const url = databases.get(file);
  if (!url) return;
  databases.delete(file);
  await dropDatabaseNamed(decodeURIComponent(new URL(url).pathname.slice(1)));
}

/**
 * After each test file (see setup-file.ts): drops the spare database and closes the admin
 * connection, so a run leaves only what its tests kept on purpose.
 */
export async function releaseTestDatabases(): Promise<void> {
  const pending = spare;
  spare = undefined;
  const name = await pending?.catch(() => undefined);
  if (name) await dropDatabaseNamed(name);
  const client = admin;
  admin = undefined;
  await (await client?.catch(() => undefined))?.end();
}

/** A cluster to make databases on, and how to let it go. */
export type TestCluster = { createDatabase(name: string): Promise<string>; release(): Promise<void> };

/**
 * For tests that need PostgreSQL whatever the run's engine: the run's cluster on a PostgreSQL
 * run, otherwise a private one started here (these tests fail, never skip, without PostgreSQL).
 */
export async function acquireTestCluster(): Promise<TestCluster> {
  if (clusterUrl) {
    const made: string[] = [];
    return {
      async createDatabase(name) {
        const unique = `${name}_${process.pid}_${++sequence}`;
        const url = await testDatabase(`cluster:${unique}`);
        made.push(`cluster:${unique}`);
        return url;
      },
      async release() {
        for (const key of made) await dropTestDatabase(key);
      },
    };
  }
  const cluster = await startPostgresCluster();
  return {
    createDatabase: (name) => cluster.createDatabase(name),
    async release() {
      cluster.stop();
    },
  };
}
