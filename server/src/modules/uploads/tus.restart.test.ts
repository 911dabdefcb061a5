import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { resolveConfig, type Config } from '../../config.js';
import { ADMIN_PASSWORD } from '../../test-support/app.js';
import { createUploadsRepository } from './uploads.repository.js';
import { fileSha256, randomBytes, sha256, tusUrl } from './tus.test-support.js';

// Builds the app twice on the same database and root, as a server restart does.
let base: string;
let config: Config;
let app: FastifyInstance | undefined;
let token: string;

beforeEach(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-restart-'));
  fs.mkdirSync(path.join(base, 'root'));
  config = resolveConfig({
    root: path.join(base, 'root'),
    database: path.join(base, 'burrow.db'),
    cacheDir: path.join(base, 'cache'),
    webDist: path.join(base, 'web-dist'),
    logLevel: 'silent',
    adminPassword: ADMIN_PASSWORD,
  });
  app = await start();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  token = login.body;
});
afterEach(async () => {
  await app?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

async function start(): Promise<FastifyInstance> {
  const built = await buildApp(config);
  await built.ready();
  return built;
}

async function restart(between?: () => void | Promise<void>): Promise<FastifyInstance> {
  await app!.close();
  app = undefined;
  await between?.();
  app = await start();
  return app;
}

const send = (method: string, virtual: string, headers: Record<string, string> = {}, payload?: Buffer, override?: boolean) =>
  app!.inject({ method: method as 'POST', url: tusUrl(virtual, override), headers: { 'x-auth': token, ...headers }, payload });
const patch = (virtual: string, offset: number, body: Buffer) => send('PATCH', virtual, { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) }, body);
const rows = () => createUploadsRepository(app!.services.db).list();
const stagingDir = () => path.join(config.cacheDir, 'uploads');

describe('uploads across restarts', () => {
  it('continues from the stored offset after a restart', async () => {
    const data = randomBytes(700_000, 21);
    expect((await send('POST', '/resume/file.bin', { 'upload-length': String(data.length) }, undefined, false)).statusCode).toBe(201);
    expect((await patch('/resume/file.bin', 0, data.subarray(0, 350_000))).statusCode).toBe(204);

    await restart();
    const head = await send('HEAD', '/resume/file.bin');
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ 'upload-offset': '350000', 'upload-length': String(data.length) });
    expect(fs.existsSync(path.join(config.root, 'resume', 'file.bin'))).toBe(false);
    expect((await patch('/resume/file.bin', 350_000, data.subarray(350_000))).statusCode).toBe(204);
    expect(fileSha256(path.join(config.root, 'resume', 'file.bin'))).toBe(sha256(data));
  });

  it('trusts the staging file over the stored offset (bytes written before a crash)', async () => {
    const data = randomBytes(100_000, 4);
    await send('POST', '/crash.bin', { 'upload-length': String(data.length) });
    await patch('/crash.bin', 0, data.subarray(0, 30_000));
    const [row] = await rows();
    await restart(() => fs.appendFileSync(row!.stagingPath, data.subarray(30_000, 45_000)));
    expect((await rows())[0]!.offset).toBe(45_000);
    expect((await send('HEAD', '/crash.bin')).headers['upload-offset']).toBe('45000');
    expect((await patch('/crash.bin', 30_000, data.subarray(30_000))).statusCode).toBe(409);
    expect((await patch('/crash.bin', 45_000, data.subarray(45_000))).statusCode).toBe(204);
    expect(fileSha256(path.join(config.root, 'crash.bin'))).toBe(sha256(data));
  });

  it('finishes an upload whose bytes all arrived before a crash, on the next HEAD', async () => {
    const data = randomBytes(20_000, 8);
    fs.writeFileSync(path.join(config.root, 'whole.bin'), 'old');
    await send('POST', '/whole.bin', { 'upload-length': String(data.length) }, undefined, true);
    await patch('/whole.bin', 0, data.subarray(0, 5_000));
    const [row] = await rows();
    // More than declared on disk: cut back to the declared length.
    await restart(() => fs.appendFileSync(row!.stagingPath, Buffer.concat([data.subarray(5_000), Buffer.from('junk')])));
    expect(fs.readFileSync(path.join(config.root, 'whole.bin'), 'utf8')).toBe('old');
    const head = await send('HEAD', '/whole.bin');
    expect(head.headers).toMatchObject({ 'upload-offset': String(data.length), 'upload-length': String(data.length) });
    expect(fileSha256(path.join(config.root, 'whole.bin'))).toBe(sha256(data));
    expect(fs.readdirSync(stagingDir())).toEqual([]);
  });

  it('forgets uploads whose staging file vanished and removes staging files nothing refers to', async () => {
    await send('POST', '/gone.bin', { 'upload-length': '10' });
    await send('POST', '/kept.bin', { 'upload-length': '10' });
    const all = await rows();
    const gone = all.find((row) => row.path === '/gone.bin')!;
    const orphan = path.join(stagingDir(), '0b3c2a8e-8d1f-4f8e-9c52-7f0e2d0c9a11.part');
    const unrelated = path.join(stagingDir(), 'notes.txt');
    await restart(() => {
      fs.unlinkSync(gone.stagingPath);
      fs.writeFileSync(orphan, 'left behind');
      fs.writeFileSync(unrelated, 'not ours to remove');
    });
    expect((await rows()).map((row) => row.path)).toEqual(['/kept.bin']);
    expect((await send('HEAD', '/gone.bin')).statusCode).toBe(404);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(unrelated)).toBe(true);
    expect((await send('HEAD', '/kept.bin')).statusCode).toBe(200);
  });
});
