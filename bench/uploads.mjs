#!/usr/bin/env node
// Upload throughput: one large file sent to Burrow by tus (10 MiB chunks, as the web app sends
// it, and as one big PATCH) and by a plain POST /api/resources, side by side with nginx accepting
// a WebDAV PUT of the same file. Everything runs on 127.0.0.1 in a temporary folder that is
// removed at the end; every step has a time limit.
//
//   npm run bench:uploads -w bench -- [--size-mib 1024] [--runs 3] [--chunk-mib 10] [--dir /dev/shm]
//                                     [--only tusChunked,resourcesPost] [--burrow-node-args=--cpu-prof]
//
// --dir chooses where the temporary folder goes; on a tmpfs fsync costs nothing, which separates
// the servers' own overhead from the disk's.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MiB, freePort, makeSourceFile, makeWorkFolder, onCleanup, parseArgs, request as send, runBench, sha256File, startBurrow, startChild, waitForHttp, withTimeout } from './lib/burrow.mjs';

const args = parseArgs(process.argv.slice(2));
const SIZE = Math.round(Number(args['size-mib'] ?? 1024) * MiB);
const RUNS = Number(args.runs ?? 3);
const CHUNK = Math.round(Number(args['chunk-mib'] ?? 10) * MiB);
const STEP_TIMEOUT_MS = Number(args['timeout-s'] ?? 300) * 1000;
const NGINX = args.nginx ?? '/usr/sbin/nginx';

const work = makeWorkFolder('burrow-bench-uploads-', { dir: args.dir });
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
onCleanup(() => agent.destroy());
onCleanup(() => {
  // On a failure the nginx error log tells why an upload was refused.
  const nginxLog = path.join(work, 'nginx', 'logs', 'error.log');
  if (process.exitCode && fs.existsSync(nginxLog)) console.error(`--- nginx error log ---\n${fs.readFileSync(nginxLog, 'utf8').slice(-4000)}`);
});

/** One HTTP request; `body` is a Buffer, or a [start, end) range of `file` streamed from disk. */
function request(port, { method, path: urlPath, headers = {}, body }) {
  return send(port, { method, path: urlPath, headers, body, agent, timeoutMs: STEP_TIMEOUT_MS });
}

async function waitForHealth(port, child, name) {
  await waitForHttp(port, '/health', { child, name });
}

async function startNginx() {
  const port = await freePort();
  const prefix = path.join(work, 'nginx');
  const www = path.join(prefix, 'www');
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  fs.mkdirSync(www, { recursive: true });
  const temp = (name) => path.join(prefix, name);
  // Started by root, nginx would drop its worker to an account that cannot enter this private
  // temporary folder: keep the worker on the account running the benchmark.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};` : '';
  const config = `
daemon off;
${user}
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('logs/error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${temp('client_body_temp')};
  proxy_temp_path ${temp('proxy_temp')};
  fastcgi_temp_path ${temp('fastcgi_temp')};
  uwsgi_temp_path ${temp('uwsgi_temp')};
  scgi_temp_path ${temp('scgi_temp')};
  server {
    listen 127.0.0.1:${port};
    root ${www};
    client_max_body_size 0;
    location = /health { return 200 'ok'; }
    location / { dav_methods PUT; create_full_put_path on; dav_access user:rw; }
  }
}
`;
  fs.writeFileSync(temp('nginx.conf'), config);
  const child = startChild(NGINX, ['-p', prefix, '-c', temp('nginx.conf'), '-e', temp('logs/error.log')], { label: 'nginx' });
  await waitForHealth(port, child, 'nginx');
  return { port, www, pid: child.pid };
}

