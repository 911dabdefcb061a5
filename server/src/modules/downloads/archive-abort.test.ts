import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { writeFile } from './test-fixtures.js';

let t: TestApp;
let token: string;
let port: number;

beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  const chunk = crypto.randomBytes(1024 * 1024);
  for (let index = 0; index < 24; index++) writeFile(t.root, `/big/file-${String(index).padStart(2, '0')}.bin`, Buffer.concat([chunk, chunk]));
});
afterEach(async () => {
  await t.close();
});

/** Open descriptors of this process that point into the served root. */
function openFilesUnderRoot(): string[] {
  const open: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(t.root)) open.push(target);
    } catch {
      // closed while listing
    }
  }
  return open;
}

/** Command lines of this process's direct children. */
function childCommands(): string[] {
  const commands: string[] = [];
  for (const task of fs.readdirSync('/proc/self/task')) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/self/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.split(/\s+/).filter(Boolean)) {
      try {
        commands.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
      } catch {
        // exited meanwhile
      }
    }
  }
  return commands;
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Starts an archive download, reads about `bytes`, then drops the connection. */
function startAndAbandon(url: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, headers: { 'x-auth': token } }, (response) => {
      let received = 0;
      response.on('data', (data: Buffer) => {
        received += data.length;
        if (received >= bytes) {
          response.pause();
          request.destroy();
          resolve(received);
        }
      });
      response.on('end', () => reject(new Error(`archive finished before it was abandoned (${received} bytes)`)));
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

describe('abandoned archive downloads', () => {
  for (const algo of ['tar', 'zip', 'tarbz2']) {
    it(`${algo}: a client that disconnects stops the work and closes the files`, async () => {
      const received = await startAndAbandon(`/api/raw/big/?algo=${algo}`, 256 * 1024);
      expect(received).toBeGreaterThan(0);
      expect(await waitFor(() => openFilesUnderRoot().length === 0)).toBe(true);
      expect(await waitFor(() => !childCommands().some((command) => command.startsWith('bzip2') || command.includes('node-bzip2')))).toBe(true);
    });
  }
});
