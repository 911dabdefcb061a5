#!/usr/bin/env node
// Search benchmark: a tree of a million empty files under the temporary folder, Burrow's name
// index built over it (time and rate), then name-query latency through the HTTP API side by side
// with GNU `find <root> -iname '*term*'` over the same tree, and the server's idle memory with
// that index loaded. The same runs on each engine in turn, side by side: the embedded SQLite
// index, and the index in PostgreSQL (a private server started for the bench, listening on
// 127.0.0.1 only, stopped at the end). Everything runs on 127.0.0.1; the tree is removed at the
// end unless --keep; every step has a time limit.
//
//   npm run bench:search -w bench -- [--files 1000000] [--runs 7] [--find-runs 3]
//                                    [--engines sqlite,postgres] [--tree <existing folder>]
//                                    [--keep] [--runtime dist|tsx]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPrivatePostgres } from './lib/private-postgres.mjs';
import { buildServer, login, makeWorkFolder, memoryOf, onCleanup, parseArgs, repo, request as send, runBench, startBurrow, stopChild, withTimeout } from './lib/burrow.mjs';

const args = parseArgs(process.argv.slice(2));
const FILES = Number(args.files ?? 1_000_000);
const RUNS = Number(args.runs ?? 7);
const FIND_RUNS = Number(args['find-runs'] ?? 3);
const KEEP = args.keep === 'true';
const RUNTIME = args.runtime ?? 'dist';
const ENGINES = String(args.engines ?? 'sqlite,postgres').split(',').filter(Boolean);
for (const engine of ENGINES) if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`unknown engine ${engine} (sqlite, postgres)`);
/** The target for a name query's median over a million entries. */
const TARGET_P50_MS = 50;
const STEP_TIMEOUT_MS = 10 * 60_000;

const work = makeWorkFolder('burrow-bench-search-', { keep: KEEP });
const tree = args.tree ? path.resolve(args.tree) : path.join(work, 'root');
/** `find` processes under way, stopped with the benchmark. */
const children = [];
onCleanup(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// --- the tree -------------------------------------------------------------------------------

/** Pseudo-words from syllables; a skewed pick makes some words common and most rare. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pe', 'da', 'gor', 'lin', 'mar', 'tis', 'ven', 'bra', 'qu', 'ex', 'zo', 'fa'];
const WORDS = [];
for (const a of SYLLABLES) for (const b of SYLLABLES) for (const c of SYLLABLES.slice(0, 8)) WORDS.push(a + b + c);
const EXTENSIONS = ['txt', 'jpg', 'png', 'pdf', 'mp3', 'mp4', 'md', 'log', 'json', 'zip'];

function makeRandom(seed) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** 100 files per folder, 100 folders per group: d<n>-<word>/s<m>/<word>-<word>-<number>.<ext>. */
async function generateTree(root, total) {
  const random = makeRandom(42);
  const word = () => WORDS[Math.floor(Math.pow(random(), 3) * WORDS.length)];
  const perFolder = 100;
  const perGroup = 100;
  fs.mkdirSync(root, { recursive: true });
  let made = 0;
  let folders = 0;
  const started = performance.now();
  for (let group = 0; made < total; group++) {
    const groupDir = path.join(root, `d${group}-${word()}`);
    fs.mkdirSync(groupDir);
    folders++;
    for (let sub = 0; sub < perGroup && made < total; sub++) {
      const dir = path.join(groupDir, `s${sub}`);
      fs.mkdirSync(dir);
      folders++;
      const names = [];
      for (let index = 0; index < perFolder && made < total; index++, made++) {
        names.push(`${word()}-${word()}-${Math.floor(random() * 100000)}.${EXTENSIONS[Math.floor(random() * EXTENSIONS.length)]}`);
      }
      // Empty files; opened in parallel so the thread pool keeps the disk busy.
      await Promise.all(names.map((name) => fsp.open(path.join(dir, name), 'a').then((handle) => handle.close())));
    }
    if (group % 20 === 19) process.stdout.write(`  ${made.toLocaleString('en')} files\r`);
  }
  return { files: made, folders, seconds: (performance.now() - started) / 1000 };
}

// --- the server -----------------------------------------------------------------------------

function rssOf(pid) {
  const memory = memoryOf(pid);
  return { rssMiB: memory.rss / 1024 / 1024, anonMiB: memory.anon / 1024 / 1024, peakMiB: memory.hwm / 1024 / 1024 };
}

function request(port, options, body) {
  return send(port, { ...options, body, timeoutMs: STEP_TIMEOUT_MS });
}

async function timedSearch(port, token, query) {
  const started = performance.now();
  const response = await request(port, { method: 'GET', path: `/api/search/?query=${encodeURIComponent(query)}`, headers: { 'x-auth': token } });
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`search ${query}: ${response.status} ${response.body}`);
  return { ms, count: response.body.split('\n').filter(Boolean).length };
}

