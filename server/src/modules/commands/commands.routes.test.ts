import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandCloseCodes, CommandMessages } from '@burrow/protocol';
import { authPlugin } from '../../plugins/auth.js';
import { errorHandlerPlugin } from '../../plugins/error-handler.js';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { commandsModule } from './commands.module.js';
import { createCommandsService, type CommandsDeps } from './commands.service.js';
import { sandboxFor } from './sandbox.js';

const ALLOWED = ['ls', 'pwd', 'echo', 'sleep', 'sh', 'touch', 'yes', 'no-such-program-here'];

/** The owner given to the scope: a server running as root starts commands as the scope's owner. */
const SCOPE_OWNER = 4242;
const asRoot = process.getuid?.() === 0;

let t: TestApp | undefined;
const extraApps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of extraApps.splice(0)) await app.close();
  await t?.close();
  t = undefined;
});

/** The test app, listening, with a user allowed to run ALLOWED in scope `/work`. */
async function setUp(overrides: Record<string, unknown> = { enableExec: true }, user: Parameters<typeof makeUser>[1] = { username: 'runner' }) {
  t = await createTestApp(overrides);
  fs.mkdirSync(path.join(t.root, 'work', 'sub'), { recursive: true });
  await makeUser(t, { scope: '/work', perm: { execute: true }, commands: ALLOWED, ...user });
  if (asRoot) for (const folder of ['work', 'work/sub']) fs.chownSync(path.join(t.root, folder), SCOPE_OWNER, SCOPE_OWNER);
  // The sandbox's user looks the scope up from the root: the folders above it must let it pass.
  fs.chmodSync(path.dirname(t.root), 0o711);
  fs.chmodSync(t.root, 0o711);
  const token = await loginAs(t, user.username);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { token, base: address.replace(/^http/, 'ws') };
}

/** A second app over the same services with a commands service of other runner limits. */
async function limitedApp(options: { timeLimitMs?: number; outputLimitBytes?: number; maxRunning?: number }): Promise<string> {
  const { config, settings, scopes, auth } = t!.app.services;
  const { maxRunning, ...limits } = options;
  const deps: CommandsDeps = { config, settings, scopes, sandbox: sandboxFor(config), limits, maxRunning };
  const app = Fastify();
  extraApps.push(app);
  await app.register(errorHandlerPlugin);
  await app.register(authPlugin, { auth });
  await app.register(commandsModule, { commands: createCommandsService(deps), auth });
  return (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
}

type Outcome = { status?: number; lines: string[]; code?: number; reason?: string };

/**
 * Opens the socket, sends `frames` once open, collects text frames until the server closes.
 * `onLine` may close the client side early.
 */
function session(url: string, frames: string[], options: { token?: string; headers?: Record<string, string>; onLine?: (line: string, socket: WebSocket) => void } = {}): Promise<Outcome> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.cookie = `auth=${options.token}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const lines: string[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no end of session within 20 s; got ${JSON.stringify(lines).slice(0, 200)}`));
    }, 20_000);
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      resolve({ status: response.statusCode, lines });
      socket.terminate();
    });
    socket.on('open', () => {
      for (const frame of frames) socket.send(frame);
    });
    socket.on('message', (data) => {
      const line = data.toString();
      lines.push(line);
      options.onLine?.(line, socket);
    });
    socket.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ lines, code, reason: reason.toString() });
    });
    socket.on('error', () => undefined);
  });
}

/** Every path under the root, to prove an attempt left nothing behind. */
function everything(root: string, relative = ''): string[] {
  return fs.readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    return entry.isDirectory() ? [child, ...everything(root, child)] : [child];
  });
}

type HostProcess = { pid: number; name: string; uid: number };

/**
 * The processes this test process started, directly or not, as the host sees them (the server
 * runs in this process; pids printed inside the sandbox are those of its own PID namespace).
 */
function descendants(): HostProcess[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.replace(/^.*\) /s, '').split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: HostProcess[] = [];
  const queue = [process.pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue;
      queue.push(pid);
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        found.push({ pid, name: /^Name:\s*(.*)$/m.exec(status)![1]!, uid: Number(/^Uid:\s*(\d+)/m.exec(status)![1]) });
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return found;
}

