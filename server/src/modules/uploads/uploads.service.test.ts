import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import type { AppError } from '../../errors.js';
import { freeBytesAt } from './staging.js';
import { createUploads } from './uploads.module.js';
import { DEFAULT_MAX_UPLOAD_LENGTH } from './tus-headers.js';
import { stagingFiles, tusClient, uploadInChunks, uploadRows } from './tus.test-support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ enableExec: true });
});
afterEach(async () => {
  await t.close();
});

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const admin = async () => (await t.app.services.usersRepository.findById(1))!;

describe('disk space', () => {
  it('refuses an upload larger than the free space with 413 before writing anything', async () => {
    const uploads = createUploads({ ...t.app.services, log: quietLog }, { maxUploadLength: Number.MAX_SAFE_INTEGER });
    const free = await freeBytesAt(t.root);
    const error = await uploads.create(await admin(), '/huge.bin', { uploadLength: String(free + 2 ** 30), override: false }).catch((caught: unknown) => caught);
    expect((error as AppError).status).toBe(413);
    expect(stagingFiles(t)).toHaveLength(0);
    expect(await uploadRows(t)).toHaveLength(0);
  });

  const free = fs.statfsSync(process.env.TMPDIR ?? '/tmp');
  const reachable = free.bavail * free.bsize + 2 ** 30 <= DEFAULT_MAX_UPLOAD_LENGTH;
  it.runIf(reachable)('answers 413 over HTTP, saying why, for a length past the free space of the root (less a margin)', async () => {
    const tus = tusClient(t, await t.login());
    for (const length of [(await freeBytesAt(t.root)) + 1, (await freeBytesAt(t.root)) - 1024]) {
      const response = await tus.create('/huge.bin', length);
      expect(response.statusCode).toBe(413);
      expect(response.body).toBe('413 Request Entity Too Large (the upload is larger than the free space of its disk)\n');
    }
    expect(stagingFiles(t)).toHaveLength(0);
    expect(await uploadRows(t)).toHaveLength(0);
    expect(fs.readdirSync(t.root)).toEqual([]);
    expect((await tus.create('/small.bin', 1024)).statusCode).toBe(201);
  });
});

describe('upload hooks', () => {
  /** The hooks run in the sandbox as the scope's owner: they may write only below the served root. */
  let hookFolder: string;
  beforeEach(async () => {
    await t.close();
    // Files the server writes must be readable by the hook's user.
    t = await createTestApp({ enableExec: true, fileMode: '0644' });
    hookFolder = path.join(t.root, '.hook');
    fs.mkdirSync(hookFolder);
    if (process.getuid?.() === 0) for (const folder of [t.root, hookFolder]) fs.chownSync(folder, 4242, 4242);
    fs.chmodSync(path.dirname(t.root), 0o711);
  });

  async function setCommands(commands: Record<string, string[]>) {
    const settings = t.app.services.settings;
    await settings.save({ ...settings.get(), commands });
  }

  it('runs before_upload on the old file and after_upload on the new one', async () => {
    await setCommands({ before_upload: ['cp $FILE /scope/.hook/before.txt'], after_upload: ['cp $FILE /scope/.hook/after.txt'] });
    fs.writeFileSync(path.join(t.root, 'hooked.txt'), 'old');
    await uploadInChunks(t, await t.login(), '/hooked.txt', Buffer.from('new content'), 4, true);
    expect(fs.readFileSync(path.join(hookFolder, 'before.txt'), 'utf8')).toBe('old');
    expect(fs.readFileSync(path.join(hookFolder, 'after.txt'), 'utf8')).toBe('new content');
  });

  it('ignores failing hooks: the upload still completes', async () => {
    await setCommands({ before_upload: ['false'], after_upload: ['false'] });
    const response = await uploadInChunks(t, await t.login(), '/failing-hooks.txt', Buffer.from('data'), 4);
    expect(response.statusCode).toBe(204);
    expect(fs.readFileSync(path.join(t.root, 'failing-hooks.txt'), 'utf8')).toBe('data');
  });

  it('runs the hooks for a zero-length upload too', async () => {
    await setCommands({ after_upload: ['cp $FILE /scope/.hook/zero.txt'] });
    const response = await tusClient(t, await t.login()).create('/zero.txt', 0);
    expect(response.statusCode).toBe(201);
    expect(fs.readFileSync(path.join(hookFolder, 'zero.txt'), 'utf8')).toBe('');
  });
});
