#!/usr/bin/env node
// Load benchmark: many concurrent clients (500 by default) for a fixed time (60 s) against one
// Burrow on 127.0.0.1, each on its own keep-alive connection, running a mixed workload back to
// back: folder listings, small and 100 MiB downloads, small uploads (POST and PUT
// /api/resources), tus uploads in chunks, searches, thumbnails and a share link's page and
// downloads. Every downloaded byte is checked (small files by checksum, the big one against the
// bytes written), and every uploaded file is read back from the disk afterwards and compared
// with what was sent.
//
// The same run is then repeated with one slow reader more per ten clients: each reads the
// 100 MiB file at 64 KiB/s for the whole run. Their presence must not raise the others' p99
// latency by more than 2x. Server RSS is sampled through both runs. An unmeasured warm-up run
// (20 s) comes first, so that both measured runs start alike: after a run of the same load and
// the same pause, with caches (thumbnails, compiled code) in the same state. Without it the
// first run met cold caches and the second the restart after a quiet spell, and whichever that
// cost most in a given request kind decided the ratio.
//
//   npm run bench:load -w bench -- [--seconds 60] [--clients 500] [--quick] [--slow-every 10]
//        [--slow-kib-s 64] [--big-mib 100] [--max-rss-mib 1024] [--runs base,slow] [--warm-s 20]
//        [--runtime dist|tsx] [--no-build] [--dir /dev/shm] [--keep] [--without 'upload POST,tus']
//
// --quick: 10 s, 50 clients and a 20 MiB big file. Only 127.0.0.1 is contacted; the data lives in
// a temporary folder removed at the end; the whole benchmark has a deadline and stops by itself.

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from 'undici';
import {
  MiB,
  buildServer,
  cleanup,
  cpuSecondsOf,
  machine,
  makeWorkFolder,
  parseArgs,
  quantile,
  repo,
  request,
  runBench,
  sampleRss,
  sleep,
  startBurrow,
  waitUntilIdle,
} from './lib/burrow.mjs';

const args = parseArgs(process.argv.slice(2));
const QUICK = args.quick === 'true';
const SECONDS = Number(args.seconds ?? (QUICK ? 10 : 60));
const CLIENTS = Number(args.clients ?? (QUICK ? 50 : 500));
const SLOW_EVERY = Number(args['slow-every'] ?? 10);
const SLOW_RATE = Number(args['slow-kib-s'] ?? 64) * 1024;
const BIG_SIZE = Math.round(Number(args['big-mib'] ?? (QUICK ? 20 : 100)) * MiB);
const MAX_RSS = Number(args['max-rss-mib'] ?? 1024) * MiB;
const MAX_P99_RATIO = 2;
const RUNS = (args.runs ?? 'base,slow').split(',');
const WARM_SECONDS = Number(args['warm-s'] ?? (QUICK ? 3 : 20));
const REQUEST_TIMEOUT_MS = Number(args['timeout-s'] ?? 30) * 1000;
const BIG_TIMEOUT_MS = Math.max(REQUEST_TIMEOUT_MS, 120_000);
for (const [name, value] of Object.entries({ SECONDS, CLIENTS, SLOW_EVERY, SLOW_RATE, BIG_SIZE, MAX_RSS })) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
}
for (const run of RUNS) if (run !== 'base' && run !== 'slow') throw new Error(`--runs takes base and slow, not ${run}`);
if (!Number.isFinite(WARM_SECONDS) || WARM_SECONDS < 0) throw new Error('--warm-s must be a number of seconds, 0 for none');

const log = (message) => process.stderr.write(`[load] ${message}\n`);
const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const between = (low, high) => low + Math.floor(Math.random() * (high - low + 1));
const encodePath = (virtual) => virtual.split('/').map(encodeURIComponent).join('/');

// --- data set -------------------------------------------------------------------------------

