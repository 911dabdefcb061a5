#!/usr/bin/env node
// Memory benchmark: the built server on a fresh temporary root of 300,000 entries (1,000 folders
// of 300), sampled once the search index is built and the process is idle, then again after a
// round of load (listings, searches, previews of the tree, archives in all nine formats) has
// finished and the server has settled. Each sample says where the memory goes: resident set
// (anonymous and file-backed), V8 heap committed and used, memory outside the heap (external,
// array buffers), and what is left for native allocations (SQLite, malloc arenas, thread
// stacks, the node binary). A bare `node` process idling in the same run is the floor.
//
//   node bench/memory.mjs        BENCH_MEMORY_ENTRIES=300000 BENCH_MEMORY_ROUNDS=1
//                                BENCH_MEMORY_NODE_ARGS="--max-semi-space-size=1" (extra flags)
//                                BENCH_MEMORY_ENV="MALLOC_ARENA_MAX=2" (extra environment)
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib/burrow.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const env = process.env;
const ENTRIES = Number(env.BENCH_MEMORY_ENTRIES ?? 300_000);
const PER_FOLDER = 300;
const ROUNDS = Number(env.BENCH_MEMORY_ROUNDS ?? 1);
const NODE_ARGS = (env.BENCH_MEMORY_NODE_ARGS ?? '').split(' ').filter(Boolean);
const EXTRA_ENV = Object.fromEntries((env.BENCH_MEMORY_ENV ?? '').split(' ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
// Seconds the server is left alone once idle before it is sampled (it collects and trims what
// the last burst of work left behind after a few quiet seconds).
const SETTLE_S = Number(env.BENCH_MEMORY_SETTLE_S ?? 15);
const IDLE_TARGET_MB = 80;
const AFTER_TARGET_MB = 100;
const DEADLINE_MS = Number(env.BENCH_DEADLINE_S ?? 1800) * 1000;
const PASSWORD = 'bench-password-' + crypto.randomBytes(6).toString('hex');
const MB = 1e6;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-memory-'));
const root = path.join(work, 'root');
const children = [];

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

async function cleanup() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  log(`deadline of ${DEADLINE_MS / 1000} s reached, stopping`);
  cleanup().finally(() => process.exit(2));
}, DEADLINE_MS);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cleanup().finally(() => process.exit(130)));


