#!/usr/bin/env node
// WebDAV throughput against the files API in the same run: one large file uploaded with a WebDAV
// PUT to /dav/ and with POST /api/resources, and downloaded with a WebDAV GET and GET /api/raw.
// The target is WebDAV at 0.8x of the API or better, both ways. Everything runs on 127.0.0.1 in
// a temporary folder that is removed at the end; every step has a time limit.
//
//   npm run bench:webdav -w bench -- [--size-mib 1024] [--runs 5] [--dir /dev/shm]

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const args = parseArgs(process.argv.slice(2));
const SIZE = Math.round(Number(args['size-mib'] ?? 1024) * MiB);
const RUNS = Number(args.runs ?? 5);
const STEP_TIMEOUT_MS = Number(args['timeout-s'] ?? 300) * 1000;
const TARGET = 0.8;
const PASSWORD = 'bench-admin-password-1';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(args.dir ?? os.tmpdir(), 'burrow-bench-webdav-'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
let burrowChild;
let burrowOutput = '';

function parseArgs(list) {
  const parsed = {};
  for (let index = 0; index < list.length; index++) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(list[index]);
    if (!match) continue;
    parsed[match[1]] = match[2] ?? (list[index + 1] && !list[index + 1].startsWith('--') ? list[++index] : 'true');
  }
  return parsed;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms)))]).finally(() => clearTimeout(timer));
}

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

/** A random block repeated with a counter, so nothing compresses or dedups. */
function makeSourceFile(file, size) {
  const block = crypto.randomBytes(4 * MiB);
  const fd = fs.openSync(file, 'w');
  try {
    for (let written = 0, index = 0; written < size; index++) {
      const length = Math.min(block.length, size - written);
      block.writeUInt32LE(index, 0);
      fs.writeSync(fd, block, 0, length, written);
      written += length;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function sha256File(file) {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    fs.createReadStream(file, { highWaterMark: 4 * MiB })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/**
 * One request. `upload` streams the source file as the body; the response body is hashed (for
 * downloads) and counted, never kept.
 */
function request(port, { method, path: urlPath, headers = {}, upload, hash = false }) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent }, (response) => {
      const digest = hash ? crypto.createHash('sha256') : undefined;
      let bytes = 0;
      let text = '';
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (digest) digest.update(chunk);
        else if (text.length < 4096) text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text, bytes, sha256: digest?.digest('hex') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    if (upload) fs.createReadStream(upload, { highWaterMark: 1 * MiB }).on('error', reject).pipe(outgoing);
    else outgoing.end();
  });
}

async function startBurrow() {
  const port = await freePort();
  const root = path.join(work, 'burrow-root');
  fs.mkdirSync(root, { recursive: true });
  burrowChild = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repo, 'server', 'src', 'main.ts'), 'serve', '--root', root, '--database', path.join(work, 'burrow.db'), '--cache-dir', path.join(work, 'burrow-cache'), '--address', '127.0.0.1', '--port', String(port), '--log-level', 'warn'],
    { cwd: path.join(repo, 'server'), env: { ...process.env, BURROW_ADMIN_PASSWORD: PASSWORD }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  burrowChild.stdout.on('data', (chunk) => (burrowOutput = (burrowOutput + chunk).slice(-4000)));
  burrowChild.stderr.on('data', (chunk) => (burrowOutput = (burrowOutput + chunk).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (burrowChild.exitCode !== null) throw new Error(`burrow exited early (${burrowChild.exitCode})`);
    const health = await request(port, { method: 'GET', path: '/health' }).catch(() => undefined);
    if (health?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const body = JSON.stringify({ username: 'admin', password: PASSWORD });
  const token = await new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, agent }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`login failed: ${response.statusCode} ${text}`))));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  return { port, root, token };
}

function expectStatus(response, statuses, what) {
  if (!statuses.includes(response.status)) throw new Error(`${what}: got ${response.status} ${response.body}`);
}

/** CPU seconds (user + system) the server process has used so far (Linux; 0 elsewhere). */
function serverCpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mibPerSecond = (seconds) => SIZE / MiB / seconds;

