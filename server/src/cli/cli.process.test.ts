import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupElementId } from '@burrow/protocol';

// The real `burrow` entry point, run from source by tsx: nothing is built for these tests.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));

let dir: string;
let tsconfig: string;
const children = new Set<ChildProcess>();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-process-'));
  // Resolve the protocol package from its sources, so a stale build of it cannot matter.
  tsconfig = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { baseUrl: repoRoot, paths: { '@burrow/protocol': ['protocol/src/index.ts'] } } }));
});
afterAll(() => {
  // Anything a failed test left running.
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Starts `burrow <args>` as its own process with a clean BURROW_* environment. */
function start(args: string[], env: Record<string, string> = {}) {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BURROW_')));
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript, ...args], {
    cwd: repoRoot,
    env: { ...cleanEnv, TSX_TSCONFIG_PATH: tsconfig, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      // Let the pipes drain before reporting.
      setImmediate(() => resolve({ code, signal, ...output }));
    });
  });
  return { child, output, exited };
}

async function run(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Exit> {
  const { child, exited } = start(args, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `burrow serve` on a free port and waits until /health answers. */
async function serve(files: { root: string; database: string }, env: Record<string, string> = {}, extra: string[] = []) {
  const port = await freePort();
  const server = start(['serve', '--port', String(port), '--address', '127.0.0.1', '--root', files.root, '--database', files.database, ...extra], env);
  const base = `http://127.0.0.1:${port}`;
  const health = await waitFor(async () => {
    if (server.child.exitCode !== null) throw new Error(`burrow serve exited early: ${server.output.stderr}`);
    const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    return response?.ok ? ((await response.json()) as unknown) : undefined;
  }, '/health');
  expect(health).toEqual({ status: 'OK' });
  return { ...server, base };
}

async function login(base: string, username: string, password: string) {
  return fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }), signal: AbortSignal.timeout(10_000) });
}

function tempFiles(name: string) {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  return { root: path.join(folder, 'root'), database: path.join(folder, 'burrow.db') };
}

// Each test spawns its own processes on its own files, so they run side by side.
describe.concurrent('burrow as a process', { timeout: 120_000 }, () => {
  it('adds a user, changes a setting, serves them over HTTP and stops cleanly on SIGTERM', async () => {
    const files = tempFiles('flow');
    const env = { BURROW_ADMIN_PASSWORD: 'process-admin-password' };
    const onFiles = ['--root', files.root, '--database', files.database];
    const added = await run(['users', 'add', 'bob', 'bob-process-password', ...onFiles], env);
    expect(added.stderr).toBe('');
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toContain('created user bob (id 2)');
    expect(added.stdout).not.toContain('process-admin-password');
    expect((await run(['config', 'set', 'signup', 'true', ...onFiles], env)).code).toBe(0);
    const shown = await run(['config', 'show', ...onFiles], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).settings.signup).toBe(true);

    const server = await serve(files, env, ['--log-level', 'warn']);
    const bob = await login(server.base, 'bob', 'bob-process-password');
    expect(bob.status).toBe(200);
    const token = await bob.text();
    expect(token.split('.')).toHaveLength(3);
    expect((await login(server.base, 'admin', 'process-admin-password')).status).toBe(200);
    expect((await login(server.base, 'bob', 'wrong-password')).status).toBe(403);
    const own = await fetch(`${server.base}/api/users/2`, { headers: { 'x-auth': token } });
    expect(await own.json()).toMatchObject({ id: 2, username: 'bob' });
    const page = await (await fetch(`${server.base}/files/`)).text();
    const startup = new RegExp(`id="${StartupElementId}">([^<]*)<`).exec(page)?.[1];
    expect(JSON.parse(startup!).Signup).toBe(true);

    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    await expect(fetch(`${server.base}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it('prints a generated admin password once on first start, and it logs in', async () => {
    const files = tempFiles('first-run');
    // A quiet log level must not hide the only copy of the password.
    const server = await serve(files, {}, ['--log-level', 'silent']);
    const password = /generated password (\S+)/.exec(server.output.stdout)?.[1];
    expect(password).toBeDefined();
    expect((await login(server.base, 'admin', password!)).status).toBe(200);
    expect((await login(server.base, 'admin', 'admin')).status).toBe(403);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('exits with code 2 and a clear message on invalid configuration', async () => {
    const files = tempFiles('invalid');
    const configFile = path.join(dir, 'invalid', 'bad.json');
    fs.writeFileSync(configFile, JSON.stringify({ port: 8080, colour: 'blue' }));
    // Flags and environment values are covered in-process (cli.test.ts); one of each kind here.
    const [env, file] = await Promise.all([
      run(['users', 'ls', '--database', files.database], { BURROW_LOG_LEVEL: 'loud' }),
      run(['serve', '--config', configFile, '--database', files.database]),
    ]);
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^burrow: invalid configuration: logLevel: .*"loud" \(from the environment variable BURROW_LOG_LEVEL\)\n$/);
    expect(file.code).toBe(2);
    expect(file.stderr).toBe(`burrow: invalid configuration: config file ${configFile}: unknown key colour\n`);
    expect(fs.existsSync(files.database)).toBe(false);
  });
});
