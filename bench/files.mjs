#!/usr/bin/env node
// Files benchmark: Burrow against nginx on 127.0.0.1 for a 100,000-entry listing and a 1 GiB
// download (from the page cache, then with the file's pages dropped before each download), then a streamed zip of a 1 GiB folder of 10,000 files with Burrow's memory sampled,
// then that folder in every archive format beside `tar` and the same compressor at the same level
// (BENCH_FORMATS to choose formats, '' for none; BENCH_FORMAT_RUNS runs each).
// Data lives in a temporary folder that is removed afterwards. Sizes can be lowered through the
// environment (BENCH_LIST_ENTRIES, BENCH_FILE_MB, BENCH_ARCHIVE_FILES, BENCH_ARCHIVE_MB,
// BENCH_RUNS) for a quick run.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSecondsOf, freePort, machine, makeWorkFolder, memoryOf, resetPeakMemory, runBench, startBurrow as startServer, startChild, waitForHttp, waitUntilIdle } from './lib/burrow.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const env = process.env;
const LIST_ENTRIES = Number(env.BENCH_LIST_ENTRIES ?? 100_000);
const FILE_MB = Number(env.BENCH_FILE_MB ?? 1024);
const ARCHIVE_FILES = Number(env.BENCH_ARCHIVE_FILES ?? 10_000);
const ARCHIVE_MB = Number(env.BENCH_ARCHIVE_MB ?? 1024);
const RUNS = Number(env.BENCH_RUNS ?? 5);
/** Items the web app asks for first when it opens a folder. */
const FIRST_ITEMS = 500;
const NGINX = env.BENCH_NGINX ?? '/usr/sbin/nginx';
const DEADLINE_MS = Number(env.BENCH_DEADLINE_S ?? 1500) * 1000;
const REQUEST_TIMEOUT_MS = 300_000;