/** Alive means running: a zombie waiting for a reaper has already been killed. */
function isAlive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('command runner: running', () => {
  it('streams stdout and stderr lines and closes with 1000 after a zero exit', async () => {
    const { token, base } = await setUp();
    expect(await session(`${base}/api/command/`, ['echo hello "quoted words"'], { token })).toEqual({ lines: ['hello quoted words'], code: 1000, reason: '' });
    const failing = await session(`${base}/api/command/`, [`sh -c 'echo out; echo err >&2; exit 3'`], { token });
    expect(failing.lines.sort()).toEqual(['err', 'out']);
    expect(failing).toMatchObject({ code: 1011, reason: 'Internal Server Error' });
  });

  it('closes with 1011 when the program cannot start', async () => {
    const { token, base } = await setUp();
    const outcome = await session(`${base}/api/command/`, ['no-such-program-here'], { token });
    expect(outcome).toMatchObject({ code: 1011, reason: 'Internal Server Error' });
    expect(outcome.lines.join('\n')).toMatch(/no-such-program-here: No such file or directory/);
  });

  it('runs in the requested folder, seen at its path inside the sandbox, and nowhere else', async () => {
    const { token, base } = await setUp();
    expect((await session(`${base}/api/command/`, ['pwd'], { token })).lines).toEqual(['/scope']);
    expect((await session(`${base}/api/command/sub`, ['pwd'], { token })).lines).toEqual(['/scope/sub']);
    fs.symlinkSync(t!.outside, path.join(t!.root, 'work', 'escape'));
    const escaped = await session(`${base}/api/command/escape`, ['pwd'], { token });
    expect(escaped).toMatchObject({ lines: ['403 Forbidden'], code: 1008 });
    const missing = await session(`${base}/api/command/nowhere`, ['pwd'], { token });
    expect(missing).toMatchObject({ lines: ['404 Not Found'], code: 1008 });
    // `..` stays inside the scope.
    expect((await session(`${base}/api/command/sub%2F..%2F..%2F..`, ['pwd'], { token })).lines).toEqual(['/scope']);
  });

  it.skipIf(!asRoot)('runs as the owner of the scope, never as root, when the server is root', async () => {
    const { token, base } = await setUp();
    const seen: HostProcess[] = [];
    const outcome = await session(`${base}/api/command/sub`, [`sh -c 'touch made; echo started; exec sleep 30'`], {
      token,
      onLine: (line, socket) => {
        // The shell prints, then becomes sleep: look once it has, however slow the machine.
        void (async () => {
          let found = descendants();
          for (const deadline = Date.now() + 10_000; !found.some((entry) => entry.name === 'sleep') && Date.now() < deadline; found = descendants()) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          seen.push(...found);
          socket.close();
        })();
      },
    });
    expect(outcome.lines).toEqual(['started']);
    expect(fs.statSync(path.join(t!.root, 'work', 'sub', 'made'))).toMatchObject({ uid: SCOPE_OWNER, gid: SCOPE_OWNER });
    // bwrap itself and everything inside it: not one process as root.
    expect(seen.map((entry) => entry.name)).toEqual(expect.arrayContaining(['bwrap', 'sleep']));
    expect(seen.filter((entry) => entry.uid !== SCOPE_OWNER)).toEqual([]);
  });

  it.skipIf(!asRoot)('runs as commandUser when set, and as nobody in a scope root owns', async () => {
    for (const [overrides, expected] of [
      [{ enableExec: true, commandUser: '4343:4344' }, { uid: 4343, gid: 4344 }],
      [{ enableExec: true }, { uid: 65534, gid: 65534 }],
    ] as const) {
      const { token, base } = await setUp(overrides);
      fs.chownSync(path.join(t!.root, 'work'), 0, 0);
      fs.chmodSync(path.join(t!.root, 'work'), 0o777);
      expect(await session(`${base}/api/command/`, ['touch made'], { token })).toMatchObject({ code: 1000 });
      expect(fs.statSync(path.join(t!.root, 'work', 'made'))).toMatchObject(expected);
      await t!.close();
      t = undefined;
    }
  });

  it.skipIf(!asRoot)('says what to change when the sandbox user cannot reach the scope, and runs nothing', async () => {
    const { token, base } = await setUp();
    // A server root kept in a folder only root may enter, as a fresh temporary folder is.
    fs.chmodSync(path.dirname(t!.root), 0o700);
    const outcome = await session(`${base}/api/command/`, ['touch made'], { token });
    expect(outcome.lines).toEqual([`Commands run as user ${SCOPE_OWNER}:${SCOPE_OWNER}, who cannot reach this folder. Make every folder above it searchable by that user, or set commandUser to its owner.`]);
    expect(outcome.lines.join('')).not.toContain(t!.root);
    expect(fs.existsSync(path.join(t!.root, 'work', 'made'))).toBe(false);
  });

  it('skips blank frames and runs only the first command', async () => {
    const { token, base } = await setUp();
    const outcome = await session(`${base}/api/command/`, ['   ', 'echo first', 'touch second'], { token });
    expect(outcome).toMatchObject({ lines: ['first'], code: 1000 });
    expect(everything(path.join(t!.root, 'work'))).toEqual(['sub']);
  });
});