const LIST_ENTRIES = 300;
const SMALL_FILES = 200;
const IMAGES = 24;
const SHARED_FILES = 24;
const WORDS = ['alpha', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper'];

const BIG_BLOCK = 4 * MiB;

/**
 * Whether `chunk`, found at `position` in the big file, holds the bytes written there: `block`
 * over and over, each copy starting with its index. Compared as memory (several GB/s), not hashed
 * (a fraction of that): at 500 clients the big downloads bring the bench some 400 MB/s, and
 * hashing them took most of a core from the one process that also times every request.
 */
function bigFileMatches(block, chunk, position) {
  const index = Buffer.alloc(4);
  for (let done = 0; done < chunk.length; ) {
    const at = position + done;
    const number = Math.floor(at / BIG_BLOCK);
    const within = at - number * BIG_BLOCK;
    const take = Math.min(chunk.length - done, BIG_BLOCK - within);
    let skip = 0;
    if (within < 4) {
      index.writeUInt32LE(number, 0);
      skip = Math.min(4 - within, take);
      if (!chunk.subarray(done, done + skip).equals(index.subarray(within, within + skip))) return false;
    }
    if (!chunk.subarray(done + skip, done + take).equals(block.subarray(within + skip, within + take))) return false;
    done += take;
  }
  return true;
}

/** The check must pass the file as written, read in uneven pieces, and fail it with one byte changed. */
function checkBigFileCheck(file, block) {
  const content = fs.readFileSync(file);
  const piece = 1_000_003;
  for (let position = 0; position < content.length; position += piece) {
    if (!bigFileMatches(block, content.subarray(position, position + piece), position)) throw new Error(`the big file's check fails its own bytes at ${position}`);
  }
  for (const position of [0, 2, 4, BIG_BLOCK + 1, content.length - 1]) {
    if (position >= content.length) continue;
    const changed = Buffer.from(content.subarray(Math.max(0, position - 10), position + 10));
    changed[position - Math.max(0, position - 10)] ^= 1;
    if (bigFileMatches(block, changed, Math.max(0, position - 10))) throw new Error(`the big file's check misses a changed byte at ${position}`);
  }
}

/**
 * Writes the tree Burrow serves; returns the checksums of every file a client downloads, and how
 * to check the big file's bytes as they arrive.
 */
async function writeDataSet(root) {
  const sums = new Map();
  const write = (virtual, content) => {
    fs.mkdirSync(path.dirname(path.join(root, virtual)), { recursive: true });
    fs.writeFileSync(path.join(root, virtual), content);
    sums.set(virtual, sha256(content));
  };
  for (let index = 0; index < LIST_ENTRIES; index++) write(`/list/${pick(WORDS)}-${String(index).padStart(4, '0')}.txt`, `entry ${index}\n`);
  for (let index = 0; index < SMALL_FILES; index++) write(`/small/${WORDS[index % WORDS.length]}-${index}.bin`, crypto.randomBytes(between(4, 64) * 1024));
  for (let index = 0; index < SHARED_FILES; index++) write(`/shared/doc-${index}.bin`, crypto.randomBytes(between(8, 32) * 1024));
  // The big file: incompressible, written in blocks.
  const block = crypto.randomBytes(BIG_BLOCK);
  const fd = fs.openSync(path.join(root, 'big.bin'), 'w');
  for (let written = 0, index = 0; written < BIG_SIZE; index++) {
    const length = Math.min(block.length, BIG_SIZE - written);
    block.writeUInt32LE(index, 0);
    fs.writeSync(fd, block, 0, length);
    written += length;
  }
  fs.closeSync(fd);
  checkBigFileCheck(path.join(root, 'big.bin'), block);
  // Photos for thumbnails: noise, so every thumbnail is real work the first time.
  const { default: sharp } = await import('sharp');
  fs.mkdirSync(path.join(root, 'img'), { recursive: true });
  for (let index = 0; index < IMAGES; index++) {
    await sharp(crypto.randomBytes(640 * 480 * 3), { raw: { width: 640, height: 480, channels: 3 } })
      .jpeg({ quality: 80 })
      .toFile(path.join(root, 'img', `photo-${index}.jpg`));
  }
  fs.mkdirSync(path.join(root, 'up'), { recursive: true });
  const bigCheck = (chunk, position) => bigFileMatches(block, chunk, position);
  return { sums, bigCheck };
}

// --- measures -------------------------------------------------------------------------------

class Stats {
  constructor() {
    this.kinds = new Map();
    this.failures = [];
  }
  kind(name) {
    let entry = this.kinds.get(name);
    if (!entry) this.kinds.set(name, (entry = { latencies: [], errors: 0, bytes: 0 }));
    return entry;
  }
  ok(name, ms, bytes = 0) {
    const entry = this.kind(name);
    entry.latencies.push(ms);
    entry.bytes += bytes;
  }
  error(name, message) {
    this.kind(name).errors++;
    if (this.failures.length < 50) this.failures.push(`${name}: ${message}`);
  }
}

class RequestError extends Error {}

/**
 * One request on a client's own connection; rejects on a status other than `expect`, a timeout
 * or a network error. Resolves with the status, headers, and the body's checksum (or text, or
 * whether `check(chunk, position)` held for every chunk).
 */
async function call(client, { method = 'GET', path: urlPath, headers = {}, body, expect = [200], text = false, check, timeoutMs = REQUEST_TIMEOUT_MS }) {
  const signal = AbortSignal.timeout(timeoutMs);
  let response;
  try {
    response = await client.request({ method, path: urlPath, headers, body, signal });
  } catch (error) {
    throw new RequestError(signal.aborted ? `timed out after ${timeoutMs} ms` : `${error.code ?? error.name}: ${error.message}`);
  }
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  let content = '';
  let matches = true;
  try {
    for await (const chunk of response.body) {
      if (text) content += chunk;
      else if (check) matches &&= check(chunk, bytes);
      else hash.update(chunk);
      bytes += chunk.length;
    }
  } catch (error) {
    throw new RequestError(signal.aborted ? `body timed out after ${timeoutMs} ms` : `body: ${error.code ?? error.name}: ${error.message}`);
  }
  if (!expect.includes(response.statusCode)) throw new RequestError(`status ${response.statusCode} ${content.slice(0, 200)}`);
  return { status: response.statusCode, headers: response.headers, bytes, sha256: check ? undefined : hash.digest('hex'), matches, text: content };
}

// --- the workload ---------------------------------------------------------------------------

/** Request kinds and their weights in the mix. */
const MIX = [
  ['list', 14],
  ['download small', 22],
  ['download 100 MiB', 1],
  ['upload POST', 12],
  ['upload PUT', 5],
  ['tus', 8],
  ['search', 8],
  ['thumbnail', 12],
  ['share page', 8],
  ['share download', 10],
];
/** Kinds as reported: tus uploads are measured per request (creation, then each chunk). */
const KIND_ORDER = MIX.flatMap(([kind]) => (kind === 'tus' ? ['tus create', 'tus chunk'] : [kind]));
// --without leaves kinds out of the mix (to find which of them loads the server).
const WITHOUT = new Set((args.without ?? '').split(',').filter(Boolean));
for (const kind of WITHOUT) if (!MIX.some(([name]) => name === kind)) throw new Error(`--without: no kind named ${kind}`);
for (const entry of MIX) if (WITHOUT.has(entry[0])) entry[1] = 0;
const TOTAL_WEIGHT = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function pickKind() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [kind, weight] of MIX) if ((roll -= weight) < 0) return kind;
  return MIX[0][0];
}

