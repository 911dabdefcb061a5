import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEvent } from '@burrow/protocol';
import { loginAs, makeUser } from '../../test-support/app.js';
import { createHooks, substituteVariable } from './hooks.js';
import { createFilesHarness, encodePath, type FilesHarness } from './files.test-support.js';

/** A server running as root starts hooks as the scope's owner: the served root gets one. */
const SCOPE_OWNER = 4242;
const asRoot = process.getuid?.() === 0;

/**
 * Run inside the sandbox: appends one JSON line (its arguments and whole environment) to the log
 * named first. It lives in the scope, the only folder of the server the sandbox sees.
 */
const RECORDER = `
import fs from 'node:fs';
const [log, ...args] = process.argv.slice(2);
fs.appendFileSync(log, JSON.stringify({ args, env: process.env }) + '\\n');
`;

let h: FilesHarness;
/** Test files of the hooks, inside the served root (left out of listings checks). */
let work: string;

/** Gives the served root to the sandbox's user and makes the folders above it passable. */
function openRootToHooks(harness: FilesHarness): string {
  const folder = path.join(harness.t.root, '.hook');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'record.mjs'), RECORDER);
  if (asRoot) for (const owned of [harness.t.root, folder]) fs.chownSync(owned, SCOPE_OWNER, SCOPE_OWNER);
  fs.chmodSync(path.dirname(harness.t.root), 0o711);
  return folder;
}

beforeEach(async () => {
  h = await createFilesHarness({ enableExec: true });
  work = openRootToHooks(h);
});
afterEach(async () => {
  await h.close();
});

async function setCommands(commands: Partial<Record<HookEvent, string[]>>, harness = h) {
  const settings = harness.t.app.services.settings;
  await settings.save({ ...settings.get(), commands });
}

const records = (): Array<{ args: string[]; env: Record<string, string> }> => {
  const log = path.join(work, 'log.jsonl');
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
};

/** A hook line recording its arguments (as written after the log's name) and environment. */
const record = (extra = '') => `node /scope/.hook/record.mjs /scope/.hook/log.jsonl ${extra}`;

const listing = (folder: string) => fs.readdirSync(folder).filter((name) => name !== '.hook').sort();

/** Every path below a folder, to look for a canary file wherever it could have been made. */
function everything(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const child = path.join(folder, entry.name);
    return entry.isDirectory() ? [child, ...everything(child)] : [child];
  });
}

