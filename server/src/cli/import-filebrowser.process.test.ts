import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real `burrow` entry point, run from source by tsx, as a user runs it.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));
const fixture = path.join(repoRoot, 'test-fixtures/filebrowser/branded.db');

let dir: string;
let tsconfig: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-fb-process-'));
  tsconfig = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { baseUrl: repoRoot, paths: { '@burrow/protocol': ['protocol/src/index.ts'] } } }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Exit = { code: number | null; stdout: string; stderr: string };

function start(args: string[]) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BURROW_')));
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript, ...args], { cwd: repoRoot, env: { ...env, TSX_TSCONFIG_PATH: tsconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code) => setImmediate(() => resolve({ code, ...output }))));
  return { child, exited };
}

async function run(args: string[]): Promise<Exit> {
  const { child, exited } = start(args);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

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

describe.concurrent('burrow import filebrowser as a process', { timeout: 120_000 }, () => {
  it('serve refuses a filebrowser database with exit code 2, and the command it prints imports it', async () => {
    const folder = path.join(dir, 'refuse');
    fs.mkdirSync(folder);
    const database = path.join(folder, 'filebrowser.db');
    fs.copyFileSync(fixture, database);
    const root = path.join(folder, 'root');
    const refused = await run(['serve', '--database', database, '--root', root, '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is a filebrowser (BoltDB) database');
    expect(fs.readFileSync(database)).toEqual(fs.readFileSync(fixture));
    const command = /^\s+burrow (import filebrowser .*)$/m.exec(refused.stderr)?.[1];
    expect(command).toBe(`import filebrowser ${database} --database ${path.join(folder, 'burrow.db')}`);
    const imported = await run([...command!.split(' '), '--root', root]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('created admin (id 1, admin)');
    expect(imported.stdout).toContain('BURROW_ROOT=/srv');

    // The imported database serves, and the filebrowser password logs in.
    const port = await freePort();
    const server = start(['serve', '--database', path.join(folder, 'burrow.db'), '--root', root, '--port', String(port), '--log-level', 'silent']);
    try {
      const deadline = Date.now() + 60_000;
      let response: Response | undefined;
      while (!response && Date.now() < deadline) {
        response = await fetch(`http://127.0.0.1:${port}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'admin' }), headers: { 'content-type': 'application/json' } }).catch(
          () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200)),
        );
      }
      expect(response?.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('a dry run writes nothing; a second run refuses duplicates; --merge updates', async () => {
    const folder = path.join(dir, 'runs');
    fs.mkdirSync(folder);
    const database = path.join(folder, 'burrow.db');
    const onFiles = ['--database', database, '--root', path.join(folder, 'root')];
    const dry = await run(['import', 'filebrowser', fixture, '--dry-run', ...onFiles]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would create admin (id 1, admin)');
    expect(dry.stdout).toContain('branding name "Penta CM"');
    expect(dry.stdout).toMatch(/no minimum password length set/);
    expect(fs.existsSync(database)).toBe(false);

    expect((await run(['import', 'filebrowser', fixture, ...onFiles])).code).toBe(0);
    const again = await run(['import', 'filebrowser', fixture, ...onFiles]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already in the Burrow database: user "admin"\. Nothing was imported; run again with --merge/);
    const merged = await run(['import', 'filebrowser', fixture, '--merge', ...onFiles]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('updated admin (id 1, admin)');

    const notBolt = await run(['import', 'filebrowser', database, '--database', path.join(folder, 'other.db')]);
    expect(notBolt.code).toBe(1);
    expect(notBolt.stderr).toMatch(/is an SQLite database, not a filebrowser BoltDB database or export/);
  });
});