async function main() {
  console.log(`WebDAV benchmark: ${(SIZE / MiB).toFixed(0)} MiB file, ${RUNS} run(s) each, ${os.cpus().length} CPUs, files in ${work}`);
  const source = path.join(work, 'source.bin');
  makeSourceFile(source, SIZE);
  const expected = await sha256File(source);
  const burrow = await startBurrow();
  const api = { 'x-auth': burrow.token };
  const dav = { authorization: BASIC };

  const steps = [
    ['API upload: POST /api/resources', async () => {
      const response = await request(burrow.port, { method: 'POST', path: '/api/resources/api.bin?override=true', headers: { ...api, 'content-length': SIZE, 'content-type': 'application/octet-stream' }, upload: source });
      expectStatus(response, [200], 'POST /api/resources');
      return path.join(burrow.root, 'api.bin');
    }],
    ['WebDAV upload: PUT /dav/', async () => {
      const response = await request(burrow.port, { method: 'PUT', path: '/dav/dav.bin', headers: { ...dav, 'content-length': SIZE }, upload: source });
      expectStatus(response, [201, 204], 'WebDAV PUT');
      return path.join(burrow.root, 'dav.bin');
    }],
    ['API download: GET /api/raw', async () => {
      const response = await request(burrow.port, { method: 'GET', path: '/api/raw/api.bin', headers: api, hash: true });
      expectStatus(response, [200], 'GET /api/raw');
      return response;
    }],
    ['WebDAV download: GET /dav/', async () => {
      const response = await request(burrow.port, { method: 'GET', path: '/dav/dav.bin', headers: dav, hash: true });
      expectStatus(response, [200], 'WebDAV GET');
      return response;
    }],
  ];

  // Each pair (API, WebDAV) runs back to back, in alternating order from run to run, so a busy
  // moment on the machine or a warm cache favours neither; the ratio is taken per pair.
  const samples = steps.map(() => []);
  const cpu = steps.map(() => []);
  const ratios = { upload: [], download: [] };
  const timeStep = async (index, run) => {
    const [label, step] = steps[index];
    // Each transfer starts on a quiet disk: what the one before left to write is flushed first.
    spawnSync('sync', { timeout: STEP_TIMEOUT_MS });
    const cpuBefore = serverCpuSeconds(burrowChild.pid);
    const started = process.hrtime.bigint();
    const result = await withTimeout(step(), STEP_TIMEOUT_MS, label);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    samples[index].push(seconds);
    cpu[index].push(serverCpuSeconds(burrowChild.pid) - cpuBefore);
    const digest = typeof result === 'string' ? (run === 0 ? await sha256File(result) : expected) : result.sha256;
    if (digest !== expected) throw new Error(`${label}: the bytes differ from the source`);
    return seconds;
  };
  for (let run = 0; run < RUNS; run++) {
    for (const [direction, apiIndex, davIndex] of [['upload', 0, 1], ['download', 2, 3]]) {
      const order = run % 2 === 0 ? [apiIndex, davIndex] : [davIndex, apiIndex];
      const times = {};
      for (const index of order) times[index] = await timeStep(index, run);
      ratios[direction].push(times[apiIndex] / times[davIndex]);
    }
  }
  const seconds = samples.map(median);
  console.log('');
  console.log('transfer                              median s   MiB/s   server CPU s   runs (s)');
  for (const [index, [label]] of steps.entries()) {
    console.log(
      `${label.padEnd(36)} ${seconds[index].toFixed(2).padStart(9)} ${mibPerSecond(seconds[index]).toFixed(0).padStart(7)} ${median(cpu[index]).toFixed(2).padStart(14)}   ${samples[index].map((value) => value.toFixed(2)).join(' ')}`,
    );
  }
  const upload = median(ratios.upload);
  const download = median(ratios.download);
  console.log('');
  console.log(`WebDAV / API throughput, median of the pairs: upload ${upload.toFixed(2)}x (${ratios.upload.map((value) => value.toFixed(2)).join(' ')}), download ${download.toFixed(2)}x (${ratios.download.map((value) => value.toFixed(2)).join(' ')}); target ${TARGET}x or better`);
  if (upload < TARGET || download < TARGET) {
    console.log('below target');
    process.exitCode = 1;
  }
}

async function cleanup() {
  agent.destroy();
  if (burrowChild && burrowChild.exitCode === null && burrowChild.signalCode === null) {
    burrowChild.kill('SIGTERM');
    await withTimeout(new Promise((resolve) => burrowChild.once('exit', resolve)), 10_000, 'burrow exit').catch(() => burrowChild.kill('SIGKILL'));
  }
  fs.rmSync(work, { recursive: true, force: true });
}

main()
  .catch((error) => {
    console.error(`bench failed: ${error.message}`);
    if (burrowOutput) console.error(`--- burrow output ---\n${burrowOutput}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
