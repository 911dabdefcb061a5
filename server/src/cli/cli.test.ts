import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.js';
import { openDatabase } from '../storage/db.js';
import { testDatabase } from '../test-support/postgres.js';
import { createUsersRepository } from '../modules/users/users.repository.js';
import { verifyPassword } from '../modules/auth/passwords.js';

/** Thrown in place of process.exit so a run can be observed in-process. */
class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

type Run = { code: number; stdout: string; stderr: string };

let dir: string;
let database: string;
let root: string;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-cli-'));
  database = await testDatabase(path.join(dir, 'burrow.db'));
  root = path.join(dir, 'root');
  for (const name of Object.keys(process.env)) if (name.startsWith('BURROW_')) vi.stubEnv(name, undefined);
  vi.stubEnv('BURROW_ADMIN_PASSWORD', 'admin-cli-password-1');
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `burrow <args>` in-process the way main.ts does: errors print and exit 1. */
async function burrow(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation((code?: number | string | null) => {
    throw new CliExit(Number(code ?? 0));
  });
  let code = 0;
  try {
    await runCli(['node', 'burrow', ...args]);
  } catch (error) {
    if (error instanceof CliExit) code = error.code;
    else {
      code = 1;
      stderr += `burrow: ${(error as Error).message}\n`;
    }
  } finally {
    out.mockRestore();
    err.mockRestore();
    exit.mockRestore();
  }
  return { code, stdout, stderr };
}

/** `burrow <command…> --database … --root …` on this test's temporary files. */
const onTemp = (...args: string[]) => burrow(...args, '--database', database, '--root', root);

async function storedUser(username: string) {
  const db = await openDatabase(database);
  try {
    return await createUsersRepository(db).findByUsername(username);
  } finally {
    await db.destroy();
  }
}

describe('help', () => {
  const commands = [[], ['serve'], ['users'], ['users', 'add'], ['users', 'ls'], ['users', 'rm'], ['users', 'update'], ['config'], ['config', 'show'], ['config', 'set'], ['migrate']];
  it.each(commands)('burrow %s --help', async (...command: string[]) => {
    const run = await burrow(...command, '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: burrow${command.length ? ' ' + command.join(' ') : ''}`);
    expect(run.stdout).toMatch(/-h, --help/);
  });

  it('lists the server options on every command that opens the database', async () => {
    for (const command of [['serve'], ['users', 'ls'], ['config', 'set']]) {
      const run = await burrow(...command, '--help');
      for (const option of ['--database <file>', '--root <dir>', '--port <port>', '--config <file>']) expect(run.stdout, command.join(' ')).toContain(option);
    }
  });

  it('migrate names what it needs and refuses a source that does not exist', async () => {
    expect((await burrow('migrate', '--to', 'postgres://u@127.0.0.1:1/x')).stderr).toMatch(/--from <database>/);
    const run = await burrow('migrate', '--from', path.join(dir, 'missing.db'), '--to', 'postgres://u:secret@127.0.0.1:1/x');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/missing\.db does not exist: --from must name an existing Burrow database/);
    expect(run.stderr).not.toContain('secret');
  });

  it('exits 2 on an unknown command or option', async () => {
    expect((await burrow('users', 'frobnicate')).code).toBe(2);
    const run = await burrow('users', 'ls', '--colour');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option '--colour'/);
  });

  it('exits 2 with a clear message on an invalid configuration value', async () => {
    const port = await onTemp('users', 'ls', '--port', 'eighty');
    expect(port.code).toBe(2);
    expect(port.stderr).toBe('burrow: invalid configuration: port: expected a whole number from 0 to 65535, got "eighty" (from the command line)\n');
    vi.stubEnv('BURROW_TOKEN_EXPIRATION', 'forever');
    const env = await onTemp('config', 'show');
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/tokenExpiration: .*BURROW_TOKEN_EXPIRATION/);
    expect(fs.existsSync(database)).toBe(false);
  });
});

describe('first run', () => {
  it('takes the admin password from BURROW_ADMIN_PASSWORD and prints none', async () => {
    const run = await onTemp('users', 'ls');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('1\tadmin\tadmin\t/\n');
    expect(await verifyPassword('admin-cli-password-1', (await storedUser('admin'))!.passwordHash)).toBe(true);
  });

  it('otherwise generates a random password, prints it once, and it works', async () => {
    vi.stubEnv('BURROW_ADMIN_PASSWORD', undefined);
    const first = await onTemp('users', 'ls');
    const match = /created user "admin" with password (\S+)/.exec(first.stdout);
    expect(match).not.toBeNull();
    const password = match![1]!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(await verifyPassword(password, (await storedUser('admin'))!.passwordHash)).toBe(true);
    const second = await onTemp('users', 'ls');
    expect(second.stdout).not.toContain('password');
    expect(second.stdout).not.toContain(password);
    // Another fresh database gets another password: there is no default.
    database = await testDatabase(path.join(dir, 'other.db'));
    const other = /created user "admin" with password (\S+)/.exec((await onTemp('users', 'ls')).stdout);
    expect(other?.[1]).toBeDefined();
    expect(other![1]).not.toBe(password);
  });
});