function timedFind(term) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('find', [tree, '-iname', `*${term}*`], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    let count = 0;
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) count++;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`find ${term} exited with ${code}`));
      else resolve({ ms: performance.now() - started, count });
    });
  });
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const median = (values) => quantile(values, 0.5);
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** Builds the index on one engine, times the queries, measures memory; stops the server. */
async function runEngine(engine, runtime, findCache) {
  const report = { engine };
  let postgres;
  let database;
  const engineWork = path.join(work, engine);
  fs.mkdirSync(engineWork, { recursive: true });
  if (engine === 'postgres') {
    console.log('Starting a private PostgreSQL on 127.0.0.1 …');
    postgres = await startPrivatePostgres();
    database = await postgres.createDatabase('burrow');
  }
  try {
    const started = performance.now();
    const server = await startBurrow({ work: engineWork, root: tree, database, runtime, logLevel: 'info', login: false, waitForHealth: false });
    const port = server.port;
    await server.waitForLog((record) => typeof record.msg === 'string' && record.msg.startsWith('Burrow serving'), 120_000, 'server start');
    const listening = performance.now();
    console.log(`[${engine}] server listening after ${fixed((listening - started) / 1000)} s; building the index …`);

    // The first request is not held up by the build: answered by a live walk meanwhile.
    const token = await login(port, 'admin', server.password);
    const early = performance.now();
    await request(port, { method: 'GET', path: '/api/users/1', headers: { 'x-auth': token } });
    report.firstRequestDuringBuildMs = performance.now() - early;

    const ready = await server.waitForLog((record) => record.msg === 'search index ready', 60 * 60_000, 'index build');
    let databaseMiB;
    if (postgres) {
      const [row] = await postgres.query('burrow', `SELECT pg_total_relation_size('search_entries') AS bytes`);
      databaseMiB = Number(row.bytes) / 1024 / 1024;
    } else {
      databaseMiB = ['burrow.db', 'burrow.db-wal'].reduce((sum, file) => sum + (fs.statSync(path.join(engineWork, file), { throwIfNoEntry: false })?.size ?? 0), 0) / 1024 / 1024;
    }
    report.index = {
      entries: ready.entries,
      seconds: ready.seconds,
      entriesPerSecond: ready.perSecond,
      wallSecondsFromStart: (performance.now() - started) / 1000,
      indexMiB: databaseMiB,
      rssAfterBuild: rssOf(server.child.pid),
    };
    console.log(`[${engine}] ${ready.entries.toLocaleString('en')} entries in ${fixed(ready.seconds)} s (${ready.perSecond.toLocaleString('en')}/s)`);

    // Terms across the range of frequencies the generator produces, plus numbers and filters.
    const terms = [WORDS[2], WORDS[40], WORDS[300], WORDS[1500], WORDS[3100], '4711', '31337', 'gorlin'];
    const queries = [...terms, `type:pdf ${WORDS[300]}`, `type:image ${WORDS[1500]}`, `"${WORDS[40]}-${WORDS[2]}"`, `case:sensitive ${WORDS[300]}`];
    const results = [];
    for (const query of queries) {
      await timedSearch(port, token, query); // warm-up
      const samples = [];
      let count = 0;
      for (let run = 0; run < RUNS; run++) {
        const sample = await timedSearch(port, token, query);
        samples.push(sample.ms);
        count = sample.count;
      }
      const row = { query, results: count, burrowMs: samples, burrowP50: median(samples) };
      if (terms.includes(query) && FIND_RUNS > 0) {
        // find does not depend on the engine: measured once, reused.
        if (!findCache.has(query)) {
          const findSamples = [];
          let findCount = 0;
          for (let run = 0; run < FIND_RUNS; run++) {
            const sample = await timedFind(query);
            findSamples.push(sample.ms);
            findCount = sample.count;
          }
          findCache.set(query, { findMs: findSamples, findP50: median(findSamples), findResults: findCount });
        }
        Object.assign(row, findCache.get(query));
        row.speedup = row.findP50 / row.burrowP50;
      }
      results.push(row);
      console.log(`[${engine}] ${query.padEnd(28)} ${String(count).padStart(8)} results  p50 ${fixed(row.burrowP50).padStart(7)} ms${row.findP50 ? `   find ${fixed(row.findP50, 0).padStart(6)} ms (${row.findResults})` : ''}`);
    }
    const all = results.flatMap((row) => row.burrowMs);
    const nameRows = results.filter((row) => terms.includes(row.query));
    report.queries = results;
    report.summary = {
      burrowP50: median(all),
      burrowP95: quantile(all, 0.95),
      nameQueryP50: median(nameRows.flatMap((row) => row.burrowMs)),
      nameQueryP95: quantile(nameRows.flatMap((row) => row.burrowMs), 0.95),
      findP50: median(nameRows.flatMap((row) => row.findMs ?? [])),
      findP95: quantile(nameRows.flatMap((row) => row.findMs ?? []), 0.95),
    };
    report.summary.speedupP50 = report.summary.findP50 / report.summary.nameQueryP50;
    report.summary.nameQueryP50WithinTarget = report.summary.nameQueryP50 <= TARGET_P50_MS;
    report.countsAgreeWithFind = nameRows.every((row) => row.findResults === undefined || row.results === row.findResults);

    // Idle: no requests for a while, then read the resident set.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    report.idle = rssOf(server.child.pid);
    await stopChild(server.child, 20_000);
    return report;
  } finally {
    postgres?.stop();
  }
}