/**
 * One client: its own connection, requests back to back until `until`. Uploads are recorded in
 * `uploads` (virtual path → checksum of the last content the server accepted).
 */
async function runClient(id, context, until, stats, uploads) {
  const { port, token, sums, bigCheck, shareHash, runName } = context;
  const client = new Client(`http://127.0.0.1:${port}`, { pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 0, bodyTimeout: 0 });
  const auth = { 'x-auth': token };
  const own = [];
  let serial = 0;
  const smallFiles = [...sums.keys()].filter((key) => key.startsWith('/small/'));
  const sharedFiles = [...sums.keys()].filter((key) => key.startsWith('/shared/'));
  const step = async (kind) => {
    const started = performance.now();
    const time = (bytes) => stats.ok(kind, performance.now() - started, bytes);
    switch (kind) {
      case 'list': {
        const result = await call(client, { path: '/api/resources/list/', headers: auth, text: true });
        const items = JSON.parse(result.text).items;
        if (items?.length !== LIST_ENTRIES) throw new RequestError(`listing has ${items?.length} entries, not ${LIST_ENTRIES}`);
        return time(result.bytes);
      }
      case 'download small': {
        const virtual = pick(smallFiles);
        const result = await call(client, { path: `/api/raw${encodePath(virtual)}`, headers: auth });
        if (result.sha256 !== sums.get(virtual)) throw new RequestError(`${virtual}: ${result.bytes} bytes received, checksum differs`);
        return time(result.bytes);
      }
      case 'download 100 MiB': {
        const result = await call(client, { path: '/api/raw/big.bin', headers: auth, check: bigCheck, timeoutMs: BIG_TIMEOUT_MS });
        if (!result.matches || result.bytes !== BIG_SIZE) throw new RequestError(`/big.bin: ${result.bytes} bytes received, ${result.matches ? 'short' : 'content differs'}`);
        return time(result.bytes);
      }
      case 'upload POST': {
        const virtual = `/up/${runName}-c${id}-${serial++}.bin`;
        const content = crypto.randomBytes(between(1, 32) * 1024);
        await call(client, { method: 'POST', path: `/api/resources${virtual}?override=true`, headers: { ...auth, 'content-type': 'application/octet-stream' }, body: content });
        uploads.set(virtual, sha256(content));
        own.push(virtual);
        return time(content.length);
      }
      case 'upload PUT': {
        if (own.length === 0) return step('upload POST');
        const virtual = pick(own);
        const content = crypto.randomBytes(between(1, 32) * 1024);
        // Until the server answers, either content may be on the disk: none is expected.
        uploads.set(virtual, null);
        await call(client, { method: 'PUT', path: `/api/resources${virtual}`, headers: { ...auth, 'content-type': 'application/octet-stream' }, body: content });
        uploads.set(virtual, sha256(content));
        return time(content.length);
      }
      case 'tus': {
        const virtual = `/up/${runName}-c${id}-${serial++}-tus.bin`;
        const content = crypto.randomBytes(between(32, 256) * 1024);
        const tus = { ...auth, 'tus-resumable': '1.0.0' };
        const created = await call(client, { method: 'POST', path: `/api/tus${virtual}?override=true`, headers: { ...tus, 'upload-length': String(content.length) }, expect: [201] });
        stats.ok('tus create', performance.now() - started);
        const location = new URL(created.headers.location, `http://127.0.0.1:${port}`).pathname;
        const half = Math.ceil(content.length / 2);
        for (const [start, end] of [[0, half], [half, content.length]]) {
          const chunkStarted = performance.now();
          const patched = await call(client, { method: 'PATCH', path: location, headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(start) }, body: content.subarray(start, end), expect: [204] });
          if (Number(patched.headers['upload-offset']) !== end) throw new RequestError(`tus offset ${patched.headers['upload-offset']}, expected ${end}`);
          stats.ok('tus chunk', performance.now() - chunkStarted, end - start);
        }
        uploads.set(virtual, sha256(content));
        return;
      }
      case 'search': {
        const word = pick(WORDS);
        const result = await call(client, { path: `/api/search/list/?query=${word}`, headers: auth, text: true });
        const found = result.text.split('\n').filter((line) => line.trim()).length;
        if (found === 0) throw new RequestError(`search for ${word} found nothing`);
        return time(result.bytes);
      }
      case 'thumbnail': {
        const result = await call(client, { path: `/api/preview/thumb/img/photo-${between(0, IMAGES - 1)}.jpg`, headers: auth });
        if (result.bytes < 100) throw new RequestError(`thumbnail of ${result.bytes} bytes`);
        return time(result.bytes);
      }
      case 'share page': {
        const result = await call(client, { path: `/api/public/share/${shareHash}`, text: true });
        if (JSON.parse(result.text).items?.length !== SHARED_FILES) throw new RequestError('the shared folder lists the wrong entries');
        return time(result.bytes);
      }
      case 'share download': {
        const virtual = pick(sharedFiles);
        const result = await call(client, { path: `/api/public/dl/${shareHash}/${encodeURIComponent(path.basename(virtual))}` });
        if (result.sha256 !== sums.get(virtual)) throw new RequestError(`${virtual} through the share: checksum differs`);
        return time(result.bytes);
      }
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  };
  try {
    while (performance.now() < until) {
      const kind = pickKind();
      try {
        await step(kind);
      } catch (error) {
        stats.error(kind === 'tus' ? 'tus chunk' : kind, error.message);
        // A connection that failed is replaced, as a browser would.
        if (!(error instanceof RequestError) || /timed out|ECONNRESET|socket|closed/i.test(error.message)) {
          await client.destroy().catch(() => {});
          return runClient(id, context, until, stats, uploads);
        }
      }
    }
  } finally {
    await client.close().catch(() => client.destroy());
  }
}