describe('users', () => {
  it('adds users with defaults, a scope, chosen permissions or admin rights', async () => {
    const plain = await onTemp('users', 'add', 'bob', 'bob-password-123');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/created user bob \(id 2\)/);
    const scoped = await onTemp('users', 'add', 'carol', 'carol-password-123', '--scope', '../../carol', '--perm', 'create,download');
    expect(scoped.code).toBe(0);
    expect(await onTemp('users', 'add', 'dave', 'dave-password-123', '--admin')).toMatchObject({ code: 0 });
    const bob = await storedUser('bob');
    expect(bob?.scope).toBe('/');
    expect(bob?.perm).toMatchObject({ admin: false, create: true, download: true, share: true });
    expect(await verifyPassword('bob-password-123', bob!.passwordHash)).toBe(true);
    const carol = await storedUser('carol');
    expect(carol?.scope).toBe('/carol');
    expect(fs.statSync(path.join(root, 'carol')).isDirectory()).toBe(true);
    expect(carol?.perm).toEqual({ admin: false, execute: false, create: true, rename: false, modify: false, delete: false, share: false, download: true });
    expect(Object.values((await storedUser('dave'))!.perm).every(Boolean)).toBe(true);
    const list = await onTemp('users', 'ls');
    expect(list.stdout.trim().split('\n')).toEqual(['1\tadmin\tadmin\t/', '2\tbob\tuser\t/', '3\tcarol\tuser\t/carol', '4\tdave\tadmin\t/']);
  });

  it('refuses bad passwords, taken names and unknown permissions with a message and exit 1', async () => {
    const short = await onTemp('users', 'add', 'bob', 'short');
    expect(short).toMatchObject({ code: 1 });
    expect(short.stderr).toMatch(/password is too short, minimum length is 12/);
    expect((await onTemp('users', 'add', 'ADMIN', 'long-enough-pass-1')).stderr).toMatch(/username already taken/);
    const perm = await onTemp('users', 'add', 'bob', 'long-enough-pass-1', '--perm', 'create,downlaod');
    expect(perm.code).toBe(1);
    expect(perm.stderr).toMatch(/unknown permission downlaod/);
    expect(await storedUser('bob')).toBeUndefined();
  });

  it('updates passwords, scopes, admin rights and password locks', async () => {
    await onTemp('users', 'add', 'bob', 'bob-password-123');
    expect((await onTemp('users', 'update', 'bob', '--password', 'another-password-9')).stdout).toBe('updated user bob\n');
    expect(await verifyPassword('another-password-9', (await storedUser('bob'))!.passwordHash)).toBe(true);
    await onTemp('users', 'update', 'bob', '--scope', '/x/../home/bob', '--lock-password', 'true');
    expect(await storedUser('bob')).toMatchObject({ scope: '/home/bob', lockPassword: true });
    await onTemp('users', 'update', 'bob', '--admin', 'true');
    expect(await storedUser('bob')).toMatchObject({ lockPassword: false, perm: { admin: true, execute: true } });
    await onTemp('users', 'update', 'bob', '--admin', 'false');
    expect((await storedUser('bob'))?.perm.admin).toBe(false);
  });

  it('refuses impossible updates with a message', async () => {
    await onTemp('users', 'add', 'bob', 'bob-password-123');
    expect((await onTemp('users', 'update', 'bob')).stderr).toMatch(/nothing to change/);
    expect((await onTemp('users', 'update', 'nobody', '--password', 'another-password-9')).stderr).toMatch(/no user named nobody/);
    expect((await onTemp('users', 'update', 'bob', '--password', 'short')).stderr).toMatch(/too short/);
    expect((await onTemp('users', 'update', 'bob', '--lock-password', 'yes')).code).toBe(2);
    const demote = await onTemp('users', 'update', 'admin', '--admin', 'false');
    expect(demote.code).toBe(1);
    expect(demote.stderr).toMatch(/sole admin/);
    expect((await storedUser('admin'))?.perm.admin).toBe(true);
  });

  it('removes users, but never the sole admin', async () => {
    await onTemp('users', 'add', 'bob', 'bob-password-123');
    expect((await onTemp('users', 'rm', 'bob')).stdout).toBe('deleted user bob\n');
    expect(await storedUser('bob')).toBeUndefined();
    const admin = await onTemp('users', 'rm', 'admin');
    expect(admin.code).toBe(1);
    expect(admin.stderr).toMatch(/sole admin/);
    expect((await onTemp('users', 'rm', 'nobody')).stderr).toMatch(/no user named nobody/);
  });
});