const MiB = 1024 * 1024;
const work = makeWorkFolder('burrow-bench-');
const data = path.join(work, 'data');

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** GET over loopback; resolves with status, bytes received and elapsed seconds (body discarded). */
function fetchTimed(port, urlPath, headers = {}, onData) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        onData?.(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
      response.on('error', reject);
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`timeout on ${urlPath}`)));
    request.on('error', reject);
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function writeDataSet() {
  const started = Date.now();
  fs.mkdirSync(path.join(data, 'list'), { recursive: true });
  for (let index = 0; index < LIST_ENTRIES; index++) {
    fs.writeFileSync(path.join(data, 'list', `entry-${String(index).padStart(6, '0')}.txt`), 'x');
  }
  // Incompressible blocks so neither side can win by compression.
  const block = crypto.randomBytes(MiB);
  const big = fs.openSync(path.join(data, 'big.bin'), 'w');
  for (let index = 0; index < FILE_MB; index++) fs.writeSync(big, block);
  fs.closeSync(big);
  // Half the archive's files are media-like (random bytes), half text-like, as in a real folder.
  const perFile = Math.floor((ARCHIVE_MB * MiB) / ARCHIVE_FILES);
  const media = crypto.randomBytes(perFile);
  const lines = [];
  for (let size = 0, index = 0; size < perFile; index++) {
    const line = `${index}\tburrow archive benchmark row ${(index * 7919) % 100_003}\t${(index * 104_729) % 1_000_003}\n`;
    lines.push(line);
    size += line.length;
  }
  const text = Buffer.from(lines.join('')).subarray(0, perFile);
  for (let index = 0; index < ARCHIVE_FILES; index++) {
    const folder = path.join(data, 'archive', `group-${String(index % 100).padStart(3, '0')}`);
    if (index < 100) fs.mkdirSync(folder, { recursive: true });
    const isMedia = index % 2 === 0;
    fs.writeFileSync(path.join(folder, `file-${String(index).padStart(5, '0')}.${isMedia ? 'dat' : 'txt'}`), isMedia ? media : text);
  }
  // nginx workers may run as another user: everything world-readable.
  execFileSync('chmod', ['-R', 'a+rX', work]);
  log(`data written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function startNginx() {
  const port = await freePort();
  const prefix = path.join(work, 'nginx');
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const temp = (name) => `${name}_temp_path ${path.join(prefix, name)};`;
  const conf = `
daemon off;
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  types { application/octet-stream bin; }
  server {
    listen 127.0.0.1:${port};
    root ${data};
    location /list/ { autoindex on; autoindex_format json; }
    location / { }
  }
}
`;
  const confFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  const child = startChild(NGINX, ['-p', prefix, '-c', confFile, '-e', path.join(prefix, 'logs', 'error.log')], { label: 'nginx' });
  await waitForHttp(port, '/list/', { child, name: 'nginx' });
  return { port, child };
}

async function startBurrow() {
  const burrow = await startServer({ work, root: data, runtime: env.BENCH_TSX === '1' ? 'tsx' : 'auto' });
  log(`Burrow from ${burrow.runtime === 'dist' ? 'server/dist' : 'sources (tsx)'} on port ${burrow.port}`);
  return { ...burrow, child: burrow.child };
}

async function measureListing(nginx, burrow) {
  const nginxTimes = [];
  const burrowTimes = [];
  const headTimes = [];
  let burrowItems = 0;
  let nginxItems = 0;
  // One unmeasured pass each warms the page cache and the server.
  await fetchTimed(nginx.port, '/list/');
  await fetchTimed(burrow.port, '/api/resources/list/', { 'x-auth': burrow.token });
  for (let run = 0; run < RUNS; run++) {
    let nginxBody = '';
    let burrowBody = '';
    const listNginx = () => fetchTimed(nginx.port, '/list/', {}, run === 0 ? (chunk) => (nginxBody += chunk) : undefined);
    const listBurrow = () => fetchTimed(burrow.port, '/api/resources/list/', { 'x-auth': burrow.token }, run === 0 ? (chunk) => (burrowBody += chunk) : undefined);
    // Each goes first in every other run.
    let fromNginx, fromBurrow;
    if (run % 2 === 0) {
      fromNginx = await listNginx();
      fromBurrow = await listBurrow();
    } else {
      fromBurrow = await listBurrow();
      fromNginx = await listNginx();
    }
    if (fromBurrow.status !== 200) throw new Error(`Burrow listing answered ${fromBurrow.status}`);
    if (run === 0) {
      nginxItems = JSON.parse(nginxBody).length;
      burrowItems = JSON.parse(burrowBody).items.length;
    }
    nginxTimes.push(fromNginx.seconds);
    burrowTimes.push(fromBurrow.seconds);
    // What the web app asks first for a folder it opens: its first 500 items and the counts.
    let headBody = '';
    const head = await fetchTimed(burrow.port, `/api/resources/list/?first=${FIRST_ITEMS}`, { 'x-auth': burrow.token }, run === 0 ? (chunk) => (headBody += chunk) : undefined);
    if (head.status !== 200) throw new Error(`Burrow first items answered ${head.status}`);
    if (run === 0) {
      const parsed = JSON.parse(headBody);
      if (parsed.items.length !== Math.min(FIRST_ITEMS, LIST_ENTRIES) || parsed.numFiles + parsed.numDirs !== LIST_ENTRIES) throw new Error('the first items do not match the folder');
    }
    headTimes.push(head.seconds);
  }
  if (burrowItems !== LIST_ENTRIES || nginxItems !== LIST_ENTRIES) throw new Error(`listing sizes differ: Burrow ${burrowItems}, nginx ${nginxItems}`);
  return {
    entries: LIST_ENTRIES,
    runs: RUNS,
    nginxMedianMs: median(nginxTimes) * 1000,
    burrowMedianMs: median(burrowTimes) * 1000,
    ratio: median(burrowTimes) / median(nginxTimes),
    firstItemsMedianMs: median(headTimes) * 1000,
  };
}

/** Downloads with curl when it is installed (a C client keeps the client out of the measure). */
function hasCurl() {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function curlTimed(port, urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const args = ['-s', '-o', '/dev/null', '--max-time', String(REQUEST_TIMEOUT_MS / 1000), '-w', '%{http_code} %{size_download} %{time_total}'];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    args.push(`http://127.0.0.1:${port}${urlPath}`);
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const [status, bytes, seconds] = out.trim().split(' ').map(Number);
      if (code !== 0) reject(new Error(`curl exited with ${code}`));
      else resolve({ status, bytes, seconds });
    });
  });
}

/**
 * Drops the big file's pages from the page cache (GNU dd's `nocache` flag asks the kernel with
 * posix_fadvise), so the next read comes from the disk. Needs no privilege.
 */
