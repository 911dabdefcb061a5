#!/usr/bin/env node
// WebDAV throughput against the files API in the same run: one large file uploaded with a WebDAV
// PUT to /dav/ and with POST /api/resources, and downloaded with a WebDAV GET and GET /api/raw.
// The target is WebDAV at 0.8x of the API or better, both ways. Everything runs on 127.0.0.1 in
// a temporary folder that is removed at the end; every step has a time limit.
//
//   npm run bench:webdav -w bench -- [--size-mib 1024] [--runs 5] [--dir /dev/shm]

import { spawnSync } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MiB, cpuSecondsOf, makeSourceFile, makeWorkFolder, onCleanup, parseArgs, request as send, runBench, sha256File, startBurrow, withTimeout } from './lib/burrow.mjs';

const args = parseArgs(process.argv.slice(2));
const SIZE = Math.round(Number(args['size-mib'] ?? 1024) * MiB);
const RUNS = Number(args.runs ?? 5);
const STEP_TIMEOUT_MS = Number(args['timeout-s'] ?? 300) * 1000;
const TARGET = 0.8;

const work = makeWorkFolder('burrow-bench-webdav-', { dir: args.dir });
const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
onCleanup(() => agent.destroy());

/**
 * One request. `upload` streams the source file as the body; the response body is hashed (for
 * downloads) and counted, never kept.
 */
function request(port, { method, path: urlPath, headers = {}, upload, hash = false }) {
  return send(port, { method, path: urlPath, headers, agent, hash, body: upload ? { file: upload } : undefined, timeoutMs: STEP_TIMEOUT_MS });
}

function expectStatus(response, statuses, what) {
  if (!statuses.includes(response.status)) throw new Error(`${what}: got ${response.status} ${response.body}`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mibPerSecond = (seconds) => SIZE / MiB / seconds;

async function main() {
  console.log(`WebDAV benchmark: ${(SIZE / MiB).toFixed(0)} MiB file, ${RUNS} run(s) each, ${os.cpus().length} CPUs, files in ${work}`);
  const source = path.join(work, 'source.bin');
  makeSourceFile(source, SIZE);
  const expected = await sha256File(source);
  const burrow = await startBurrow({ work, runtime: 'tsx' });
  const basic = `Basic ${Buffer.from(`admin:${burrow.password}`).toString('base64')}`;
  const api = { 'x-auth': burrow.token };
  const dav = { authorization: basic };

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
    const cpuBefore = cpuSecondsOf(burrow.pid);
    const started = process.hrtime.bigint();
    const result = await withTimeout(step(), STEP_TIMEOUT_MS, label);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    samples[index].push(seconds);
    cpu[index].push(cpuSecondsOf(burrow.pid) - cpuBefore);
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

await runBench(main, { name: 'webdav' });
