// What every benchmark needs around Burrow: a temporary folder removed at the end, a free port on
// 127.0.0.1, Burrow started (from server/dist or the sources) with its own database and cache,
// a login, cleanup of every child process on exit or on a signal, and memory and CPU figures of a
// process read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MiB = 1024 * 1024;
export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `--name value`, `--name=value` and bare `--flag` (then 'true'). */
export function parseArgs(list) {
  const parsed = {};
  for (let index = 0; index < list.length; index++) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(list[index]);
    if (!match) continue;
    parsed[match[1]] = match[2] ?? (list[index + 1] && !list[index + 1].startsWith('--') ? list[++index] : 'true');
  }
  return parsed;
}

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms)))]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// --- cleanup --------------------------------------------------------------------------------

const children = [];
const folders = [];
const cleanups = [];
let cleaning;

/** Stops every child started through `startChild` (TERM, then KILL) and removes the work folders. */
export function cleanup() {
  cleaning ??= (async () => {
    for (const task of cleanups.splice(0)) await Promise.resolve().then(task).catch(() => {});
    await Promise.all(children.map((child) => stopChild(child)));
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  })();
  return cleaning;
}

/** Runs `task` during cleanup, before the children are stopped. */
export function onCleanup(task) {
  cleanups.push(task);
}

let signalsHooked = false;
function hookSignals() {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\n[bench] ${signal}: stopping\n`);
      cleanup().finally(() => process.exit(130));
    });
  }
  // A crash still takes the servers and the data down with it (synchronously: exit allows nothing else).
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });
}

/** A fresh temporary folder (under `dir`, else the system's), removed by `cleanup` unless `keep`. */
export function makeWorkFolder(prefix, { dir, keep = false } = {}) {
  hookSignals();
  const folder = fs.mkdtempSync(path.join(dir ?? os.tmpdir(), prefix));
  if (!keep) folders.push(folder);
  return folder;
}

/**
 * Runs `main` with a deadline, reports a failure (with the tail of every child's output), and
 * always cleans up. The exit code is 1 on failure, 2 when the deadline was reached.
 */
export async function runBench(main, { deadlineMs = 60 * 60_000, name = 'bench' } = {}) {
  hookSignals();
  try {
    await withTimeout(Promise.resolve().then(main), deadlineMs, `${name} (deadline ${Math.round(deadlineMs / 1000)} s)`);
  } catch (error) {
    process.stderr.write(`[${name}] failed: ${error?.stack ?? error}\n`);
    for (const child of children) if (child.output?.()) process.stderr.write(`--- ${child.label} output ---\n${child.output()}\n`);
    process.exitCode = /timed out/.test(String(error?.message)) ? 2 : 1;
  } finally {
    await cleanup();
  }
}

// --- children -------------------------------------------------------------------------------

/**
 * Starts a process whose output is kept (the last 4000 characters) for error reports; each line
 * is also offered to `onLine`. Stopped by `cleanup`.
 */
export function startChild(command, args, { label = path.basename(command), onLine, ...options } = {}) {
  hookSignals();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let tail = '';
  let partial = '';
  const take = (chunk) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-4000);
    if (!onLine) return;
    partial += text;
    let newline;
    while ((newline = partial.indexOf('\n')) >= 0) {
      onLine(partial.slice(0, newline));
      partial = partial.slice(newline + 1);
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  // A program that cannot be started (not installed) is reported by whoever waits for it.
  child.on('error', (error) => {
    child.failure = error;
    tail = (tail + `\n${error.message}`).slice(-4000);
  });
  child.output = () => tail;
  child.label = label;
  children.push(child);
  return child;
}

/** SIGTERM, then SIGKILL after `ms`; resolves once the process is gone. */
export async function stopChild(child, ms = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await withTimeout(exited, ms, `${child.label} exit`).catch(() => {
    child.kill('SIGKILL');
    return exited;
  });
}

// --- HTTP -----------------------------------------------------------------------------------

/**
 * One request to 127.0.0.1. `body` is a Buffer or string, or `{ file, start, end }` to stream
 * bytes [start, end) of a file. With `hash` the response body is hashed (sha256) and counted
 * rather than kept.
 */
export function request(port, { method = 'GET', path: urlPath, headers = {}, body, agent, hash = false, timeoutMs = 300_000 }) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent }, (response) => {
      const digest = hash ? crypto.createHash('sha256') : undefined;
      const chunks = [];
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (digest) digest.update(chunk);
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString(), bytes, sha256: digest?.digest('hex') }));
      response.on('error', reject);
    });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`${method} ${urlPath} timed out`)));
    outgoing.on('error', reject);
    if (body && body.file) {
      fs.createReadStream(body.file, { start: body.start ?? 0, end: body.end === undefined ? undefined : body.end - 1, highWaterMark: MiB })
        .on('error', reject)
        .pipe(outgoing);
    } else {
      outgoing.end(body);
    }
  });
}

/** Polls `path` until it answers below 500 (or `child` exits). */
export async function waitForHttp(port, urlPath = '/health', { child, ms = 60_000, name = 'server' } = {}) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child?.failure) throw new Error(`${name} could not be started: ${child.failure.message}`);
    if (child && child.exitCode !== null) throw new Error(`${name} exited early (${child.exitCode})`);
    const response = await request(port, { path: urlPath, timeoutMs: 5000 }).catch(() => undefined);
    if (response && response.status < 500) return;
    await sleep(150);
  }
  throw new Error(`${name} did not answer on port ${port}`);
}

/** POST /api/login; resolves with the token for X-Auth. */
export async function login(port, username, password) {
  const response = await request(port, { method: 'POST', path: '/api/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.body}`);
  return response.body;
}