function dropFromPageCache(file) {
  execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** Downloads the big file from both servers, its pages cached (warmed by the first run) or dropped before each download. */
async function measureDownload(nginx, burrow, { cached }) {
  // A 1 GiB download from the cache takes under a second, and single runs vary by a tenth on a
  // shared machine: up to 9 runs keep the median steady.
  const runs = Math.max(1, Math.min(RUNS, 9));
  const nginxRates = [];
  const burrowRates = [];
  const get = hasCurl() ? curlTimed : fetchTimed;
  const file = path.join(data, 'big.bin');
  const fromNginxOnce = async () => {
    if (!cached) dropFromPageCache(file);
    return get(nginx.port, '/big.bin');
  };
  const fromBurrowOnce = async () => {
    if (!cached) dropFromPageCache(file);
    return get(burrow.port, '/api/raw/big.bin', { 'x-auth': burrow.token });
  };
  for (let run = 0; run < runs; run++) {
    // Each goes first in every other run, so neither always meets what the other left behind.
    const burrowFirst = run % 2 === 1;
    const first = await (burrowFirst ? fromBurrowOnce() : fromNginxOnce());
    const second = await (burrowFirst ? fromNginxOnce() : fromBurrowOnce());
    const [fromNginx, fromBurrow] = burrowFirst ? [second, first] : [first, second];
    if (fromBurrow.bytes !== FILE_MB * MiB || fromNginx.bytes !== FILE_MB * MiB) throw new Error('download sizes differ');
    nginxRates.push(fromNginx.bytes / fromNginx.seconds);
    burrowRates.push(fromBurrow.bytes / fromBurrow.seconds);
  }
  return { sizeMiB: FILE_MB, runs, cached, client: get === curlTimed ? 'curl' : 'node', nginxMiBs: median(nginxRates) / MiB, burrowMiBs: median(burrowRates) / MiB, ratio: median(burrowRates) / median(nginxRates) };
}

async function measureArchive(burrow) {
  const pid = burrow.child.pid;
  const settledAfterS = await waitUntilIdle(pid);
  log(`Burrow idle after ${settledAfterS.toFixed(0)} s`);
  const before = memoryOf(pid);
  // Writing 5 to clear_refs resets the peak (VmHWM) so it covers the archive alone.
  const hwmReset = resetPeakMemory(pid);
  let peakSampled = before.rss;
  const sampler = setInterval(() => {
    try {
      peakSampled = Math.max(peakSampled, memoryOf(pid).rss);
    } catch {
      // process gone
    }
  }, 25);
  const result = await fetchTimed(burrow.port, '/api/raw/archive/?algo=zip', { 'x-auth': burrow.token });
  clearInterval(sampler);
  const after = memoryOf(pid);
  if (result.status !== 200) throw new Error(`archive answered ${result.status}`);
  const peak = hwmReset ? Math.max(after.hwm, peakSampled) : peakSampled;
  return {
    files: ARCHIVE_FILES,
    sizeMiB: ARCHIVE_MB,
    seconds: result.seconds,
    archiveMiB: result.bytes / MiB,
    throughputMiBs: ARCHIVE_MB / result.seconds,
    settledAfterS,
    rssBeforeMB: before.rss / 1e6,
    peakRssMB: peak / 1e6,
    growthMB: (peak - before.rss) / 1e6,
    peakSource: hwmReset ? 'VmHWM after reset, and VmRSS sampled every 25 ms' : 'VmRSS sampled every 25 ms',
  };
}

/**
 * The same tools at the same levels as Burrow's formats, where they are installed: each run is
 * `tar -cf - archive | <tool>` (for gzip `tar -czf -`, which runs gzip -6 beside tar just so),
 * read to the end. Formats without such a tool (snappy framing, brotli when absent) have none.
 */
const REFERENCES = {
  tar: { tool: null, label: 'tar -cf' },
  targz: { tool: null, label: 'tar -czf (gzip -6)', tarFlag: '-z' },
  tarbz2: { tool: ['bzip2', '-c', '-9'], label: 'tar | bzip2 -9' },
  tarxz: { tool: ['xz', '-c', '-2', '-T1'], label: 'tar | xz -2 -T1' },
  tarzst: { tool: ['zstd', '-c', '-3', '-q'], label: 'tar | zstd -3' },
  tarlz4: { tool: ['lz4', '-c', '-1', '-q'], label: 'tar | lz4 -1' },
  tarbr: { tool: ['brotli', '-c', '-q', '4'], label: 'tar | brotli -q 4' },
};

function commandExists(command) {
  try {
    execFileSync(command, ['--help'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch (error) {
    return error.code !== 'ENOENT';
  }
}

/** Runs `tar` (and a compressor after it) over the archive folder; resolves with the seconds and bytes. */
function referenceTimed(reference) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const tar = spawn('tar', [reference.tarFlag ? `-c${reference.tarFlag.slice(1)}f` : '-cf', '-', 'archive'], { cwd: data, stdio: ['ignore', 'pipe', 'inherit'] });
    let last = tar;
    if (reference.tool) {
      last = spawn(reference.tool[0], reference.tool.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
      tar.stdout.pipe(last.stdin);
    }
    let bytes = 0;
    last.stdout.on('data', (chunk) => (bytes += chunk.length));
    last.on('error', reject);
    last.on('close', (code) => {
      if (code !== 0) reject(new Error(`${reference.label} exited with ${code}`));
      else resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes });
    });
  });
}

