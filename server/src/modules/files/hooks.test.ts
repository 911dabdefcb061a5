import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEvent } from '@burrow/protocol';
import { createHooks, expandVariables } from './hooks.js';
import { createFilesHarness, type FilesHarness } from './files.test-support.js';

const node = JSON.stringify(process.execPath);

/** A script that appends one JSON line (its arguments and hook environment) to a log file. */
const RECORDER = `
import fs from 'node:fs';
const [log, ...args] = process.argv.slice(2);
const env = Object.fromEntries(['FILE', 'SCOPE', 'TRIGGER', 'USERNAME', 'DESTINATION', 'BURROW_TEST_SECRET'].map((key) => [key, process.env[key]]));
fs.appendFileSync(log, JSON.stringify({ args, env }) + '\\n');
if (process.env.HOOK_FAIL === '1') process.exit(3);
`;

let h: FilesHarness;
let work: string;
let logFile: string;
let recorder: string;

beforeEach(async () => {
  h = await createFilesHarness({ enableExec: true });
  work = path.join(h.t.outside, 'hooks');
  fs.mkdirSync(work);
  logFile = path.join(work, 'log.jsonl');
  recorder = path.join(work, 'record.mjs');
  fs.writeFileSync(recorder, RECORDER);
});
afterEach(async () => {
  await h.close();
});

async function setCommands(commands: Partial<Record<HookEvent, string[]>>) {
  const settings = h.t.app.services.settings;
  await settings.save({ ...settings.get(), commands });
}

const records = (): Array<{ args: string[]; env: Record<string, string> }> =>
  fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];

const record = (extra = '') => `${node} ${JSON.stringify(recorder)} ${JSON.stringify(logFile)} ${extra}`;

