#!/usr/bin/env node
// Upload benchmark through the real web app: many small files picked in the upload dialog of a
// headless Chromium, sent by the app's own queue to a built server on 127.0.0.1. Reports files
// per second from the moment the files are handed to the page until the last one is on disk
// and the panel reports the batch done.
//
//   npm run bench:upload-ui -w @burrow/bench -- [--files 1000] [--size 4096] [--timeout 300]
//
// Needs `npm run build` first (server/dist and web/dist). Everything it creates lives in a
// temporary folder that is removed at the end, also after a failure.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib/burrow.mjs';
import { chromium } from '@playwright/test';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((part) => part.trim().split(/\s+/))
    .map(([key, value]) => [key, value ?? 'true']),
);
const FILES = Number(args.files ?? 1000);
const SIZE = Number(args.size ?? 4096);
const TIMEOUT_MS = Number(args.timeout ?? 300) * 1000;
const PASSWORD = 'bench-admin-password-1';
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(repo, 'server/dist/main.js');

for (const required of [serverEntry, path.join(repo, 'web/dist/index.html')]) {
  if (!fs.existsSync(required)) {
    console.error(`missing ${path.relative(repo, required)}: run npm run build first`);
    process.exit(2);
  }
}


async function waitHealthy(url, child) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

function countFiles(folder) {
  try {
    return fs.readdirSync(folder).length;
  } catch {
    return 0;
  }
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-upload-ui-'));
const root = path.join(home, 'root');
const local = path.join(home, 'local');
fs.mkdirSync(root);
fs.mkdirSync(local);
let child;
let browser;
try {
  const names = [];
  for (let index = 0; index < FILES; index += 1) {
    const name = `f${String(index).padStart(5, '0')}.bin`;
    fs.writeFileSync(path.join(local, name), crypto.randomBytes(SIZE));
    names.push(path.join(local, name));
  }
  fs.mkdirSync(path.join(root, 'bench'));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [serverEntry, 'serve', '--port', String(port), '--root', root, '--database', path.join(home, 'burrow.db'), '--log-level', 'warn'], {
    env: { ...process.env, BURROW_ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitHealthy(url, child);
  const token = await (await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) })).text();

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const context = await browser.newContext({
    baseURL: url + '/',
    storageState: {
      cookies: [{ name: 'auth', value: token, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Strict' }],
      origins: [{ origin: url, localStorage: [{ name: 'jwt', value: token }] }],
    },
  });
  const page = await context.newPage();
  await page.goto('files/bench/');
  await page.locator('#loading').waitFor({ state: 'detached' });
  await page.getByRole('group', { name: 'File actions' }).getByRole('button', { name: 'Upload', exact: true }).click();
  const input = page.getByTestId('upload-files-input');
  await input.waitFor({ state: 'attached' });

  const started = performance.now();
  await input.setInputFiles(names);
  const panel = page.getByRole('region', { name: 'Upload progress' });
  await panel.and(page.locator('[data-state="done"]')).waitFor({ timeout: TIMEOUT_MS });
  const elapsed = (performance.now() - started) / 1000;
  const arrived = countFiles(path.join(root, 'bench'));
  if (arrived !== FILES) throw new Error(`only ${arrived} of ${FILES} files arrived`);
  const rate = FILES / elapsed;
  console.log(`upload-ui: ${FILES} files of ${SIZE} B through the web app in ${elapsed.toFixed(2)} s = ${rate.toFixed(1)} files/s`);
  console.log('reference (reported by the copyparty author): copyparty 87 files/s, Nextcloud 2.2 files/s');
} finally {
  await browser?.close().catch(() => undefined);
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(home, { recursive: true, force: true });
}
