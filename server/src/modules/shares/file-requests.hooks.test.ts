import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { HookEvent } from '@burrow/protocol';
import { createFilesHarness, type FilesHarness } from '../files/files.test-support.js';
import { portOf, requestLink, uploader } from './file-requests.test-support.js';

/** A server running as root starts hooks as the scope's owner: the served root gets one. */
const SCOPE_OWNER = 4242;
const asRoot = process.getuid?.() === 0;

/** Run inside the hook sandbox: appends its arguments as one JSON line to the log named first. */
const RECORDER = `
import fs from 'node:fs';
const [log, ...args] = process.argv.slice(2);
fs.appendFileSync(log, JSON.stringify(args) + '\\n');
`;

let h: FilesHarness;
let work: string;

beforeEach(async () => {
  h = await createFilesHarness({ enableExec: true });
  work = path.join(h.t.root, '.hook');
  fs.mkdirSync(work);
  fs.writeFileSync(path.join(work, 'record.mjs'), RECORDER);
  fs.mkdirSync(path.join(h.t.root, 'inbox'));
  if (asRoot) for (const owned of [h.t.root, work, path.join(h.t.root, 'inbox')]) fs.chownSync(owned, SCOPE_OWNER, SCOPE_OWNER);
  fs.chmodSync(path.dirname(h.t.root), 0o711);
});
afterEach(async () => {
  await h.close();
});

async function setCommands(commands: Partial<Record<HookEvent, string[]>>) {
  const settings = h.t.app.services.settings;
  await settings.save({ ...settings.get(), commands });
}

const record = (extra = '') => `node /scope/.hook/record.mjs /scope/.hook/log.jsonl ${extra}`;

it('runs the upload hooks for a file arriving through a file request, as its owner', async () => {
  await setCommands({ before_upload: [record('$TRIGGER $FILE $USERNAME')], after_upload: [record('$TRIGGER $FILE')] });
  const link = await requestLink(h.t, h.admin, '/inbox/');
  const sent = await uploader(await portOf(h.t), link.hash).send('from-visitor.txt', Buffer.from('hello'));
  expect(sent.patched?.status).toBe(204);
  const log = fs.readFileSync(path.join(work, 'log.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  expect(log).toEqual([
    ['before_upload', '/scope/inbox/from-visitor.txt', 'admin'],
    ['after_upload', '/scope/inbox/from-visitor.txt'],
  ]);
});
