#!/usr/bin/env node
// Cluster benchmark: the same load on Burrow over SQLite, over PostgreSQL, and over PostgreSQL
// with two instances behind a round-robin proxy (one root, one cache folder). Per setup: folder
// listings and name searches (requests per second and median latency, several clients at once),
// many small uploads (files per second) and large resumable uploads (MiB/s). PostgreSQL is a
// private cluster started here; everything talks to 127.0.0.1 and is removed at the end.
//
//   npm run bench:cluster -w bench -- [--files 3000] [--requests 400] [--clients 8]
//                                     [--small 300] [--large-mib 64] [--runtime dist|tsx]

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MiB, login, makeWorkFolder, onCleanup, parseArgs, request, runBench, startBurrow, stopChild } from './lib/burrow.mjs';
import { startPostgres, startProxy } from './lib/cluster.mjs';

const args = parseArgs(process.argv.slice(2));
const FILES = Number(args.files ?? 3000);
const REQUESTS = Number(args.requests ?? 400);
const CLIENTS = Number(args.clients ?? 8);
const SMALL = Number(args.small ?? 300);
const LARGE_MIB = Number(args['large-mib'] ?? 64);
const RUNTIME = args.runtime ?? 'auto';
const FOLDERS = 20;
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper'];

/** A tree of FILES empty files in FOLDERS folders, named from WORDS. */
function makeTree(root) {
  for (let folder = 0; folder < FOLDERS; folder++) fs.mkdirSync(path.join(root, `folder-${folder}`), { recursive: true });
  for (let index = 0; index < FILES; index++) {
    const name = `${WORDS[index % WORDS.length]}-${WORDS[(index * 7) % WORDS.length]}-${index}.txt`;
    fs.writeFileSync(path.join(root, `folder-${index % FOLDERS}`, name), '');
  }
}

/** Runs `count` requests made by `make(i)` from CLIENTS clients at once; requests per second and the median. */
async function load(count, make) {
  const times = [];
  let issued = 0;
  const started = performance.now();
  const client = async () => {
    while (issued < count) {
      const index = issued++;
      const begun = performance.now();
      const response = await make(index);
      if (response.status >= 300) throw new Error(`request ${index} answered ${response.status}: ${response.body.slice(0, 200)}`);
      times.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: count / seconds, median: times[Math.floor(times.length / 2)], seconds };
}

async function measure(port, token, root) {
  const auth = { 'x-auth': token };
  // A warm-up round first: compiled code paths, connection pools and caches are ready when timing starts.
  await load(Math.min(REQUESTS, 40), (index) => request(port, { path: `/api/resources/folder-${index % FOLDERS}/`, headers: auth }));
  await load(Math.min(REQUESTS, 40), (index) => request(port, { path: `/api/search/?query=${WORDS[index % WORDS.length]}`, headers: auth }));
  const listing = await load(REQUESTS, (index) => request(port, { path: `/api/resources/folder-${index % FOLDERS}/`, headers: auth }));
  const search = await load(REQUESTS, (index) => request(port, { path: `/api/search/?query=${WORDS[index % WORDS.length]}-${WORDS[(index * 3) % WORDS.length]}`, headers: auth }));
  fs.mkdirSync(path.join(root, 'small'), { recursive: true });
  const body = crypto.randomBytes(4096);
  const small = await load(SMALL, (index) => request(port, { method: 'POST', path: `/api/resources/small/file-${index}.bin?override=true`, headers: { ...auth, 'content-length': body.length }, body }));

  // Large files over tus in 8 MiB chunks, CLIENTS/2 at once (at least one).
  const large = Buffer.alloc(LARGE_MIB * MiB);
  crypto.randomFillSync(large);
  const uploads = Math.max(1, Math.floor(CLIENTS / 2));
  const chunk = 8 * MiB;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: uploads }, async (_, index) => {
      const target = `/api/tus/large-${index}.bin`;
      const created = await request(port, { method: 'POST', path: `${target}?override=true`, headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-length': large.length } });
      if (created.status !== 201) throw new Error(`tus create answered ${created.status}: ${created.body}`);
      for (let offset = 0; offset < large.length; offset += chunk) {
        const part = large.subarray(offset, offset + chunk);
        const patched = await request(port, {
          method: 'PATCH',
          path: target,
          headers: { ...auth, 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': offset, 'content-length': part.length },
          body: part,
        });
        if (patched.status !== 204) throw new Error(`tus patch at ${offset} answered ${patched.status}: ${patched.body}`);
      }
    }),
  );
  const largeSeconds = (performance.now() - started) / 1000;
  const expected = crypto.createHash('sha256').update(large).digest('hex');
  for (let index = 0; index < uploads; index++) {
    const stored = crypto.createHash('sha256').update(fs.readFileSync(path.join(root, `large-${index}.bin`))).digest('hex');
    if (stored !== expected) throw new Error(`large-${index}.bin differs from what was sent`);
  }
  return { listing, search, small, largeMiBs: (uploads * LARGE_MIB) / largeSeconds };
}

async function setup(name, { postgres, instances }) {
  const work = makeWorkFolder(`burrow-bench-cluster-${name}-`);
  const root = path.join(work, 'root');
  fs.mkdirSync(root);
  makeTree(root);
  const database = postgres ? await postgres.createDatabase(`bench_${name.replace(/\W/g, '_')}`) : undefined;
  const serveArgs = database ? ['--database', database] : [];
  // The first instance makes the database; the others join it (one work folder: one root, one cache).
  const servers = [await startBurrow({ work, root, runtime: RUNTIME, serveArgs, login: false })];
  for (let index = 1; index < instances; index++) servers.push(await startBurrow({ work, root, runtime: RUNTIME, serveArgs, login: false }));
  const proxy = instances > 1 ? await startProxy(servers.map((server) => server.port)) : undefined;
  const port = proxy?.port ?? servers[0].port;
  const token = await login(port, 'admin', servers[0].password);
  // Let every instance's search index finish its first build before measuring.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const result = await measure(port, token, root);
  const served = proxy ? [...proxy.served] : undefined;
  await proxy?.close();
  for (const server of servers) await stopChild(server.child);
  return { name, ...result, served };
}

await runBench(
  async () => {
    const postgres = await startPostgres();
    onCleanup(() => postgres.stop());
    const rows = [];
    rows.push(await setup('sqlite', { instances: 1 }));
    rows.push(await setup('postgres', { postgres, instances: 1 }));
    rows.push(await setup('postgres-x2', { postgres, instances: 2 }));
    const cell = (value, digits = 0) => value.toFixed(digits).padStart(10);
    console.log(`\n${FILES} files in ${FOLDERS} folders; ${REQUESTS} listings and searches, ${SMALL} uploads of 4 KiB, ${CLIENTS} clients at once; large uploads of ${LARGE_MIB} MiB over tus\n`);
    console.log(`${'setup'.padEnd(14)}${'list/s'.padStart(10)}${'list ms'.padStart(10)}${'search/s'.padStart(10)}${'search ms'.padStart(10)}${'small/s'.padStart(10)}${'large MiB/s'.padStart(12)}  served`);
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(14)}${cell(row.listing.perSecond)}${cell(row.listing.median, 1)}${cell(row.search.perSecond)}${cell(row.search.median, 1)}${cell(row.small.perSecond)}${cell(row.largeMiBs, 1).padStart(12)}  ${row.served ? row.served.join(' / ') : '-'}`,
      );
    }
  },
  { name: 'cluster', deadlineMs: 20 * 60_000 },
);
