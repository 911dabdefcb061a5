import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DirectStageBytes } from '../../storage/direct-io.js';
import { acquireTestCluster } from '../../test-support/postgres.js';
import { fileSha256, randomBytes, rawRequest, sha256, sleep, tusUrl, waitFor } from './tus.test-support.js';

// The real server in a child process, killed with SIGKILL in the middle of a transfer.
const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const mainFile = path.join(serverDir, 'src', 'main.ts');
const PASSWORD = 'kill-test-password-1';

let base: string;
let child: ChildProcess | undefined;
/** Servers started besides `child` (the second instance of a cluster). */
const others: ChildProcess[] = [];

let tsconfig: string;

beforeAll(() => {
  // The child runs the sources through tsx; point @burrow/protocol at its sources too, so no build
  // output (possibly stale, possibly being rebuilt) is involved.
  tsconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-kill-tsconfig-')), 'tsconfig.json');
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(serverDir, 'tsconfig.json'),
      compilerOptions: { paths: { '@burrow/protocol': [path.join(serverDir, '..', 'protocol', 'src', 'index.ts')] } },
    }),
  );
});
afterAll(() => {
  fs.rmSync(path.dirname(tsconfig), { recursive: true, force: true });
});

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-kill-'));
  fs.mkdirSync(path.join(base, 'root'));
});
afterEach(async () => {
  for (const running of [child, ...others.splice(0)]) {
    if (running && running.exitCode === null && running.signalCode === null) {
      running.kill('SIGKILL');
      await new Promise((resolve) => running.once('exit', resolve));
    }
  }
  child = undefined;
  fs.rmSync(base, { recursive: true, force: true });
});

/**
 * Starts `burrow serve` on a free port of 127.0.0.1 and resolves with that port. It becomes
 * `child`, unless `database` is given: then it is one more instance over that database.
 */
function startServer(database?: string): Promise<number> {
  const args = ['--import', 'tsx', mainFile, 'serve', '--root', path.join(base, 'root'), '--database', database ?? path.join(base, 'burrow.db'), '--cache-dir', path.join(base, 'cache'), '--address', '127.0.0.1', '--port', '0', '--log-level', 'info'];
  const started = spawn(process.execPath, args, { cwd: serverDir, env: { ...process.env, BURROW_ADMIN_PASSWORD: PASSWORD, TSX_TSCONFIG_PATH: tsconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (database) others.push(started);
  else child = started;
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    started.stdout!.on('data', onData);
    started.stderr!.on('data', onData);
    started.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

const stagingDir = () => path.join(base, 'cache', 'uploads');
const stagingSize = () => {
  const names = fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : [];
  return names.length === 1 ? fs.statSync(path.join(stagingDir(), names[0]!)).size : -1;
};

describe('SIGKILL during an override upload', () => {
  it('leaves the old file intact with nothing beside it, and the upload resumes after restart', async () => {
    const oldContent = randomBytes(1024 * 1024, 1);
    const target = path.join(base, 'root', 'movie.bin');
    fs.writeFileSync(target, oldContent);
    const data = randomBytes(8 * 1024 * 1024, 2);
    // More than a stage buffer holds, so that some of it is surely on disk when the server dies.
    const sent = 2 * DirectStageBytes;

    let port = await startServer();
    const login = await rawRequest(port, { method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ username: 'admin', password: PASSWORD })) });
    expect(login.status).toBe(200);
    const token = login.body;
    const created = await rawRequest(port, { method: 'POST', path: tusUrl('/movie.bin', true), headers: { 'x-auth': token, 'upload-length': data.length } });
    expect(created.status).toBe(201);

    let outgoing: http.ClientRequest | undefined;
    const transfer = rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/movie.bin'),
      headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': 0, 'content-length': data.length },
      body: (request) => {
        outgoing = request;
        request.on('error', () => undefined);
        request.write(data.subarray(0, sent));
      },
    });
    transfer.catch(() => undefined);
    await waitFor(() => stagingSize() > 0, 20_000, 'the first bytes on disk');
    expect(fileSha256(target)).toBe(sha256(oldContent));

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGKILL');
    await exited;
    outgoing?.destroy();

    expect(fileSha256(target)).toBe(sha256(oldContent));
    expect(fs.readdirSync(path.join(base, 'root'))).toEqual(['movie.bin']);
    // What was still gathered in memory died with the process: the upload goes on from what is on disk.
    const received = stagingSize();
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThanOrEqual(sent);

    port = await startServer();
    const head = await rawRequest(port, { method: 'HEAD', path: tusUrl('/movie.bin'), headers: { 'x-auth': token } });
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(received));
    expect(head.headers['upload-length']).toBe(String(data.length));
    const rest = await rawRequest(port, {
      method: 'PATCH',
      path: tusUrl('/movie.bin'),
      headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': received, 'content-length': data.length - received },
      body: data.subarray(received),
    });
    expect(rest.status).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(data.length));
    expect(fileSha256(target)).toBe(sha256(data));
    expect(fs.readdirSync(path.join(base, 'root'))).toEqual(['movie.bin']);
    expect(fs.readdirSync(stagingDir())).toEqual([]);
  }, 120_000);
});