describe('command runner: what may run', () => {
  it('refuses programs outside the user commands', async () => {
    const { token, base } = await setUp();
    fs.writeFileSync(path.join(t!.root, 'work', 'x'), 'keep');
    for (const line of ['rm -rf x', 'cat x', '/bin/echo hi', 'ECHO hi', './echo', '']) {
      if (!line) continue;
      expect(await session(`${base}/api/command/`, [line], { token }), line).toMatchObject({ lines: [CommandMessages.notAllowed], code: 1008 });
    }
    expect(fs.readFileSync(path.join(t!.root, 'work', 'x'), 'utf8')).toBe('keep');
  });

  it('gives every injection attempt to the program as plain words, never to a shell', async () => {
    const { token, base } = await setUp();
    fs.writeFileSync(path.join(t!.root, 'work', 'x'), 'keep');
    const attempts: [string, Partial<Outcome>][] = [
      ['ls; rm -rf x', { lines: [CommandMessages.notAllowed] }],
      ['ls; touch pwned', { lines: [CommandMessages.notAllowed] }],
      ['ls | touch pwned', { code: 1011 }],
      ['ls && touch pwned', { code: 1011 }],
      ['$(touch pwned)', { lines: [CommandMessages.notAllowed] }],
      ['echo $(touch pwned)', { lines: ['$(touch pwned)'], code: 1000 }],
      ['echo `touch pwned`', { lines: ['`touch pwned`'], code: 1000 }],
      ['echo "$(touch pwned)" \'`touch pwned`\'', { lines: ['$(touch pwned) `touch pwned`'], code: 1000 }],
      ['ls\ntouch pwned', { lines: ['A command must be a single line.'] }],
      ['echo hi\r\ntouch pwned', { lines: ['A command must be a single line.'] }],
      ['ls > out', { code: 1011 }],
      ['echo hi > out', { lines: ['hi > out'], code: 1000 }],
      ['echo "unclosed', { lines: ['Cannot read the command: unterminated double quote.'] }],
    ];
    for (const [line, expected] of attempts) {
      expect(await session(`${base}/api/command/`, [line], { token }), JSON.stringify(line)).toMatchObject(expected);
    }
    expect(everything(t!.root).filter((entry) => /pwned|out$/.test(entry))).toEqual([]);
    expect(fs.readFileSync(path.join(t!.root, 'work', 'x'), 'utf8')).toBe('keep');
  });

  it('with a shell configured, refuses any line holding shell metacharacters', async () => {
    const { token, base } = await setUp();
    await t!.app.services.settings.save({ ...t!.app.services.settings.get(), shell: ['/bin/sh', '-c'] });
    expect(await session(`${base}/api/command/`, ['echo hello   world'], { token })).toEqual({ lines: ['hello world'], code: 1000, reason: '' });
    for (const line of ['echo hi; touch pwned', 'echo hi && touch pwned', 'echo hi | touch pwned', 'echo $(touch pwned)', 'echo `touch pwned`', 'echo hi > pwned', 'echo $HOME', 'echo "a;b"', 'echo *', 'echo hi & touch pwned', 'echo {a,b}', 'echo \\ ', 'echo ~']) {
      const outcome = await session(`${base}/api/command/`, [line], { token });
      expect(outcome.lines[0], line).toMatch(/^Shell metacharacters/);
      expect(outcome.code).toBe(1008);
    }
    // The first word is still checked.
    expect((await session(`${base}/api/command/`, ['rm pwned'], { token })).lines).toEqual([CommandMessages.notAllowed]);
    expect(everything(t!.root).filter((entry) => entry.includes('pwned'))).toEqual([]);
  });

  it('refuses everything while execution is disabled on the server', async () => {
    const { token, base } = await setUp({});
    expect(await session(`${base}/api/command/`, ['echo hi'], { token })).toMatchObject({ lines: [CommandMessages.notAllowed], code: 1008 });
  });

  it('refuses users without the execute permission', async () => {
    const { token, base } = await setUp({ enableExec: true }, { username: 'viewer', perm: { execute: false } });
    expect(await session(`${base}/api/command/`, ['echo hi'], { token })).toMatchObject({ lines: [CommandMessages.notAllowed], code: 1008 });
  });
});