// The least any Node.js server does for an upload: pipe the body into a file and sync it. Shows
// how much of the distance to nginx is the runtime's rather than Burrow's.
const PLAIN_NODE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const [port, dir] = process.argv.slice(1);
http.createServer((request, response) => {
  if (request.url === '/health') return response.end('ok');
  const file = fs.createWriteStream(dir + '/upload.bin', { highWaterMark: 4 << 20 });
  request.pipe(file).on('finish', () => { fs.fdatasyncSync(file.fd); file.close(); response.end('ok'); });
}).listen(Number(port), '127.0.0.1');
`;

async function startPlainNode() {
  const port = await freePort();
  const dir = path.join(work, 'plain-node');
  fs.mkdirSync(dir);
  const child = startChild(process.execPath, ['-e', PLAIN_NODE_SERVER, String(port), dir], { label: 'plain node' });
  await waitForHealth(port, child, 'plain node');
  return { port, dir, pid: child.pid };
}

function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${response.body}`);
}

const methods = {
  async nginxPut({ nginx, source }) {
    const response = await request(nginx.port, { method: 'PUT', path: '/upload.bin', headers: { 'content-length': SIZE }, body: { file: source, start: 0, end: SIZE } });
    if (response.status !== 201 && response.status !== 204) expectStatus(response, 201, 'nginx PUT');
    return path.join(nginx.www, 'upload.bin');
  },
  async plainNodePut({ plainNode, source }) {
    const response = await request(plainNode.port, { method: 'PUT', path: '/upload', headers: { 'content-length': SIZE }, body: { file: source, start: 0, end: SIZE } });
    expectStatus(response, 200, 'plain Node.js PUT');
    return path.join(plainNode.dir, 'upload.bin');
  },
  async tusChunked({ burrow, source }) {
    return tusUpload(burrow, source, '/tus-chunked.bin', CHUNK);
  },
  async tusSinglePatch({ burrow, source }) {
    return tusUpload(burrow, source, '/tus-single.bin', SIZE);
  },
  async resourcesPost({ burrow, source }) {
    const response = await request(burrow.port, {
      method: 'POST',
      path: '/api/resources/plain-post.bin?override=true',
      headers: { 'x-auth': burrow.token, 'content-length': SIZE, 'content-type': 'application/octet-stream' },
      body: { file: source, start: 0, end: SIZE },
    });
    expectStatus(response, 200, 'POST /api/resources');
    return path.join(burrow.root, 'plain-post.bin');
  },
};