// --- Burrow ---------------------------------------------------------------------------------

const ADMIN_PASSWORD = 'bench-admin-password-' + crypto.randomBytes(4).toString('hex');

/** `npm run build -w server`; true when it succeeded. */
export function buildServer({ timeoutMs = 30 * 60_000 } = {}) {
  const result = spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: repo, encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').filter((line) => line.includes('error')).slice(0, 5).join('\n') + '\n');
  return result.status === 0;
}

const distEntry = path.join(repo, 'server', 'dist', 'main.js');

/**
 * Starts `burrow serve` on a free port of 127.0.0.1 over `root`, with its database and cache in
 * `work`, waits for /health and logs in as admin.
 *
 * runtime: 'dist' (server/dist, built beforehand), 'tsx' (the sources) or 'auto' (dist when built).
 * Log lines are parsed as JSON where they are; `waitForLog(test, ms, what)` resolves with the
 * first record (seen or to come) for which `test` holds.
 */
export async function startBurrow({ work, root = path.join(work, 'root'), database = path.join(work, 'burrow.db'), runtime = 'auto', logLevel = 'warn', nodeArgs = [], serveArgs = [], env = {}, login: doLogin = true, readyMs = 120_000, waitForHealth = true } = {}) {
  const port = await freePort();
  fs.mkdirSync(root, { recursive: true });
  const useDist = runtime === 'dist' || (runtime === 'auto' && fs.existsSync(distEntry));
  const entry = useDist ? [distEntry] : ['--import', 'tsx', path.join(repo, 'server', 'src', 'main.ts')];
  const records = [];
  const waiters = [];
  const onLine = (line) => {
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      record = { msg: line };
    }
    records.push(record);
    if (records.length > 10_000) records.splice(0, records.length - 10_000);
    for (const waiter of [...waiters]) {
      if (waiter.test(record)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(record);
      }
    }
  };
  const child = startChild(
    process.execPath,
    [...nodeArgs, ...entry, 'serve', '--root', root, '--database', database, '--cache-dir', path.join(work, 'burrow-cache'), '--address', '127.0.0.1', '--port', String(port), '--log-level', logLevel, ...serveArgs],
    { cwd: path.join(repo, 'server'), env: { ...process.env, BURROW_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env }, label: 'burrow', onLine },
  );
  const waitForLog = (test, ms, what) => {
    const seen = records.find(test);
    if (seen) return Promise.resolve(seen);
    return withTimeout(
      new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        child.once('exit', (code) => reject(new Error(`burrow exited (${code}) before: ${what}`)));
      }),
      ms,
      what,
    );
  };
  if (waitForHealth) await waitForHttp(port, '/health', { child, ms: readyMs, name: 'burrow' });
  const token = doLogin ? await login(port, 'admin', ADMIN_PASSWORD) : undefined;
  return { port, root, token, child, pid: child.pid, runtime: useDist ? 'dist' : 'tsx', password: ADMIN_PASSWORD, waitForLog, records };
}

// --- files ----------------------------------------------------------------------------------

/** A file of `size` bytes from a random block repeated with a counter, so nothing compresses or dedups. */
export function makeSourceFile(file, size) {
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

export function sha256File(file) {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    fs.createReadStream(file, { highWaterMark: 4 * MiB })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

// --- process figures ------------------------------------------------------------------------

/** Resident memory of a process in bytes: now (rss), its peak (hwm) and the anonymous part. */
export function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM'), anon: field('RssAnon') };
}

/** Resets a process's VmHWM to its current RSS (Linux, own processes); false where it cannot. */
export function resetPeakMemory(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples a process's RSS every `intervalMs`; `stop()` returns { max, last, samples } in bytes.
 * A process that is gone ends the sampling.
 */
export function sampleRss(pid, intervalMs = 250) {
  let max = 0;
  let last = 0;
  let samples = 0;
  const take = () => {
    try {
      last = memoryOf(pid).rss;
      max = Math.max(max, last);
      samples++;
    } catch {
      clearInterval(timer);
    }
  };
  const timer = setInterval(take, intervalMs);
  take();
  return {
    stop() {
      clearInterval(timer);
      take();
      return { max, last, samples };
    },
  };
}

/** CPU seconds (user + system) a process has used so far (0 where /proc is missing). */
export function cpuSecondsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Waits until a process has used under 5% of a core for two seconds in a row, at most `ms`
 * (a freshly started Burrow indexes its root for search). Returns the seconds it waited.
 */
export async function waitUntilIdle(pid, ms = 120_000) {
  const started = Date.now();
  let quiet = 0;
  let last = cpuSecondsOf(pid);
  while (quiet < 2 && Date.now() - started < ms) {
    await sleep(1000);
    const now = cpuSecondsOf(pid);
    quiet = now - last < 0.05 ? quiet + 1 : 0;
    last = now;
  }
  return (Date.now() - started) / 1000;
}

/** The machine as results should record it: other work on it skews every figure. */
export function machine() {
  return { cpus: os.cpus().length, node: process.version, memoryGiB: Math.round(os.totalmem() / 2 ** 30), loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))) };
}

export const quantile = (values, q) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