/**
 * Every archive format of the same folder, Burrow's time beside its reference tool's in the
 * same run (BENCH_FORMAT_RUNS each, alternating, medians), with Burrow's CPU time and its memory
 * growth over the whole series.
 */
async function measureFormats(burrow) {
  const runs = Number(env.BENCH_FORMAT_RUNS ?? 1);
  const formats = (env.BENCH_FORMATS ?? 'zip tar targz tarbz2 tarxz tarlz4 tarsz tarbr tarzst').split(' ').filter(Boolean);
  const pid = burrow.child.pid;
  const results = [];
  for (const format of formats) {
    const reference = REFERENCES[format];
    const usable = reference && (reference.tool === null || commandExists(reference.tool[0]));
    const burrowTimes = [];
    const referenceTimes = [];
    let cpuSeconds = 0;
    let archiveBytes = 0;
    let referenceBytes = 0;
    await waitUntilIdle(pid, 30_000);
    const before = memoryOf(pid).rss;
    let peak = before;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, memoryOf(pid).rss);
      } catch {
        // process gone
      }
    }, 50);
    for (let run = 0; run < runs; run++) {
      if (usable) {
        const fromReference = await referenceTimed(reference);
        referenceTimes.push(fromReference.seconds);
        referenceBytes = fromReference.bytes;
      }
      const cpuBefore = cpuSecondsOf(pid);
      const fromBurrow = await fetchTimed(burrow.port, `/api/raw/archive/?algo=${format}`, { 'x-auth': burrow.token });
      if (fromBurrow.status !== 200) throw new Error(`${format} archive answered ${fromBurrow.status}`);
      cpuSeconds += cpuSecondsOf(pid) - cpuBefore;
      burrowTimes.push(fromBurrow.seconds);
      archiveBytes = fromBurrow.bytes;
    }
    clearInterval(sampler);
    const burrowS = median(burrowTimes);
    const referenceS = usable ? median(referenceTimes) : undefined;
    const row = {
      format,
      runs,
      burrowS,
      burrowCpuS: cpuSeconds / runs,
      archiveMiB: archiveBytes / MiB,
      reference: usable ? reference.label : undefined,
      referenceS,
      referenceMiB: usable ? referenceBytes / MiB : undefined,
      ratio: referenceS ? burrowS / referenceS : undefined,
      growthMB: (peak - before) / 1e6,
    };
    log(`${format}: ${burrowS.toFixed(1)} s${referenceS ? `, ${reference.label} ${referenceS.toFixed(1)} s (${row.ratio.toFixed(2)}×)` : ''}, +${row.growthMB.toFixed(0)} MB`);
    results.push(row);
  }
  return results;
}

function formatsTable(formats) {
  const rows = [['Format', 'Burrow', 'CPU', 'Size', 'Reference', 'Reference time', 'Ratio', 'Memory growth']];
  for (const row of formats) {
    rows.push([
      row.format,
      `${row.burrowS.toFixed(1)} s`,
      `${row.burrowCpuS.toFixed(1)} s`,
      `${row.archiveMiB.toFixed(0)} MiB`,
      row.reference ?? '-',
      row.referenceS ? `${row.referenceS.toFixed(1)} s (${row.referenceMiB.toFixed(0)} MiB)` : '-',
      row.ratio ? `${row.ratio.toFixed(2)}×` : '-',
      `+${row.growthMB.toFixed(0)} MB`,
    ]);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((cells) => String(cells[column]).length)));
  return rows
    .map((cells, index) => {
      const line = '| ' + cells.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ') + ' |';
      return index === 0 ? line + '\n|' + widths.map((width) => '-'.repeat(width + 2)).join('|') + '|' : line;
    })
    .join('\n');
}