/** Uploads like tus-js-client does: POST to create, then sequential PATCHes of `chunk` bytes. */
async function tusUpload(burrow, source, virtual, chunk) {
  const auth = { 'x-auth': burrow.token, 'tus-resumable': '1.0.0' };
  const created = await request(burrow.port, { method: 'POST', path: `/api/tus${virtual}?override=true`, headers: { ...auth, 'upload-length': SIZE } });
  expectStatus(created, 201, 'tus POST');
  let offset = 0;
  while (offset < SIZE) {
    const end = Math.min(SIZE, offset + chunk);
    const response = await request(burrow.port, {
      method: 'PATCH',
      path: created.headers.location,
      headers: { ...auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': offset, 'content-length': end - offset },
      body: { file: source, start: offset, end },
    });
    expectStatus(response, 204, `tus PATCH at ${offset}`);
    offset = Number(response.headers['upload-offset']);
    if (offset !== end) throw new Error(`tus PATCH: server reports offset ${offset}, expected ${end}`);
  }
  return path.join(burrow.root, virtual.slice(1));
}

async function resourcesRouteExists(burrow) {
  const probe = await request(burrow.port, { method: 'POST', path: '/api/resources/.bench-probe?override=true', headers: { 'x-auth': burrow.token, 'content-length': 1 }, body: Buffer.from('x') });
  if (probe.status !== 200) return false;
  await request(burrow.port, { method: 'DELETE', path: '/api/resources/.bench-probe', headers: { 'x-auth': burrow.token } });
  return true;
}

/**
 * CPU seconds (user + system) and minor page faults so far of a process and its children (nginx
 * workers). Faults show memory touched for the first time, which costs a lot on some hosts.
 */
function processUsage(pid) {
  const ticksPerSecond = 100;
  const usage = { cpu: 0, faults: 0 };
  const visit = (id) => {
    try {
      const stat = fs.readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      usage.cpu += (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
      usage.faults += Number(fields[7]);
      const children = fs.readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) visit(child);
    } catch {
      // not on Linux, or the process is gone
    }
  };
  visit(pid);
  return usage;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mibPerSecond = (seconds) => SIZE / MiB / seconds;

async function main() {
  console.log(`upload benchmark: ${(SIZE / MiB).toFixed(0)} MiB file, ${RUNS} run(s) each, tus chunk ${(CHUNK / MiB).toFixed(0)} MiB, ${os.cpus().length} CPUs, files in ${work}`);
  const source = path.join(work, 'source.bin');
  makeSourceFile(source, SIZE);
  const expected = await sha256File(source);
  const nginx = await startNginx();
  const plainNode = await startPlainNode();
  const burrow = await startBurrow({ work, runtime: 'tsx', nodeArgs: args['burrow-node-args'] ? args['burrow-node-args'].split(' ') : [] });
  const context = { nginx, plainNode, burrow, source };

  const plan = [
    ['nginx PUT (reference)', 'nginxPut', nginx.pid],
    ['plain Node.js pipe + fdatasync', 'plainNodePut', plainNode.pid],
    [`Burrow tus, ${(CHUNK / MiB).toFixed(0)} MiB chunks`, 'tusChunked', burrow.pid],
    ['Burrow tus, one PATCH', 'tusSinglePatch', burrow.pid],
  ];
  const hasResources = await resourcesRouteExists(burrow);
  if (hasResources) plan.push(['Burrow POST /api/resources', 'resourcesPost', burrow.pid]);
  // --only keeps the reference and the methods named.
  const only = args.only ? new Set(args.only.split(',')) : null;
  if (only) plan.splice(0, plan.length, ...plan.filter(([, key], index) => index === 0 || only.has(key)));

  // Rounds go through every method in turn, so a busy moment on the machine hits all of them.
  const samples = plan.map(() => ({ times: [], cpu: [], faults: [] }));
  for (let run = 0; run < RUNS; run++) {
    for (const [index, [label, key, pid]] of plan.entries()) {
      // Each method starts on a quiet disk: what the one before left in the page cache (nginx
      // never syncs) is written out first, outside the timing.
      spawnSync('sync', { timeout: STEP_TIMEOUT_MS });
      // A connection left idle through that may be closed by its server just as it is reused.
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      const before = processUsage(pid);
      const started = process.hrtime.bigint();
      const written = await withTimeout(methods[key](context), STEP_TIMEOUT_MS, label);
      samples[index].times.push(Number(process.hrtime.bigint() - started) / 1e9);
      const after = processUsage(pid);
      samples[index].cpu.push(after.cpu - before.cpu);
      samples[index].faults.push(after.faults - before.faults);
      if (run === 0) {
        const digest = await sha256File(written);
        if (digest !== expected) throw new Error(`${label}: the stored file differs from the source`);
      }
      fs.rmSync(written, { force: true });
    }
  }
  const results = plan.map(([label], index) => ({ label, seconds: median(samples[index].times), cpu: median(samples[index].cpu), faults: median(samples[index].faults), all: samples[index].times }));

  const reference = results[0].seconds;
  console.log('');
  console.log('method                              median s   MiB/s    vs nginx   server CPU s   page faults   runs (s)');
  for (const result of results) {
    console.log(
      `${result.label.padEnd(34)} ${result.seconds.toFixed(2).padStart(9)} ${mibPerSecond(result.seconds).toFixed(0).padStart(7)} ${(reference / result.seconds).toFixed(2).padStart(9)}x ${result.cpu.toFixed(2).padStart(13)} ${String(result.faults).padStart(13)}   ${result.all.map((value) => value.toFixed(2)).join(' ')}`,
    );
  }
  if (!hasResources) console.log('Burrow POST /api/resources: pending (route not available)');
  console.log('\nBurrow fsyncs every PATCH and the final file before replacing the target; nginx does not fsync.');
  console.log('Server CPU is user + system time, page faults the minor faults, of the server process(es) for one upload (median).');
}

await runBench(main, { name: 'uploads' });