describe('SIGKILL of one instance of a cluster during an upload', () => {
  it('lets the upload resume on another instance, from the recorded offset, once the dead one lets go', async () => {
    const cluster = await acquireTestCluster();
    try {
      const database = await cluster.createDatabase('kill');
      // A starts first (it creates the tables and the admin), then B over the same database,
      // root and cache folder.
      const portA = await startServer(database);
      const portB = await startServer(database);
      const a = others[0]!;
      const login = await rawRequest(portB, { method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ username: 'admin', password: PASSWORD })) });
      expect(login.status).toBe(200);
      const token = login.body;
      const data = randomBytes(8 * 1024 * 1024, 3);
      const first = 1024 * 1024;
      const patch = (port: number, offset: number, body: Buffer) =>
        rawRequest(port, {
          method: 'PATCH',
          path: tusUrl('/cluster.bin'),
          headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': offset, 'content-length': body.length },
          body,
        });
      expect((await rawRequest(portA, { method: 'POST', path: tusUrl('/cluster.bin', false), headers: { 'x-auth': token, 'upload-length': data.length } })).status).toBe(201);
      // One chunk through B is recorded; the next one, through A, dies with A part of the way in.
      expect((await patch(portB, 0, data.subarray(0, first))).status).toBe(204);
      const sent = first + 2 * DirectStageBytes;
      let outgoing: http.ClientRequest | undefined;
      const transfer = rawRequest(portA, {
        method: 'PATCH',
        path: tusUrl('/cluster.bin'),
        headers: { 'x-auth': token, 'content-type': 'application/offset+octet-stream', 'upload-offset': first, 'content-length': data.length - first },
        body: (request) => {
          outgoing = request;
          request.on('error', () => undefined);
          request.write(data.subarray(first, sent));
        },
      });
      transfer.catch(() => undefined);
      await waitFor(() => stagingSize() > first, 20_000, 'bytes of the second chunk on disk');
      const exited = new Promise((resolve) => a.once('exit', resolve));
      a.kill('SIGKILL');
      await exited;
      outgoing?.destroy();

      // B answers what was recorded; the dead instance's lease holds the upload a little longer.
      const head = await rawRequest(portB, { method: 'HEAD', path: tusUrl('/cluster.bin'), headers: { 'x-auth': token } });
      expect(head.headers['upload-offset']).toBe(String(first));
      const deadline = Date.now() + 30_000;
      let rest = await patch(portB, first, data.subarray(first));
      while (rest.status === 423 && Date.now() < deadline) {
        await sleep(500);
        rest = await patch(portB, first, data.subarray(first));
      }
      expect(rest.status).toBe(204);
      expect(rest.headers['upload-offset']).toBe(String(data.length));
      expect(fileSha256(path.join(base, 'root', 'cluster.bin'))).toBe(sha256(data));
      expect(fs.readdirSync(stagingDir())).toEqual([]);
    } finally {
      for (const running of others) if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
      await Promise.all(others.map((running) => (running.exitCode === null && running.signalCode === null ? new Promise((resolve) => running.once('exit', resolve)) : undefined)));
      others.splice(0);
      await cluster.release();
    }
  }, 180_000);
});