async function main() {
  const report = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(), engines: ENGINES };

  if (args.tree) {
    console.log(`Using the existing tree ${tree}`);
  } else {
    console.log(`Generating ${FILES.toLocaleString('en')} empty files under ${tree} …`);
    report.tree = await withTimeout(generateTree(tree, FILES), 60 * 60_000, 'tree generation');
    console.log(`  ${report.tree.files.toLocaleString('en')} files in ${report.tree.folders.toLocaleString('en')} folders, ${fixed(report.tree.seconds)} s`);
  }

  let runtime = RUNTIME;
  if (runtime === 'dist') {
    console.log('Building the server …');
    if (!buildServer()) {
      console.log('  the build failed; running the sources through tsx instead (higher memory)');
      runtime = 'tsx';
    }
  }
  report.runtime = runtime;

  const findCache = new Map();
  report.runs = [];
  for (const engine of ENGINES) report.runs.push(await runEngine(engine, runtime, findCache));

  console.log('');
  const runs = report.runs;
  console.log(`| query | results | ${runs.map((run) => `${run.engine} p50 ms | ${run.engine} p95 ms`).join(' | ')} | find p50 ms | find results |`);
  console.log(`|---|---:|${runs.map(() => '---:|---:').join('|')}|---:|---:|`);
  for (let index = 0; index < runs[0].queries.length; index++) {
    const rows = runs.map((run) => run.queries[index]);
    const first = rows[0];
    const counts = [...new Set(rows.map((row) => row.results))].join(' / ');
    console.log(`| \`${first.query}\` | ${counts} | ${rows.map((row) => `${fixed(row.burrowP50)} | ${fixed(quantile(row.burrowMs, 0.95))}`).join(' | ')} | ${first.findP50 ? fixed(first.findP50, 0) : '-'} | ${first.findResults ?? '-'} |`);
  }
  console.log('');
  for (const run of runs) {
    console.log(`[${run.engine}] Index: ${run.index.entries.toLocaleString('en')} entries, built in ${fixed(run.index.seconds)} s (${run.index.entriesPerSecond.toLocaleString('en')} entries/s), index ${fixed(run.index.indexMiB)} MiB`);
    console.log(`[${run.engine}] All queries: p50 ${fixed(run.summary.burrowP50)} ms, p95 ${fixed(run.summary.burrowP95)} ms`);
    console.log(`[${run.engine}] Name queries: p50 ${fixed(run.summary.nameQueryP50)} ms (target ${TARGET_P50_MS} ms: ${run.summary.nameQueryP50WithinTarget ? 'met' : 'MISSED'}), p95 ${fixed(run.summary.nameQueryP95)} ms; find -iname p50 ${fixed(run.summary.findP50, 0)} ms; speed-up ${fixed(run.summary.speedupP50, 0)}×`);
    console.log(`[${run.engine}] Result counts equal to find's: ${run.countsAgreeWithFind ? 'yes' : 'NO'}; a request during the build took ${fixed(run.firstRequestDuringBuildMs)} ms`);
    console.log(`[${run.engine}] Server RSS (${runtime}): after build ${fixed(run.index.rssAfterBuild.rssMiB, 0)} MiB, idle ${fixed(run.idle.rssMiB, 0)} MiB`);
  }
  const sameCounts = runs.every((run) => run.queries.every((row, index) => row.results === runs[0].queries[index].results));
  report.enginesAgree = sameCounts;
  if (runs.length > 1) console.log(`Result counts equal on every engine: ${sameCounts ? 'yes' : 'NO'}`);

  const resultsDir = path.join(repo, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `search-${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  console.log(`Results: ${path.relative(repo, file)}`);
}

await runBench(main, { name: 'search', deadlineMs: 3 * 60 * 60_000 });
