import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Several real Burrow processes over one database, one root and one cache folder (the tests put
// the round-robin proxy of bench/lib/cluster.mjs in front of them).

const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const mainFile = path.join(serverDir, 'src', 'main.ts');

/** A tsconfig for the children: tsx runs the sources, @burrow/protocol included (no build output involved). */
export function childTsconfig(): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-cluster-tsconfig-'));
  const file = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      extends: path.join(serverDir, 'tsconfig.json'),
      compilerOptions: { paths: { '@burrow/protocol': [path.join(serverDir, '..', 'protocol', 'src', 'index.ts')] } },
    }),
  );
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type Instance = {
  readonly name: string;
  port: number;
  child: ChildProcess;
  /** The last 20 000 characters the process wrote. */
  output(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  alive(): boolean;
};

export type InstanceOptions = {
  name: string;
  database: string;
  root: string;
  cacheDir: string;
  tsconfig: string;
  adminPassword: string;
  /** Extra environment (BURROW_* settings). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
};

/** Starts `burrow serve` on a free port of 127.0.0.1 and resolves once it listens. */
export function startInstance(options: InstanceOptions): Promise<Instance> {
  const args = ['--import', 'tsx', mainFile, 'serve', '--root', options.root, '--database', options.database, '--cache-dir', options.cacheDir, '--address', '127.0.0.1', '--port', '0', '--log-level', 'info'];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...options.env, BURROW_ADMIN_PASSWORD: options.adminPassword, TSX_TSCONFIG_PATH: options.tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = {
    name: options.name,
    port: 0,
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (instance.alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void instance.kill();
      reject(new Error(`${options.name} did not start:\n${output}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = /at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match && instance.port === 0) {
        clearTimeout(timer);
        instance.port = Number(match[1]);
        resolve(instance);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (instance.port === 0) reject(new Error(`${options.name} exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}