describe('hooks around resource operations', () => {
  it('runs before_ and after_ save in the sandbox, with whole-argument variables and a minimal environment', async () => {
    h.put('doc.txt', 'v1');
    await setCommands({ before_save: [record('$TRIGGER "$FILE" ${USERNAME} $SCOPE $HOME "pre-$FILE" ${DESTINATION}')], after_save: [record('$TRIGGER')] });
    process.env.BURROW_TEST_SECRET = 'server-only';
    process.env.HOOK_TEST_VARIABLE = 'server-only';
    try {
      expect((await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
    } finally {
      delete process.env.BURROW_TEST_SECRET;
      delete process.env.HOOK_TEST_VARIABLE;
    }
    const [before, after] = records();
    // Paths are those the sandbox sees; only whole arguments are substituted; $HOME is no hook variable.
    expect(before!.args).toEqual(['before_save', '/scope/doc.txt', 'admin', '/scope', '$HOME', 'pre-$FILE', '']);
    // Nothing of the server's environment: the minimal one and the hook variables.
    expect(before!.env).toEqual({
      PATH: expect.stringContaining('/usr/bin'),
      HOME: '/scope',
      PWD: '/scope',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      FILE: '/scope/doc.txt',
      SCOPE: '/scope',
      TRIGGER: 'before_save',
      USERNAME: 'admin',
      DESTINATION: '',
    });
    expect(after!.args).toEqual(['after_save']);
    expect(h.read('doc.txt')).toBe('v2');
  });

  it('passes source and destination paths inside the sandbox for copy and rename', async () => {
    h.put('a.txt', 'a');
    await setCommands({ before_copy: [record('$FILE $DESTINATION')], after_rename: [record('$FILE $DESTINATION')] });
    const destination = (virtual: string) => encodeURIComponent(encodeURIComponent(virtual).replace(/%2F/g, '/'));
    expect((await h.api(h.admin, 'PATCH', '/a.txt', { query: `action=copy&destination=${destination('/b.txt')}` })).statusCode).toBe(200);
    expect((await h.api(h.admin, 'PATCH', '/b.txt', { query: `action=rename&destination=${destination('/c.txt')}` })).statusCode).toBe(200);
    expect(records().map((entry) => entry.args)).toEqual([
      ['/scope/a.txt', '/scope/b.txt'],
      ['/scope/b.txt', '/scope/c.txt'],
    ]);
  });

  it('aborts the operation with 500 when a before_ hook fails, and leaves everything untouched', async () => {
    h.put('doc.txt', 'v1');
    h.put('gone.txt', 'stay');
    await setCommands({ before_save: [`node -e "process.exit(3)"`], before_delete: ['/nonexistent/hook-binary'], before_upload: [`node -e "process.exit(1)"`] });
    const save = await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'v2' });
    expect(save.statusCode).toBe(500);
    expect(save.body).toBe('500 Internal Server Error\n');
    expect(h.read('doc.txt')).toBe('v1');
    expect((await h.api(h.admin, 'DELETE', '/gone.txt')).statusCode).toBe(500);
    expect(h.read('gone.txt')).toBe('stay');
    expect((await h.api(h.admin, 'POST', '/new.txt', { payload: 'x' })).statusCode).toBe(500);
    expect(h.exists('new.txt')).toBe(false);
    expect((await h.api(h.admin, 'POST', '/newdir/')).statusCode).toBe(500);
    expect(h.exists('newdir')).toBe(false);
    expect(listing(h.t.root)).toEqual(['doc.txt', 'gone.txt']);
  });

  it('keeps a completed operation when an after_ hook fails', async () => {
    h.put('doc.txt', 'v1');
    await setCommands({ after_save: [`node -e "process.exit(2)"`] });
    expect((await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
    expect(h.read('doc.txt')).toBe('v2');
  });

  it('runs the upload hooks for folder and file POSTs', async () => {
    await setCommands({ before_upload: [record('$TRIGGER $FILE')], after_upload: [record('$TRIGGER')] });
    expect((await h.api(h.admin, 'POST', '/made/')).statusCode).toBe(200);
    expect((await h.api(h.admin, 'POST', '/made/f.txt', { payload: 'x' })).statusCode).toBe(200);
    expect(records().map((entry) => entry.args)).toEqual([['before_upload', '/scope/made'], ['after_upload'], ['before_upload', '/scope/made/f.txt'], ['after_upload']]);
  });

  it('never runs hooks when exec is disabled', async () => {
    const disabled = await createFilesHarness({ enableExec: false });
    try {
      const log = path.join(openRootToHooks(disabled), 'log.jsonl');
      await setCommands({ before_save: [record('x')] }, disabled);
      disabled.put('doc.txt', 'v1');
      expect((await disabled.api(disabled.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
      expect(fs.existsSync(log)).toBe(false);
    } finally {
      await disabled.close();
    }
  });

  it('stays off, and never runs a hook unconfined, when the sandbox is missing', async () => {
    const missing = await createFilesHarness({ enableExec: true, bwrap: '/nonexistent/bwrap' });
    try {
      const folder = openRootToHooks(missing);
      await setCommands({ before_save: [`node -e "require('fs').writeFileSync('${folder}/ran', 'x')"`], after_save: ['touch /tmp/never'] }, missing);
      missing.put('doc.txt', 'v1');
      expect((await missing.api(missing.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
      expect(missing.read('doc.txt')).toBe('v2');
      expect(fs.existsSync(path.join(folder, 'ran'))).toBe(false);
    } finally {
      await missing.close();
    }
  });
});

describe('hooks never run file names or usernames as code', () => {
  /** Names a user may give files, each trying to run the canary when pasted into a shell line. */
  const HOSTILE = ['x$(touch canary).txt', 'y`touch canary`.txt', `q'"; touch canary; echo ".txt`, 'line\ntouch canary', '-rf --version', '$FILE ${SCOPE}.txt'];
  const SHELL_HOOK = `sh -c 'printf "%s\\0" "$TRIGGER" "$FILE" "$DESTINATION" "$USERNAME" >> .hook/names'`;

  function shellRecords(): string[][] {
    const file = path.join(work, 'names');
    if (!fs.existsSync(file)) return [];
    const fields = fs.readFileSync(file, 'utf8').split('\0').slice(0, -1);
    const rows: string[][] = [];
    for (let index = 0; index < fields.length; index += 4) rows.push(fields.slice(index, index + 4));
    return rows;
  }

  /** A canary made in the scope (inside the sandbox) or in the server's folder (outside it). */
  const canaries = () => [...everything(h.t.root), ...everything(h.t.outside), path.join(process.cwd(), 'canary')].filter((entry) => path.basename(entry) === 'canary' && fs.existsSync(entry));

  it('through upload, save and rename: the hook sees the exact name and the canary never runs', async () => {
    await setCommands({ after_upload: [SHELL_HOOK, record('$FILE')], after_save: [SHELL_HOOK], after_rename: [SHELL_HOOK, record('$FILE $DESTINATION')] });
    const expectedShell: string[][] = [];
    const expectedArgs: string[][] = [];
    for (const name of HOSTILE) {
      expect((await h.api(h.admin, 'POST', `/${name}`, { payload: 'one' })).statusCode, name).toBe(200);
      expect((await h.api(h.admin, 'PUT', `/${name}`, { payload: 'two' })).statusCode, name).toBe(200);
      const renamed = `r ${name}`;
      const destination = encodeURIComponent(encodePath(`/${renamed}`));
      expect((await h.api(h.admin, 'PATCH', `/${name}`, { query: `action=rename&destination=${destination}` })).statusCode, name).toBe(200);
      expect(h.read(renamed)).toBe('two');
      expectedShell.push(
        ['after_upload', `/scope/${name}`, '', 'admin'],
        ['after_save', `/scope/${name}`, '', 'admin'],
        ['after_rename', `/scope/${name}`, `/scope/${renamed}`, 'admin'],
      );
      expectedArgs.push([`/scope/${name}`], [`/scope/${name}`, `/scope/${renamed}`]);
    }
    expect(shellRecords()).toEqual(expectedShell);
    expect(records().map((entry) => entry.args)).toEqual(expectedArgs);
    expect(canaries()).toEqual([]);
  });

  it('for a username holding shell syntax, the hook sees the exact name and the canary never runs', async () => {
    const username = `u$(touch canary)\`touch canary\`;'"\n-x`;
    await makeUser(h.t, { username, scope: '/' });
    const token = await loginAs(h.t, username);
    await setCommands({ before_upload: [SHELL_HOOK, record('$USERNAME')] });
    expect((await h.api(token, 'POST', '/by-user.txt', { payload: 'x' })).statusCode).toBe(200);
    expect(shellRecords()).toEqual([['before_upload', '/scope/by-user.txt', '', username]]);
    expect(records().map((entry) => entry.args)).toEqual([[username]]);
    expect(canaries()).toEqual([]);
  });
});

describe('createHooks', () => {
  const user = { username: 'alice', scope: '/' };
  const file = () => path.join(fs.realpathSync(h.t.root), 'x');

  it('treats shell metacharacters as plain arguments (no shell)', async () => {
    await setCommands({ before_copy: [record('"; touch pwned" $(id) `id` | && >out')] });
    await createHooks(h.t.app.services).run('before_copy', { user, file: file() });
    expect(records()[0]!.args).toEqual(['; touch pwned', '$(id)', '`id`', '|', '&&', '>out']);
    expect(listing(h.t.root)).toEqual([]);
  });

  it('does not wait for a hook ending in &', async () => {
    // The background job writes its file only once the test lets it, so a run that waited for it
    // could only end by timing out, and a slow machine cannot make the test pass or fail by chance.
    const job = "const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync('/scope/.hook/go')) { fs.writeFileSync('/scope/.hook/late', 'late'); clearInterval(t); } }, 20); setTimeout(() => clearInterval(t), 15000)";
    await setCommands({ after_delete: [`node -e "${job}" &`] });
    const late = path.join(work, 'late');
    await createHooks(h.t.app.services, { timeoutMs: 5000 }).run('after_delete', { user, file: file() });
    expect(fs.existsSync(late)).toBe(false);
    fs.writeFileSync(path.join(work, 'go'), '');
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(late) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.readFileSync(late, 'utf8')).toBe('late');
  });

  it('kills a hook that outlives the time limit and fails the run', async () => {
    await setCommands({ before_save: [`node -e "setTimeout(() => {}, 20000)"`] });
    const started = Date.now();
    await expect(createHooks(h.t.app.services, { timeoutMs: 500 }).run('before_save', { user, file: file() })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a line that cannot be parsed', async () => {
    await setCommands({ before_save: ['echo "unbalanced'] });
    await expect(createHooks(h.t.app.services).run('before_save', { user, file: file() })).rejects.toThrow(/cannot parse/);
  });

  it('substitutes only arguments that are exactly one of the five hook variables', () => {
    const variables = { FILE: '/f', SCOPE: '/s', TRIGGER: 't', USERNAME: 'u', DESTINATION: '/d' };
    const substituted = ['$FILE', '${DESTINATION}', '$PATH', '${HOME}', '$USERNAMEX', '"$FILE"', 'a$FILE', '$FILE$SCOPE', '${FILE}x'].map((argument) =>
      substituteVariable(argument, variables),
    );
    expect(substituted).toEqual(['/f', '/d', '$PATH', '${HOME}', '$USERNAMEX', '"$FILE"', 'a$FILE', '$FILE$SCOPE', '${FILE}x']);
  });
});
