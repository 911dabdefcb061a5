import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { SandboxRefusals } from './commands.service.js';

/**
 * What the command runner refuses, read as a list. Each allowed program below could run any
 * other program or read any file before the sandbox: now whatever it runs stays inside it, sees
 * only the user's scope (at /scope) and the system's programs, and cannot reach the network, the
 * server's processes, its database or a file placed outside the scope (the canary).
 */

const ALLOWED = ['find', 'tar', 'git', 'env', 'ls', 'cat', 'sh', 'touch', 'node', 'id'];
const SCOPE_OWNER = 4242;
const asRoot = process.getuid?.() === 0;
const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let t: TestApp;
let base: string;
let token: string;
let scope: string;
/** A file outside the scope whose content must never show in any output. */
let canary: string;
const CANARY = `canary-${crypto.randomBytes(8).toString('hex')}`;
/** Everything any command printed, checked for the canary at the end. */
const allOutput: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ enableExec: true });
  scope = path.join(t.root, 'work');
  fs.mkdirSync(scope);
  fs.writeFileSync(path.join(scope, 'mine.txt'), 'in the scope\n');
  canary = path.join(t.outside, 'canary.txt');
  fs.writeFileSync(canary, `${CANARY}\n`, { mode: 0o644 });
  // Links planted in the scope, pointing outside it.
  fs.symlinkSync('/etc/passwd', path.join(scope, 'passwd-link'));
  fs.symlinkSync(canary, path.join(scope, 'canary-link'));
  fs.symlinkSync(t.config.database, path.join(scope, 'database-link'));
  fs.symlinkSync('../../../../../../..', path.join(scope, 'up'));
  fs.symlinkSync(path.relative(scope, canary), path.join(scope, 'canary-relative'));
  await makeUser(t, { username: 'attacker', scope: '/work', perm: { execute: true }, commands: ALLOWED });
  if (asRoot) fs.chownSync(scope, SCOPE_OWNER, SCOPE_OWNER);
  fs.chmodSync(path.dirname(t.root), 0o711);
  fs.chmodSync(t.root, 0o711);
  token = await loginAs(t, 'attacker');
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
});
afterAll(async () => {
  expect(allOutput.join('\n')).not.toContain(CANARY);
  await t.close();
});

type Outcome = { lines: string[]; code?: number; text: string };