describe('command runner: who may connect', () => {
  it('answers 401 before the upgrade for a bad token in the cookie or header', async () => {
    const { token, base } = await setUp();
    const [header, payload] = token.split('.');
    expect(await session(`${base}/api/command/`, ['echo hi'], { token: `${header}.${payload}.forged` })).toMatchObject({ status: 401 });
    expect(await session(`${base}/api/command/`, ['echo hi'], { headers: { 'x-auth': 'a.b.c' } })).toMatchObject({ status: 401 });
  });

  it('answers 401 before the upgrade without a token: a token in the first frame is no longer read', async () => {
    const { token, base } = await setUp();
    expect(await session(`${base}/api/command/`, [JSON.stringify({ token }), 'echo framed'], {})).toEqual({ status: 401, lines: [] });
    expect(await session(`${base}/api/command/`, [token, 'echo bare'], {})).toEqual({ status: 401, lines: [] });
    expect(await session(`${base}/api/command/`, ['echo hi'], {})).toEqual({ status: 401, lines: [] });
  });

  it('takes the token from X-Auth or the ?auth= query as well as from the cookie', async () => {
    const { token, base } = await setUp();
    expect(await session(`${base}/api/command/`, ['echo header'], { headers: { 'x-auth': token } })).toMatchObject({ lines: ['header'], code: 1000 });
    expect(await session(`${base}/api/command/?auth=${token}`, ['echo query'], {})).toMatchObject({ lines: ['query'], code: 1000 });
    expect(await session(`${base}/api/command/sub?auth=${token}`, ['pwd'], {})).toMatchObject({ code: 1000 });
  });

  it('answers 403 before the upgrade when the Origin is another host', async () => {
    const { token, base } = await setUp();
    const host = new URL(base).host;
    expect(await session(`${base}/api/command/`, ['echo hi'], { token, headers: { origin: 'http://evil.example' } })).toMatchObject({ status: 403 });
    expect(await session(`${base}/api/command/`, ['echo hi'], { token, headers: { origin: 'null' } })).toMatchObject({ status: 403 });
    expect(await session(`${base}/api/command/`, ['echo same'], { token, headers: { origin: `http://${host}` } })).toMatchObject({ lines: ['same'], code: 1000 });
  });
});

