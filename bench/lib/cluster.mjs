// Several Burrow instances as a load balancer sees them: a private, throwaway PostgreSQL cluster
// (initdb in a temporary folder, listening on a free 127.0.0.1 port, removed when stopped) and a
// round-robin HTTP proxy in front of the instances. Used by the benchmarks and the browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The folder holding initdb and pg_ctl: BURROW_PG_BIN, the newest Debian install, or PATH. */
function postgresBin() {
  const candidates = [];
  if (process.env.BURROW_PG_BIN) candidates.push(process.env.BURROW_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    for (const version of fs.readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))) candidates.push(path.join(debian, version, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

/** PostgreSQL refuses to run as root: then its programs run as the `postgres` account. */
function postgresAccount() {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('PostgreSQL refuses to run as root and there is no "postgres" user to run it as (install the postgresql package)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(owner, program, args) {
  const options = { encoding: 'utf8', timeout: 120_000, ...(owner ? { uid: owner.uid, gid: owner.gid, env: { ...process.env, HOME: os.tmpdir() } } : {}) };
  const result = spawnSync(program, args, options);
  if (result.status !== 0) throw new Error(`${path.basename(program)} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr || result.stdout || '').trim()}`);
}

/**
 * Starts a private PostgreSQL; `createDatabase(name)` resolves with a URL, `stop()` removes it all.
 * Durability is off: the data is thrown away.
 */
export async function startPostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: initdb and pg_ctl were not found (apt-get install postgresql, or set BURROW_PG_BIN)');
  const owner = postgresAccount();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-pg-'));
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
      if (fs.existsSync(path.join(data, 'postmaster.pid'))) run(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Gone already; the folder goes all the same.
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once('exit', stop);
  try {
    run(owner, path.join(bin, 'initdb'), ['-D', data, '-U', 'burrow', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
    const settings = [`-p ${port}`, `-k ${socket}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=200'].join(' ');
    run(owner, path.join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = path.join(dir, 'server.log');
    const detail = fs.existsSync(log) ? `\n${fs.readFileSync(log, 'utf8').slice(-2000)}` : '';
    stop();
    throw new Error(`${error.message}${detail}`);
  }
  const url = (database) => `postgres://burrow@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    port,
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database names here are lower-case words, got ${JSON.stringify(name)}`);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
  };
}

/**
 * A round-robin HTTP proxy on a free 127.0.0.1 port: each request, and each WebSocket upgrade,
 * goes to the next backend in turn. `served[i]` counts the answers backend i gave.
 */
export async function startProxy(backends) {
  const ports = [...backends];
  const served = ports.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set();
  let next = 0;
  const pick = () => next++ % ports.length;
  const statusLine = (response) => {
    const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
    for (let at = 0; at < response.rawHeaders.length; at += 2) lines.push(`${response.rawHeaders[at]}: ${response.rawHeaders[at + 1]}`);
    return lines.join('\r\n') + '\r\n\r\n';
  };

  const server = http.createServer((incoming, outgoing) => {
    const index = pick();
    const headers = { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '' };
    const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers, agent }, (response) => {
      served[index] += 1;
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
      response.on('error', () => outgoing.destroy());
    });
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (incoming, socket, head) => {
    const index = pick();
    const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers: incoming.headers });
    upstream.on('upgrade', (response, upstreamSocket, upstreamHead) => {
      served[index] += 1;
      socket.write(statusLine(response));
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('error', () => upstreamSocket.destroy());
    });
    upstream.on('response', (response) => {
      served[index] += 1;
      socket.write(statusLine(response));
      response.pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    upstream.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    served,
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
