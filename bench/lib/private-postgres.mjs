// A private, throwaway PostgreSQL server for benchmarks, as the server tests start one: `initdb`
// in a temporary folder (run as the `postgres` user when the bench runs as root, since PostgreSQL
// refuses root), listening only on 127.0.0.1 on a free port, stopped and removed with the bench.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, onCleanup } from './burrow.mjs';

const SUPERUSER = 'burrow';

function findPostgresBin() {
  const candidates = [];
  if (process.env.BURROW_PG_BIN) candidates.push(process.env.BURROW_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

function postgresAccount() {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('PostgreSQL refuses to run as root and there is no "postgres" user to run it as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function runAs(owner, program, args) {
  const result = owner
    ? spawnSync(program, args, { encoding: 'utf8', uid: owner.uid, gid: owner.gid, env: { ...process.env, HOME: os.tmpdir() } })
    : spawnSync(program, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(program)} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr || result.stdout || '').trim()}`);
}

/**
 * Starts the server with settings fit for a benchmark on a small machine (durable writes kept,
 * as in production; `settings` may add or override). Returns `url(database)`, `createDatabase`,
 * `query(database, text)` and `stop()`; stopped on exit in any case.
 */
export async function startPrivatePostgres(settings = []) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: initdb and pg_ctl were not found (apt-get install postgresql, or set BURROW_PG_BIN)');
  const owner = process.getuid?.() === 0 ? postgresAccount() : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-pg-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'socket');
  fs.mkdirSync(socket);
  if (owner) {
    fs.chownSync(dir, owner.uid, owner.gid);
    fs.chownSync(socket, owner.uid, owner.gid);
  }
  const port = await freePort();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (fs.existsSync(path.join(data, 'postmaster.pid'))) runAs(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Already gone.
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  onCleanup(stop);
  process.once('exit', stop);
  try {
    runAs(owner, path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
    const options = [`-p ${port}`, `-k ${socket}`, '-c listen_addresses=127.0.0.1', '-c shared_buffers=256MB', '-c max_wal_size=2GB', ...settings].join(' ');
    runAs(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = path.join(dir, 'server.log');
    const detail = fs.existsSync(log) ? `\n${fs.readFileSync(log, 'utf8').slice(-2000)}` : '';
    stop();
    throw new Error(`${error.message}${detail}`);
  }
  const url = (database) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const query = async (database, text) => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    query,
    async createDatabase(name) {
      await query('postgres', `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return url(name);
    },
    stop,
  };
}