describe('hooks around resource operations', () => {
  it('runs before_ and after_ save with variables expanded in arguments and set in the environment', async () => {
    h.put('doc.txt', 'v1');
    await setCommands({ before_save: [record('$TRIGGER "$FILE" ${USERNAME} $SCOPE $HOME')], after_save: [record('$TRIGGER')] });
    process.env.BURROW_TEST_SECRET = 'server-only';
    try {
      expect((await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
    } finally {
      delete process.env.BURROW_TEST_SECRET;
    }
    const [before, after] = records();
    const real = fs.realpathSync(h.real('doc.txt'));
    // Only the hook variables are expanded; anything else ($HOME) stays literal.
    expect(before!.args).toEqual(['before_save', real, 'admin', '/', '$HOME']);
    // The server's own configuration variables are not handed to hooks.
    expect(before!.env).toEqual({ FILE: real, SCOPE: '/', TRIGGER: 'before_save', USERNAME: 'admin', DESTINATION: '' });
    expect(after!.args).toEqual(['after_save']);
  });

  it('passes real source and destination paths for copy and rename', async () => {
    h.put('a.txt', 'a');
    await setCommands({ before_copy: [record('$FILE $DESTINATION')], after_rename: [record('$FILE $DESTINATION')] });
    const destination = (virtual: string) => encodeURIComponent(encodeURIComponent(virtual).replace(/%2F/g, '/'));
    expect((await h.api(h.admin, 'PATCH', '/a.txt', { query: `action=copy&destination=${destination('/b.txt')}` })).statusCode).toBe(200);
    expect((await h.api(h.admin, 'PATCH', '/b.txt', { query: `action=rename&destination=${destination('/c.txt')}` })).statusCode).toBe(200);
    const root = fs.realpathSync(h.t.root);
    expect(records().map((entry) => entry.args)).toEqual([
      [path.join(root, 'a.txt'), path.join(root, 'b.txt')],
      [path.join(root, 'b.txt'), path.join(root, 'c.txt')],
    ]);
  });

  it('aborts the operation with 500 when a before_ hook fails, and leaves everything untouched', async () => {
    h.put('doc.txt', 'v1');
    h.put('gone.txt', 'stay');
    await setCommands({ before_save: [`${node} -e "process.exit(3)"`], before_delete: ['/nonexistent/hook-binary'], before_upload: [`${node} -e "process.exit(1)"`] });
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
    expect(fs.readdirSync(h.t.root).sort()).toEqual(['doc.txt', 'gone.txt']);
  });

  it('keeps a completed operation when an after_ hook fails', async () => {
    h.put('doc.txt', 'v1');
    await setCommands({ after_save: [`${node} -e "process.exit(2)"`] });
    expect((await h.api(h.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
    expect(h.read('doc.txt')).toBe('v2');
  });

  it('runs the upload hooks for folder and file POSTs', async () => {
    await setCommands({ before_upload: [record('$TRIGGER $FILE')], after_upload: [record('$TRIGGER')] });
    expect((await h.api(h.admin, 'POST', '/made/')).statusCode).toBe(200);
    expect((await h.api(h.admin, 'POST', '/made/f.txt', { payload: 'x' })).statusCode).toBe(200);
    const root = fs.realpathSync(h.t.root);
    expect(records().map((entry) => entry.args)).toEqual([
      ['before_upload', path.join(root, 'made')],
      ['after_upload'],
      ['before_upload', path.join(root, 'made', 'f.txt')],
      ['after_upload'],
    ]);
  });

  it('never runs hooks when exec is disabled', async () => {
    const disabled = await createFilesHarness({ enableExec: false });
    try {
      const settings = disabled.t.app.services.settings;
      await settings.save({ ...settings.get(), commands: { before_save: [record('x')] } });
      disabled.put('doc.txt', 'v1');
      expect((await disabled.api(disabled.admin, 'PUT', '/doc.txt', { payload: 'v2' })).statusCode).toBe(200);
      expect(records()).toEqual([]);
    } finally {
      await disabled.close();
    }
  });
});

describe('createHooks', () => {
  const user = { username: 'alice', scope: '/users/alice' };

  it('treats shell metacharacters as plain arguments (no shell)', async () => {
    await setCommands({ before_copy: [record('"; touch pwned" $(id) `id` | && >out')] });
    await createHooks(h.t.app.services).run('before_copy', { user, file: '/x' });
    expect(records()[0]!.args).toEqual(['; touch pwned', '$(id)', '`id`', '|', '&&', '>out']);
    expect(fs.existsSync(path.join(process.cwd(), 'pwned'))).toBe(false);
  });

  it('does not wait for a hook ending in &', async () => {
    await setCommands({ after_delete: [`${node} -e "setTimeout(() => require('fs').writeFileSync(process.argv[1], 'late'), 800)" ${JSON.stringify(path.join(work, 'late'))} &`] });
    const started = Date.now();
    await createHooks(h.t.app.services).run('after_delete', { user, file: '/x' });
    expect(Date.now() - started).toBeLessThan(700);
    expect(fs.existsSync(path.join(work, 'late'))).toBe(false);
    const deadline = Date.now() + 5000;
    while (!fs.existsSync(path.join(work, 'late')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.readFileSync(path.join(work, 'late'), 'utf8')).toBe('late');
  });

  it('kills a hook that outlives the time limit and fails the run', async () => {
    await setCommands({ before_save: [`${node} -e "setTimeout(() => {}, 20000)"`] });
    const started = Date.now();
    await expect(createHooks(h.t.app.services, { timeoutMs: 300 }).run('before_save', { user, file: '/x' })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a line that cannot be parsed', async () => {
    await setCommands({ before_save: ['echo "unbalanced'] });
    await expect(createHooks(h.t.app.services).run('before_save', { user, file: '/x' })).rejects.toThrow(/cannot parse/);
  });

  it('expands only the five hook variables', () => {
    const variables = { FILE: '/f', SCOPE: '/s', TRIGGER: 't', USERNAME: 'u', DESTINATION: '/d' };
    expect(expandVariables('$FILE:${DESTINATION}:$PATH:${HOME}:$USERNAMEX', variables)).toBe('/f:/d:$PATH:${HOME}:$USERNAMEX');
  });
});