/** One request over loopback; resolves with the status and the body (as text unless `discard`). */
function request(port, { method = 'GET', urlPath, headers = {}, body, discard = false }) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers, agent: false }, (response) => {
      const chunks = [];
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (!discard) chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, bytes, body: discard ? '' : Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    outgoing.setTimeout(300_000, () => outgoing.destroy(new Error(`timeout on ${urlPath}`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function writeTree() {
  const started = Date.now();
  let made = 0;
  for (let folder = 0; made < ENTRIES; folder++) {
    const dir = path.join(root, `area-${String(folder % 20).padStart(2, '0')}`, `folder-${String(folder).padStart(4, '0')}`);
    fs.mkdirSync(dir, { recursive: true });
    made++;
    for (let file = 0; file < PER_FOLDER - 1 && made < ENTRIES; file++, made++) fs.writeFileSync(path.join(dir, `document-${file}.txt`), `row ${file} of folder ${folder}\n`);
  }
  log(`${made} entries written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** CPU time (user + system) a process has used so far, in clock ticks. */
function cpuTicksOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until a process has used under 5% of a core for three seconds in a row (at most `ms`). */
async function waitUntilIdle(pid, ms = 300_000) {
  const started = Date.now();
  let quiet = 0;
  let last = cpuTicksOf(pid);
  while (quiet < 3 && Date.now() - started < ms) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuTicksOf(pid);
    quiet = now - last < 5 ? quiet + 1 : 0;
    last = now;
  }
  return (Date.now() - started) / 1000;
}

/** Asks the probe in `child` for its figures (SIGUSR2) and reads the file it writes. */
async function askMemory(child) {
  const file = child.probeFile;
  fs.rmSync(file, { force: true });
  child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error('the server did not report its memory');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

let probes = 0;
/** Where a probed process writes its figures; set in its environment as BURROW_MEMORY_PROBE_FILE. */
const probeFile = () => path.join(work, `probe-${++probes}.json`);

/** The median of five samples a second apart, by resident set size. */
async function sample(child) {
  const samples = [];
  for (let index = 0; index < 5; index++) {
    samples.push(await askMemory(child));
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  samples.sort((a, b) => a.rss - b.rss);
  return samples[2];
}

async function startBurrow() {
  const port = await freePort();
  const entry = path.join(repo, 'server', 'dist', 'main.js');
  if (!fs.existsSync(entry)) throw new Error('server/dist/main.js is missing: run `npm run build` first');
  const file = probeFile();
  const child = spawn(process.execPath, [...NODE_ARGS, '--import', path.join(here, 'memory-probe.mjs'), entry, 'serve'], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...env,
      ...EXTRA_ENV,
      BURROW_MEMORY_PROBE_FILE: file,
      BURROW_ROOT: root,
      BURROW_PORT: String(port),
      BURROW_ADDRESS: '127.0.0.1',
      BURROW_DATABASE: path.join(work, 'burrow.db'),
      BURROW_CACHE_DIR: path.join(work, 'cache'),
      BURROW_LOG_LEVEL: 'warn',
      BURROW_ADMIN_PASSWORD: PASSWORD,
    },
  });
  child.probeFile = file;
  children.push(child);
  const started = Date.now();
  // Ready once the database answers and the first index build is complete.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const ready = await request(port, { urlPath: '/health/ready' });
      if (ready.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 600_000) throw new Error('the search index was not built within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const indexedAfterS = (Date.now() - started) / 1000;
  log(`index built after ${indexedAfterS.toFixed(1)} s`);
  const body = JSON.stringify({ username: 'admin', password: PASSWORD });
  const login = await request(port, { method: 'POST', urlPath: '/api/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, body });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`);
  return { port, child, token: login.body, indexedAfterS };
}

/** A bare Node process doing nothing: the floor every Node server starts from. */
async function bareNode() {
  const file = probeFile();
  const child = spawn(process.execPath, [...NODE_ARGS, '--import', path.join(here, 'memory-probe.mjs'), '-e', 'setInterval(() => {}, 1 << 30)'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...env, ...EXTRA_ENV, BURROW_MEMORY_PROBE_FILE: file },
  });
  child.probeFile = file;
  children.push(child);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const memory = await sample(child);
  child.kill('SIGTERM');
  return memory;
}

/** Runs `tasks` (functions returning promises) with at most `limit` at a time. */
async function pooled(tasks, limit) {
  let next = 0;
  async function worker() {
    while (next < tasks.length) await tasks[next++]();
  }
  await Promise.all(Array.from({ length: limit }, worker));
}

async function load(burrow) {
  const headers = { 'x-auth': burrow.token };
  const check = (what) => (response) => {
    if (response.status !== 200) throw new Error(`${what} answered ${response.status}`);
    return response;
  };
  const folders = Math.ceil(ENTRIES / PER_FOLDER);
  const tasks = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let folder = round; folder < folders; folder += 5) {
      const name = `area-${String(folder % 20).padStart(2, '0')}/folder-${String(folder).padStart(4, '0')}`;
      tasks.push(() => request(burrow.port, { urlPath: `/api/resources/${name}/`, headers, discard: true }).then(check(`listing ${name}`)));
    }
    for (let area = 0; area < 20; area++) tasks.push(() => request(burrow.port, { urlPath: `/api/resources/area-${String(area).padStart(2, '0')}/`, headers, discard: true }).then(check('area listing')));
    for (const query of ['document-17', 'folder-04', 'ment-29', 'type:text row', '12']) {
      tasks.push(() => request(burrow.port, { urlPath: `/api/search/?query=${encodeURIComponent(query)}`, headers, discard: true }).then(check(`search ${query}`)));
    }
    for (const algo of ['zip', 'tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst']) {
      tasks.push(() => request(burrow.port, { urlPath: `/api/raw/area-0${round % 10}/?algo=${algo}`, headers, discard: true }).then(check(`archive ${algo}`)));
    }
  }
  const started = Date.now();
  await pooled(tasks, 4);
  return { requests: tasks.length, seconds: (Date.now() - started) / 1000 };
}

function describe(memory) {
  const heapCommitted = memory.heapTotal;
  // What is neither V8's heap nor buffers it knows of: SQLite, malloc arenas and their free
  // space, thread stacks, native modules' own allocations.
  const nativeAnon = Math.max(0, memory.rssAnon - heapCommitted - memory.arrayBuffers);
  return {
    rssMB: memory.rss / MB,
    rssAnonMB: memory.rssAnon / MB,
    rssFileMB: memory.rssFile / MB,
    heapCommittedMB: heapCommitted / MB,
    heapUsedMB: memory.heapUsed / MB,
    externalMB: memory.external / MB,
    arrayBuffersMB: memory.arrayBuffers / MB,
    nativeAnonMB: nativeAnon / MB,
    threads: memory.threads,
    spacesMB: Object.fromEntries(Object.entries(memory.spaces).map(([name, space]) => [name, Number((space.size / MB).toFixed(1))])),
  };
}

function table(results) {
  const columns = ['rssMB', 'rssAnonMB', 'rssFileMB', 'heapCommittedMB', 'heapUsedMB', 'externalMB', 'arrayBuffersMB', 'nativeAnonMB', 'threads'];
  const titles = ['Sample', 'RSS', 'anon', 'file', 'heap', 'heap used', 'external', 'buffers', 'native', 'threads', 'Target', 'Met'];
  const rows = [titles];
  const row = (name, memory, target) => [name, ...columns.map((column) => (column === 'threads' ? String(memory[column]) : memory[column].toFixed(1))), target ? `RSS ≤ ${target} MB` : '-', target ? (memory.rssMB <= target ? 'yes' : 'no') : '-'];
  rows.push(row('bare node (floor)', results.bareNode));
  rows.push(row(`idle, ${results.entries} entries indexed`, results.idle, IDLE_TARGET_MB));
  rows.push(row(`idle after ${results.load.requests} requests`, results.afterLoad, AFTER_TARGET_MB));
  const widths = titles.map((_, column) => Math.max(...rows.map((cells) => String(cells[column]).length)));
  return rows
    .map((cells, index) => {
      const line = '| ' + cells.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ') + ' |';
      return index === 0 ? line + '\n|' + widths.map((width) => '-'.repeat(width + 2)).join('|') + '|' : line;
    })
    .join('\n');
}

async function main() {
  log(`work folder ${work}`);
  writeTree();
  const floor = describe(await bareNode());
  const burrow = await startBurrow();
  const settledS = await waitUntilIdle(burrow.child.pid);
  log(`idle ${settledS.toFixed(0)} s after the index was built`);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const idle = describe(await sample(burrow.child));
  log(`idle: RSS ${idle.rssMB.toFixed(1)} MB`);
  const loadResult = await load(burrow);
  log(`load: ${loadResult.requests} requests in ${loadResult.seconds.toFixed(1)} s`);
  const peakMB = (await askMemory(burrow.child)).hwm / MB;
  await waitUntilIdle(burrow.child.pid);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const afterLoad = describe(await sample(burrow.child));
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, memoryGiB: Math.round(os.totalmem() / 2 ** 30), loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))) },
    nodeArgs: NODE_ARGS,
    extraEnv: EXTRA_ENV,
    entries: ENTRIES,
    indexedAfterS: burrow.indexedAfterS,
    bareNode: floor,
    idle,
    load: loadResult,
    peakRssMB: peakMB,
    afterLoad,
  };
  const folder = path.join(here, 'results');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `memory-${results.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(
    table(results) +
      '\n\n' +
      `MB = 10^6 bytes. heap: V8 heap committed; native: anonymous memory outside the V8 heap and array buffers (SQLite, malloc, thread stacks).\n` +
      `peak RSS during the load ${peakMB.toFixed(0)} MB; index built in ${burrow.indexedAfterS.toFixed(0)} s; load average ${results.machine.loadAverage.join(' ')} on ${results.machine.cpus} cores; results: ${path.relative(repo, file)}\n`,
  );
}

main()
  .catch((error) => {
    process.stderr.write(`[bench] failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    clearTimeout(deadline);
    await cleanup();
  });