describe('config', () => {
  async function shown() {
    const run = await onTemp('config', 'show');
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as { server: Record<string, unknown>; settings: Record<string, any> };
  }

  it('shows the server configuration and stored settings, without secrets', async () => {
    vi.stubEnv('BURROW_RECAPTCHA_SECRET', 'captcha-secret');
    const { server, settings } = await shown();
    expect(server).toMatchObject({ database, root, port: 8080 });
    expect(server).not.toHaveProperty('adminPassword');
    expect(server).not.toHaveProperty('recaptchaSecret');
    expect(settings).toMatchObject({ signup: false, authMethod: 'json', minimumPasswordLength: 12 });
    const text = (await onTemp('config', 'show')).stdout;
    expect(text).not.toContain('captcha-secret');
    expect(text).not.toContain('admin-cli-password-1');
  });

  it('takes the allowed Host names from --allowed-hosts, else from the listen address', async () => {
    expect((await shown()).server.allowedHosts).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    const run = await onTemp('config', 'show', '--allowed-hosts', 'files.example.com,*.home.arpa');
    expect(JSON.parse(run.stdout).server.allowedHosts).toEqual(['files.example.com', '*.home.arpa']);
  });

  it('says whether commands can run, or why not', async () => {
    expect((await onTemp('config', 'show')).stdout).toContain('"commandRunner": "off: execution is disabled (enableExec is false)"');
    vi.stubEnv('BURROW_ENABLE_EXEC', 'true');
    vi.stubEnv('BURROW_BWRAP', path.join(dir, 'no-bwrap'));
    const shown = JSON.parse((await onTemp('config', 'show')).stdout) as { commandRunner: string; server: Record<string, unknown> };
    expect(shown.commandRunner).toBe(`off: bubblewrap was not found at ${path.join(dir, 'no-bwrap')} (install the bubblewrap package or set bwrap)`);
    expect(shown.server).toMatchObject({ bwrap: path.join(dir, 'no-bwrap'), commandUser: '' });
    vi.stubEnv('BURROW_BWRAP', '/usr/bin/bwrap');
    expect(JSON.parse((await onTemp('config', 'show')).stdout).commandRunner).toBe('available');
  });

  it('sets booleans, numbers, text, nested keys and JSON values', async () => {
    expect((await onTemp('config', 'set', 'signup', 'true')).stdout).toBe('signup = "true"\n');
    await onTemp('config', 'set', 'minimumPasswordLength', '16');
    await onTemp('config', 'set', 'branding.name', 'Den');
    await onTemp('config', 'set', 'tus.retryCount', '2');
    await onTemp('config', 'set', 'shell', '[" bash ", "", "-c"]');
    await onTemp('config', 'set', 'authMethod', 'proxy');
    const { settings } = await shown();
    expect(settings).toMatchObject({ signup: true, minimumPasswordLength: 16, branding: { name: 'Den' }, tus: { retryCount: 2 }, shell: ['bash', '-c'], authMethod: 'proxy' });
  });

  it('refuses invalid values and unknown keys, leaving the settings alone', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['signup', 'maybe'], /signup must be true or false/],
      [['minimumPasswordLength', '0'], /minimumPasswordLength/],
      [['minimumPasswordLength', '12abc'], /must be a whole number/],
      [['tus.chunkSize', '-1'], /chunkSize/],
      [['branding.theme', 'purple'], /invalid theme/],
      [['nonsense', 'x'], /unknown setting nonsense/],
      [['branding.nothing', 'x'], /unknown setting branding.nothing/],
      [['shell', '{"a":1}'], /shell/],
      [['shell', 'not json'], /shell takes JSON/],
      [['rules', '[{"regex":true,"allow":false,"path":"","regexp":{"raw":"("}}]'], /invalid rule/],
      [['authMethod', 'magic'], /authMethod must be one of/],
    ];
    const before = (await shown()).settings;
    for (const [args, message] of cases) {
      const run = await onTemp('config', 'set', ...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toMatch(message);
    }
    expect((await shown()).settings).toEqual(before);
  });
});