/** Runs one command line over the real WebSocket and collects its output. */
function run(line: string, url = `${base}/api/command/`): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie: `auth=${token}` } });
    const lines: string[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no end of ${line}`));
    }, 20_000);
    socket.on('open', () => socket.send(line));
    socket.on('message', (data) => lines.push(data.toString()));
    socket.on('close', (code) => {
      clearTimeout(timer);
      allOutput.push(...lines);
      resolve({ lines, code, text: lines.join('\n') });
    });
    socket.on('error', () => undefined);
  });
}

/** The names at the sandbox's root: nothing of the host's but /usr and its links. */
const SANDBOX_ROOT = ['bin', 'dev', 'etc', 'lib', 'lib64', 'proc', 'sbin', 'scope', 'tmp', 'usr'];

const uidLine = asRoot ? `uid=${SCOPE_OWNER}` : `uid=${process.getuid?.()}`;

describe('programs that run other programs run them inside the sandbox', () => {
  it('find -exec and -execdir', async () => {
    const exec = await run('find . -maxdepth 0 -exec id ;');
    expect(exec.text).toContain(uidLine);
    expect(exec.text).not.toMatch(/uid=0\b/);
    const execdir = await run(`find . -maxdepth 0 -execdir cat ${canary} /etc/passwd ;`);
    expect(execdir.text).toMatch(/No such file or directory/);
    expect((await run(`find / -name canary.txt`)).text).not.toContain('canary.txt');
  });

  it('tar --checkpoint-action=exec and --use-compress-program', async () => {
    const checkpoint = await run('tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec=id .');
    expect(checkpoint.text).toContain(uidLine);
    expect(checkpoint.text).not.toMatch(/uid=0\b/);
    const compressor = await run(`tar -cf /tmp/x.tar --use-compress-program=touch\\ ${path.join(t.outside, 'tar-was-here')} .`);
    expect(compressor.code).toBe(1011);
    expect(fs.existsSync(path.join(t.outside, 'tar-was-here'))).toBe(false);
    expect((await run(`tar -cf - -P ${canary}`)).text).toMatch(/No such file or directory/);
  });

  it.skipIf(!hasGit)('git -c alias.x=!… and -c core.pager= (skipped only where git is not installed)', async () => {
    const alias = await run('git -c alias.x=!id x');
    expect(alias.text).toContain(uidLine);
    expect(alias.text).not.toMatch(/uid=0\b/);
    const reader = await run(`git -c alias.x=!cat\\ ${canary} x`);
    expect(reader.text).toMatch(/No such file or directory/);
    const pager = await run(`git -c core.pager=cat\\ ${canary} -p help`);
    expect(pager.text).not.toContain(CANARY);
  });

  it('env shows only the minimal environment, nothing of the server', async () => {
    const env = await run('env');
    expect(env.lines.map((line) => line.split('=')[0]).sort()).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TERM']);
    expect(env.lines).toContain('HOME=/scope');
    expect((await run('env cat /etc/passwd')).text).toMatch(/No such file or directory/);
  });
});

describe('nothing outside the scope is visible', () => {
  it('ls -la / and ls ../../ show the sandbox root, not the host', async () => {
    for (const line of ['ls -a /', 'ls -a ../../', 'ls -a up/']) {
      const names = (await run(line)).lines.filter((name) => name !== '.' && name !== '..');
      expect(names.sort(), line).toEqual(SANDBOX_ROOT.filter((name) => name !== 'lib64' || fs.existsSync('/lib64')));
    }
    expect((await run('ls -la /')).code).toBe(1000);
    expect((await run('ls /etc')).lines.every((name) => ['alternatives', 'ld.so.cache', 'localtime'].includes(name))).toBe(true);
  });

  it('links planted in the scope, absolute or climbing with ../, lead nowhere outside it', async () => {
    for (const link of ['passwd-link', 'canary-link', 'database-link', 'canary-relative']) {
      const outcome = await run(`cat ${link}`);
      expect(outcome.text, link).toMatch(/No such file or directory/);
      expect(outcome.code, link).toBe(1011);
    }
    expect((await run(`cat up/${path.relative('/', canary)}`)).text).toMatch(/No such file or directory/);
    expect((await run('cat mine.txt')).lines).toEqual(['in the scope']);
  });

  it("neither /etc/passwd nor the server's database, its folder or the canary by its real path", async () => {
    for (const file of ['/etc/passwd', '/etc/shadow', t.config.database, canary, path.join(t.root, 'work', 'mine.txt')]) {
      expect((await run(`cat ${file}`)).text, file).toMatch(/No such file or directory/);
    }
    expect((await run(`ls ${path.dirname(t.config.database)}`)).text).toMatch(/No such file or directory/);
  });

  it("/proc shows the sandbox's own processes only", async () => {
    const pids = (await run('ls /proc')).lines.filter((name) => /^\d+$/.test(name)).map(Number);
    // bwrap's reaper, the program, and nothing of the host.
    expect(pids.every((pid) => pid < 10)).toBe(true);
    expect((await run(`cat /proc/${process.pid}/environ`)).text).toMatch(/No such file or directory/);
    expect((await run('cat /proc/1/environ')).text).not.toContain('BURROW');
    // No descriptor of the server's reaches the sandbox: beside stdin (/dev/null), the output
    // pipes and ls's own listing, anything the server was started with reads as /dev/null.
    const descriptors = (await run('ls -l /proc/self/fd')).lines.flatMap((line) => {
      const match = / (\d+) -> (.*)$/.exec(line);
      return match ? [{ fd: Number(match[1]), target: match[2]! }] : [];
    });
    expect(descriptors.filter((entry) => entry.fd <= 2).map((entry) => entry.target)).toEqual(['/dev/null', expect.stringMatching(/^(pipe|socket):/), expect.stringMatching(/^(pipe|socket):/)]);
    expect(descriptors.filter((entry) => entry.fd > 3 && entry.target !== '/dev/null')).toEqual([]);
  });
});

describe('nothing outside the scope can be written, and there is no network', () => {
  it('writes land in the scope or the sandbox-only /tmp, never elsewhere', async () => {
    for (const target of ['/usr/evil', '/evil', '/etc/evil', path.join(t.outside, 'evil'), '/proc/evil']) {
      expect((await run(`touch ${target}`)).code, target).toBe(1011);
    }
    expect(fs.existsSync(path.join(t.outside, 'evil'))).toBe(false);
    expect(fs.existsSync('/usr/evil')).toBe(false);
    const marker = `sandbox-tmp-${crypto.randomBytes(4).toString('hex')}`;
    expect((await run(`touch /tmp/${marker}`)).code).toBe(1000);
    expect(fs.existsSync(`/tmp/${marker}`)).toBe(false);
    expect((await run('touch made-here')).code).toBe(1000);
    expect(fs.existsSync(path.join(scope, 'made-here'))).toBe(true);
  });

  it("cannot connect to the server's own port or any address", async () => {
    const port = new URL(base).port;
    const probe = (host: string) =>
      `node -e "require('net').connect(${port},'${host}').on('connect',()=>console.log('CONNECTED')).on('error',(e)=>console.log(e.code))"`;
    for (const host of ['127.0.0.1', '1.1.1.1']) {
      const outcome = await run(probe(host));
      expect(outcome.text, host).not.toContain('CONNECTED');
      expect(outcome.lines[0], host).toMatch(/^E[A-Z]+$/);
    }
  });
});

describe('without a sandbox nothing runs', () => {
  it('refuses every command with the reason when bwrap is missing', async () => {
    const missing = await createTestApp({ enableExec: true, bwrap: path.join(t.outside, 'no-such-bwrap') });
    try {
      fs.mkdirSync(path.join(missing.root, 'work'));
      await makeUser(missing, { username: 'runner', scope: '/work', perm: { execute: true }, commands: ['touch', 'sh'] });
      const runnerToken = await loginAs(missing, 'runner');
      const url = `${(await missing.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/api/command/`;
      for (const line of ['touch made', `sh -c 'touch made'`]) {
        const outcome = await new Promise<{ lines: string[]; code: number }>((resolve) => {
          const socket = new WebSocket(url, { headers: { cookie: `auth=${runnerToken}` } });
          const lines: string[] = [];
          socket.on('open', () => socket.send(line));
          socket.on('message', (data) => lines.push(data.toString()));
          socket.on('close', (code) => resolve({ lines, code }));
        });
        expect(outcome).toEqual({ lines: [SandboxRefusals['sandbox-missing']], code: 1008 });
      }
      expect(fs.readdirSync(path.join(missing.root, 'work'))).toEqual([]);
    } finally {
      await missing.close();
    }
  });
});