/**
 * A slow reader: downloads the big file and reads it at `rate` bytes a second until `until`,
 * then goes away. It pauses the response (so the kernel's buffers fill and the server's sends
 * stall), as a client on a slow line does.
 */
function runSlowReader(context, until, rate, slow) {
  return new Promise((resolve) => {
    const started = performance.now();
    let received = 0;
    let timer;
    const outgoing = http.get({ host: '127.0.0.1', port: context.port, path: '/api/raw/big.bin', headers: { 'x-auth': context.token }, agent: false }, (response) => {
      if (response.statusCode !== 200) slow.errors.push(`status ${response.statusCode}`);
      response.on('data', (chunk) => {
        received += chunk.length;
        const ahead = received / rate - (performance.now() - started) / 1000;
        if (ahead > 0) {
          response.pause();
          timer = setTimeout(() => response.resume(), ahead * 1000);
        }
      });
      response.on('end', () => finish(received === BIG_SIZE ? undefined : 'ended early'));
      response.on('error', (error) => finish(error.message));
    });
    outgoing.on('error', (error) => finish(error.message));
    const stop = setTimeout(() => finish(), Math.max(0, until - performance.now()));
    let done = false;
    function finish(failure) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(stop);
      if (failure) slow.errors.push(failure);
      slow.bytes.push(received);
      slow.seconds.push((performance.now() - started) / 1000);
      outgoing.destroy();
      resolve();
    }
  });
}

