import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAST_PATHS_ENV } from './libc.js';

const moduleUrl = new URL('./memory-trim.ts', import.meta.url).href;
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-arena-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

// Says who it is on both standard streams, asks to be run again with one arena, and says so when
// that call returns (it must return only in the run that needs no restart).
const script = path.join(folder, 'restart.mts');
fs.writeFileSync(
  script,
  `import fs from 'node:fs';
const { execWithOneMallocArena } = await import(${JSON.stringify(moduleUrl)});
const self = { pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null, argv: process.argv.slice(2) };
fs.writeSync(1, JSON.stringify(self) + '\\n');
fs.writeSync(2, 'run ' + (self.arenas ?? 'unset') + '\\n');
execWithOneMallocArena();
fs.writeSync(1, 'returned\\n');
process.exitCode = 7;
`,
);

const odd = ['a b', 'quote " and \' both', 'ünïcode ✓', '', '--root=/x'];
const childEnv = (extra: Record<string, string> = {}) => {
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '', ...extra };
  if (!('MALLOC_ARENA_MAX' in extra)) delete env.MALLOC_ARENA_MAX;
  delete env[NO_FAST_PATHS_ENV];
  return env;
};

// execve and glibc's arenas are Linux's.
describe.skipIf(process.platform !== 'linux')('execWithOneMallocArena', () => {
  it('runs the program again in the same process with one arena, keeping its arguments, streams and exit code', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...odd], { cwd: serverDir, encoding: 'utf8', env: childEnv(), timeout: 60_000 });
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    const [first, second] = lines.slice(0, 2).map((line) => JSON.parse(line) as { pid: number; arenas: string | null; argv: string[] });
    expect(first).toEqual({ pid: result.pid, arenas: null, argv: odd });
    // The same process id: the program was replaced in place, not started as a child.
    expect(second).toEqual({ pid: result.pid, arenas: '1', argv: odd });
    expect(lines[2]).toBe('returned');
    expect(result.stderr).toBe('run unset\nrun 1\n');
    expect(result.status).toBe(7);
  });

  it('leaves a limit the user set alone', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: serverDir, encoding: 'utf8', env: childEnv({ MALLOC_ARENA_MAX: '4' }), timeout: 60_000 });
    expect(result.stdout.trim().split('\n')).toEqual([JSON.stringify({ pid: result.pid, arenas: '4', argv: [] }), 'returned']);
  });

  it('does not restart a process whose parent holds an IPC channel to it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: serverDir, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(status).toBe(7);
    expect(stdout.trim().split('\n')).toEqual([JSON.stringify({ pid: child.pid, arenas: null, argv: [] }), 'returned']);
  });
});