function table(results) {
  const rows = [
    ['Measure', 'nginx', 'Burrow', 'Ratio', 'Target', 'Met'],
    [
      `List ${results.listing.entries} entries (median of ${results.listing.runs})`,
      `${results.listing.nginxMedianMs.toFixed(1)} ms`,
      `${results.listing.burrowMedianMs.toFixed(1)} ms`,
      `${results.listing.ratio.toFixed(2)}×`,
      '≤ 1.0× nginx time',
      results.listing.ratio <= 1.0 ? 'yes' : 'no',
    ],
    [
      `First ${FIRST_ITEMS} of those entries and the counts (\`?first=\`, median of ${results.listing.runs})`,
      '–',
      `${results.listing.firstItemsMedianMs.toFixed(1)} ms`,
      `${(results.listing.firstItemsMedianMs / results.listing.nginxMedianMs).toFixed(2)}×`,
      'first rows on screen within 1 s',
      '–',
    ],
    [
      `Download ${results.download.sizeMiB} MiB (median of ${results.download.runs})`,
      `${results.download.nginxMiBs.toFixed(0)} MiB/s`,
      `${results.download.burrowMiBs.toFixed(0)} MiB/s`,
      `${results.download.ratio.toFixed(2)}×`,
      '≥ 0.95× nginx throughput',
      results.download.ratio >= 0.95 ? 'yes' : 'no',
    ],
    [
      `Download ${results.uncachedDownload.sizeMiB} MiB, not cached (median of ${results.uncachedDownload.runs})`,
      `${results.uncachedDownload.nginxMiBs.toFixed(0)} MiB/s`,
      `${results.uncachedDownload.burrowMiBs.toFixed(0)} MiB/s`,
      `${results.uncachedDownload.ratio.toFixed(2)}×`,
      '≥ 0.9× nginx throughput',
      results.uncachedDownload.ratio >= 0.9 ? 'yes' : 'no',
    ],
    [
      `Zip ${results.archive.files} files, ${results.archive.sizeMiB} MiB`,
      '-',
      `${results.archive.seconds.toFixed(1)} s, peak RSS ${results.archive.peakRssMB.toFixed(0)} MB (+${results.archive.growthMB.toFixed(0)} MB)`,
      '-',
      'peak memory < 100 MB',
      results.archive.peakRssMB < 100 ? 'yes' : results.archive.growthMB < 100 ? 'growth only' : 'no',
    ],
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row, index) => {
    const line = '| ' + row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ') + ' |';
    return index === 0 ? line + '\n|' + widths.map((width) => '-'.repeat(width + 2)).join('|') + '|' : line;
  }).join('\n');
}

async function main() {
  log(`work folder ${work}`);
  writeDataSet();
  const nginx = await startNginx();
  const burrow = await startBurrow();
  // The archive runs first, on a freshly started server once it is idle, so its memory figure is
  // its own.
  const archive = await measureArchive(burrow);
  log(`archive done: ${archive.seconds.toFixed(1)} s, peak RSS ${archive.peakRssMB.toFixed(0)} MB`);
  const listing = await measureListing(nginx, burrow);
  log(`listing done: ${listing.ratio.toFixed(2)}×`);
  const download = await measureDownload(nginx, burrow, { cached: true });
  log(`download done: ${download.ratio.toFixed(2)}×`);
  const uncachedDownload = await measureDownload(nginx, burrow, { cached: false });
  log(`uncached download done: ${uncachedDownload.ratio.toFixed(2)}×`);
  const formats = env.BENCH_FORMATS === '' ? [] : await measureFormats(burrow);
  const results = {
    date: new Date().toISOString(),
    // Other work on the machine skews every figure: the load average travels with the results.
    machine: machine(),
    burrowRuntime: burrow.runtime,
    listing,
    download,
    uncachedDownload,
    archive,
    formats,
  };
  const folder = path.join(here, 'results');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `files-${results.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(table(results) + '\n\n' + (formats.length > 0 ? formatsTable(formats) + '\n\n' : '') + `load average ${results.machine.loadAverage.join(' ')} on ${results.machine.cpus} cores; results: ${path.relative(repo, file)}\n`);
}

await runBench(main, { name: 'bench', deadlineMs: DEADLINE_MS });