/** Reads every uploaded file back from the disk and compares it with what was sent. */
function verifyUploads(root, uploads) {
  const result = { files: 0, lost: [], corrupted: [], undetermined: 0 };
  for (const [virtual, expected] of uploads) {
    if (expected === null) {
      // A PUT that failed: the file must still hold a whole content (old or new), never a mix;
      // with no record of the old one it is counted apart.
      result.undetermined++;
      continue;
    }
    result.files++;
    let content;
    try {
      content = fs.readFileSync(path.join(root, virtual));
    } catch {
      result.lost.push(virtual);
      continue;
    }
    if (sha256(content) !== expected) result.corrupted.push(virtual);
  }
  return result;
}

async function oneRun(runName, context, burrow, withSlowReaders, seconds = SECONDS) {
  const stats = new Stats();
  const uploads = new Map();
  const slow = { errors: [], bytes: [], seconds: [] };
  const slowCount = withSlowReaders ? Math.ceil(CLIENTS / SLOW_EVERY) : 0;
  log(`${runName}: ${CLIENTS} clients${slowCount ? ` and ${slowCount} slow readers at ${SLOW_RATE / 1024} KiB/s` : ''} for ${seconds} s; load average ${machine().loadAverage.join(' ')}`);
  const rss = sampleRss(burrow.pid, 250);
  const cpuBefore = cpuSecondsOf(burrow.pid);
  const ownCpuBefore = process.cpuUsage();
  // The clients share one event loop: a late loop would show up as server latency.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const started = performance.now();
  const until = started + seconds * 1000;
  const runContext = { ...context, runName };
  const slowReaders = [];
  for (let index = 0; index < slowCount; index++) slowReaders.push(runSlowReader(runContext, until, SLOW_RATE, slow));
  // The slow readers are connected and stalled before the others start.
  if (slowCount) await sleep(Math.min(3000, seconds * 100));
  const clients = [];
  for (let id = 0; id < CLIENTS; id++) clients.push(runClient(id, runContext, until, stats, uploads));
  const progress = setInterval(() => {
    const done = [...stats.kinds.values()].reduce((sum, entry) => sum + entry.latencies.length, 0);
    const errors = [...stats.kinds.values()].reduce((sum, entry) => sum + entry.errors, 0);
    log(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${done} requests, ${errors} errors`);
  }, 10_000);
  await Promise.all([...clients, ...slowReaders]);
  clearInterval(progress);
  const elapsed = (performance.now() - started) / 1000;
  const serverCpu = cpuSecondsOf(burrow.pid) - cpuBefore;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  loopDelay.disable();
  const loadAverage = machine().loadAverage;
  // The end figure is taken once the server had a moment to settle after the last request.
  await sleep(2000);
  const memory = rss.stop();
  const verified = verifyUploads(context.root, uploads);
  const kinds = [...stats.kinds.entries()].map(([kind, entry]) => ({
    kind,
    requests: entry.latencies.length,
    errors: entry.errors,
    p50: quantile(entry.latencies, 0.5),
    p99: quantile(entry.latencies, 0.99),
    max: entry.latencies.reduce((max, value) => Math.max(max, value), 0),
    mib: entry.bytes / MiB,
  }));
  kinds.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const all = [...stats.kinds.values()].flatMap((entry) => entry.latencies);
  return {
    run: runName,
    clients: CLIENTS,
    slowReaders: slowCount,
    seconds: elapsed,
    loadAverage,
    serverCpuSeconds: serverCpu,
    clientCpuSeconds: (ownCpu.user + ownCpu.system) / 1e6,
    clientLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    requests: all.length,
    requestsPerSecond: all.length / elapsed,
    errors: kinds.reduce((sum, entry) => sum + entry.errors, 0),
    p99: quantile(all, 0.99),
    kinds,
    failures: stats.failures,
    uploads: { files: verified.files, lost: verified.lost.length, corrupted: verified.corrupted.length, undetermined: verified.undetermined, examples: [...verified.lost, ...verified.corrupted].slice(0, 10) },
    rss: { maxMiB: memory.max / MiB, endMiB: memory.last / MiB, samples: memory.samples },
    slow: slowCount ? { readers: slowCount, errors: slow.errors.length, errorExamples: slow.errors.slice(0, 5), meanKiBs: slow.bytes.reduce((sum, value) => sum + value, 0) / 1024 / Math.max(1, slow.seconds.reduce((sum, value) => sum + value, 0)) } : undefined,
  };
}

// --- report ---------------------------------------------------------------------------------

const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function table(results) {
  const base = results.find((result) => result.run === 'base');
  const slow = results.find((result) => result.run === 'slow');
  const header = ['kind'];
  for (const result of results) header.push(`${result.run}: requests`, 'errors', 'p50 ms', 'p99 ms');
  if (base && slow) header.push('p99 slow/base');
  const rows = [header];
  const names = [...new Set(results.flatMap((result) => result.kinds.map((entry) => entry.kind)))];
  for (const name of names) {
    const row = [name];
    for (const result of results) {
      const entry = result.kinds.find((candidate) => candidate.kind === name);
      row.push(String(entry?.requests ?? 0), String(entry?.errors ?? 0), fixed(entry?.p50, 1), fixed(entry?.p99, 1));
    }
    if (base && slow) row.push(fixed(ratioOf(base, slow, name), 2) + '×');
    rows.push(row);
  }
  const totals = ['all'];
  for (const result of results) totals.push(String(result.requests), String(result.errors), '', fixed(result.p99, 1));
  if (base && slow) totals.push(fixed(slow.p99 / base.p99, 2) + '×');
  rows.push(totals);
  const widths = header.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row, index) => {
      const line = '| ' + row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ') + ' |';
      return index === 0 ? line + '\n|' + widths.map((width) => '-'.repeat(width + 2)).join('|') + '|' : line;
    })
    .join('\n');
}

function ratioOf(base, slow, name) {
  const before = base.kinds.find((entry) => entry.kind === name)?.p99;
  const after = slow.kinds.find((entry) => entry.kind === name)?.p99;
  return after / before;
}

async function main() {
  const work = makeWorkFolder('burrow-bench-load-', { dir: args.dir, keep: args.keep === 'true' });
  const runtime = args.runtime ?? 'dist';
  if (runtime === 'dist' && args['no-build'] !== 'true') {
    log('building the server');
    if (!buildServer()) throw new Error('the server build failed');
  }
  const root = path.join(work, 'root');
  fs.mkdirSync(root, { recursive: true });
  const { sums, bigCheck } = await writeDataSet(root);
  log(`data set written in ${work}`);
  const burrow = await startBurrow({ work, root, runtime });
  log(`Burrow (${burrow.runtime}) on port ${burrow.port}, pid ${burrow.pid}`);
  const shared = await request(burrow.port, { method: 'POST', path: '/api/share/shared', headers: { 'x-auth': burrow.token, 'content-type': 'application/json' }, body: '{}' });
  if (shared.status !== 200) throw new Error(`share creation answered ${shared.status} ${shared.body}`);
  const shareHash = JSON.parse(shared.body).hash;
  // The search index is built at start: the runs begin once the server is idle.
  await waitUntilIdle(burrow.pid, 60_000);
  const context = { port: burrow.port, token: burrow.token, sums, bigCheck, shareHash, root };

  const warm = WARM_SECONDS > 0 ? await oneRun('warm-up', context, burrow, false, WARM_SECONDS) : undefined;
  const results = [];
  for (const run of RUNS) results.push(await oneRun(run, context, burrow, run === 'slow'));

  const base = results.find((result) => result.run === 'base');
  const slow = results.find((result) => result.run === 'slow');
  const ratios = base && slow ? base.kinds.map((entry) => ({ kind: entry.kind, ratio: ratioOf(base, slow, entry.kind) })).filter((entry) => Number.isFinite(entry.ratio)) : [];
  const worst = ratios.reduce((max, entry) => (entry.ratio > (max?.ratio ?? -Infinity) ? entry : max), undefined);
  const checks = [];
  for (const result of warm ? [warm, ...results] : results) {
    checks.push([`${result.run}: no failed requests`, result.errors === 0, `${result.errors} of ${result.requests + result.errors}`]);
    checks.push([`${result.run}: no lost or corrupted upload`, result.uploads.lost + result.uploads.corrupted === 0, `${result.uploads.files} files checked, ${result.uploads.lost} lost, ${result.uploads.corrupted} corrupted`]);
    checks.push([`${result.run}: server RSS bounded`, result.rss.maxMiB * MiB <= MAX_RSS, `max ${fixed(result.rss.maxMiB)} MiB, end ${fixed(result.rss.endMiB)} MiB (bound ${fixed(MAX_RSS / MiB)} MiB)`]);
    if (result.slow) checks.push([`${result.run}: slow readers kept their connection`, result.slow.errors === 0, `${result.slow.readers} readers at ${fixed(result.slow.meanKiBs)} KiB/s, ${result.slow.errors} cut`]);
  }
  if (worst) checks.push(['slow readers raise no p99 more than 2×', worst.ratio <= MAX_P99_RATIO, `worst ${worst.kind} ${fixed(worst.ratio, 2)}×; all requests ${fixed(slow.p99 / base.p99, 2)}×`]);

  const report = { date: new Date().toISOString(), command: `node bench/load.mjs ${process.argv.slice(2).join(' ')}`.trim(), machine: machine(), runtime: burrow.runtime, seconds: SECONDS, warmSeconds: WARM_SECONDS, clients: CLIENTS, bigMiB: BIG_SIZE / MiB, warm, results, ratios, checks };
  const folder = path.join(repo, 'bench', 'results');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `load-${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');

  const out = [];
  out.push(table(results), '');
  for (const result of warm ? [warm, ...results] : results) {
    out.push(`${result.run}: ${result.requests} requests in ${fixed(result.seconds, 1)} s (${fixed(result.requestsPerSecond)}/s), load average ${result.loadAverage.join(' ')}; server CPU ${fixed(result.serverCpuSeconds, 1)} s (${fixed((100 * result.serverCpuSeconds) / result.seconds)}% of a core), client CPU ${fixed(result.clientCpuSeconds, 1)} s, client loop delay p99 ${fixed(result.clientLoopDelayP99Ms)} ms; server RSS max ${fixed(result.rss.maxMiB)} MiB, end ${fixed(result.rss.endMiB)} MiB`);
    for (const failure of result.failures.slice(0, 10)) out.push(`  failure: ${failure}`);
  }
  out.push('');
  for (const [label, ok, detail] of checks) out.push(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${detail}`);
  const passed = checks.every(([, ok]) => ok);
  out.push('', `results: ${path.relative(repo, file)}`, `verdict: ${passed ? 'PASS' : 'FAIL'} (${CLIENTS} clients, ${SECONDS} s, ${machine().cpus} cores, load average ${machine().loadAverage.join(' ')})`);
  process.stdout.write(out.join('\n') + '\n');
  if (!passed) process.exitCode = 1;
}

// Setup, both runs and the checks: bounded whatever happens.
await runBench(main, { name: 'load', deadlineMs: (SECONDS * RUNS.length + WARM_SECONDS + 900) * 1000 });
await cleanup();