describe('command runner: limits', () => {
  it('kills the whole process tree, background processes too, when the client disconnects', async () => {
    const { token, base } = await setUp();
    let tree: HostProcess[] = [];
    const outcome = session(`${base}/api/command/`, [`sh -c 'sleep 30 & setsid sleep 31 & echo started; wait'`], {
      token,
      onLine: (_line, socket) => {
        void until(() => (tree = descendants()).filter((entry) => entry.name === 'sleep').length === 2, 5_000).then(() => socket.close());
      },
    });
    expect((await outcome).lines).toEqual(['started']);
    expect(tree.filter((entry) => entry.name === 'sleep')).toHaveLength(2);
    expect(await until(() => tree.every((entry) => !isAlive(entry.pid)), 5_000)).toBe(true);
  });

  it('stops a command at the time limit', async () => {
    const { token } = await setUp();
    const base = await limitedApp({ timeLimitMs: 1_500 });
    const started = Date.now();
    let tree: HostProcess[] = [];
    const outcome = await session(`${base}/api/command/`, [`sh -c 'sleep 30 & echo started; exec sleep 31'`], {
      token,
      onLine: (line) => {
        if (line === 'started') void until(() => (tree = descendants()).filter((entry) => entry.name === 'sleep').length === 2, 1_000);
      },
    });
    expect(outcome).toMatchObject({ code: 1011, reason: 'Time limit reached' });
    expect(outcome.lines).toEqual(['started', 'The command took too long and was stopped.']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(tree.filter((entry) => entry.name === 'sleep')).toHaveLength(2);
    expect(await until(() => tree.every((entry) => !isAlive(entry.pid)), 5_000)).toBe(true);
  });

  it('stops a command at the output limit', async () => {
    const { token } = await setUp();
    const base = await limitedApp({ outputLimitBytes: 20_000 });
    const outcome = await session(`${base}/api/command/`, ['yes'], { token });
    expect(outcome).toMatchObject({ code: 1011, reason: 'Output limit reached' });
    const output = outcome.lines.slice(0, -1);
    expect(outcome.lines.at(-1)).toBe('The command printed too much and was stopped.');
    expect(output.every((line) => line === 'y')).toBe(true);
    expect(output.length * 2).toBeLessThanOrEqual(20_000);
    expect(output.length * 2).toBeGreaterThan(19_000);
  });

  it('refuses more commands than may run at once, and kills those running when the server stops', async () => {
    const { token } = await setUp();
    const base = await limitedApp({ maxRunning: 1 });
    let tree: HostProcess[] = [];
    let announce: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (announce = resolve));
    const first = session(`${base}/api/command/`, [`sh -c 'echo started; exec sleep 30'`], {
      token,
      onLine: () => announce(),
    });
    await running;
    // The shell prints before it becomes `sleep`: on a busy machine the exec may come later.
    expect(await until(() => (tree = descendants()).some((entry) => entry.name === 'sleep'), 5_000)).toBe(true);
    const second = await session(`${base}/api/command/`, ['echo hi'], { token });
    expect(second).toMatchObject({ lines: ['Too many commands are running; try again later.'], code: 1013 });
    await extraApps.pop()!.close();
    await first;
    expect(await until(() => tree.every((entry) => !isAlive(entry.pid)), 5_000)).toBe(true);
  });
});

describe('the audit log', () => {
  it('records each run with the program, the folder and how it ended, never the rest of the line', async () => {
    const { token, base } = await setUp();
    expect((await session(`${base}/api/command/sub`, ['echo secret-argument-42'], { token })).code).toBe(CommandCloseCodes.success);
    expect((await session(`${base}/api/command/`, ['sh -c "exit 3"'], { token })).code).toBe(CommandCloseCodes.failed);
    expect((await session(`${base}/api/command/`, ['rm -rf secret-target-77'], { token })).code).toBe(CommandCloseCodes.refused);

    await t!.app.services.audit.flush();
    const rows = await t!.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'command.run').orderBy('id').execute();
    const entries = rows.map((row) => ({ username: row.username, path: row.path, outcome: row.outcome, client: row.client, details: JSON.parse(row.details) as Record<string, unknown> }));
    expect(entries).toEqual([
      { username: 'runner', path: '/sub', outcome: 'ok', client: '127.0.0.1', details: expect.objectContaining({ end: 'exited', exitCode: 0 }) },
      { username: 'runner', path: '/', outcome: 'failed', client: '127.0.0.1', details: expect.objectContaining({ end: 'exited', exitCode: 3 }) },
      { username: 'runner', path: '/', outcome: 'denied', client: '127.0.0.1', details: { refused: true } },
    ]);
    expect(String(entries[0]!.details.program)).toMatch(/echo$/);
    expect(String(entries[1]!.details.program)).toMatch(/sh$/);
    const table = JSON.stringify(rows);
    expect(table).not.toContain('secret-argument-42');
    expect(table).not.toContain('secret-target-77');
    expect(table).not.toContain(token);
  });
});
