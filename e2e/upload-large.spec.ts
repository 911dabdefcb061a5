import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, loggedInContext, test, waitForApp } from './fixtures';
import { action, itemLink } from './files-helpers';

const MiB = 1024 * 1024;

function bigFile(size: number): { file: string; sha256: string; folder: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-upload-big-'));
  const file = path.join(folder, 'big.bin');
  const data = crypto.randomBytes(size);
  fs.writeFileSync(file, data);
  return { file, folder, sha256: crypto.createHash('sha256').update(data).digest('hex') };
}

/** Limits the page's upload bandwidth, so progress can be watched. */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

test.describe('large uploads', () => {
  test('25 MiB in 5 MiB tus chunks arrives intact, with live progress', async ({ browser, launchServer }) => {
    test.setTimeout(120_000);
    const server = await launchServer({});
    const token = await server.adminToken();
    await server.updateSettings((settings) => {
      settings.tus = { chunkSize: 5 * MiB, retryCount: 3 };
    });
    const local = bigFile(25 * MiB);
    const context = await loggedInContext(browser, server, token);
    const page = await context.newPage();
    const patches: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/api/tus/')) patches.push(request.postDataBuffer()?.length ?? 0);
    });
    try {
      await page.goto('files/');
      await waitForApp(page);
      await throttleUploads(page, 8 * MiB);
      await action(page, 'Upload').click();
      await page.getByTestId('upload-files-input').setInputFiles(local.file);

      const panel = page.getByRole('region', { name: 'Upload progress' });
      await expect(panel).toHaveAttribute('data-state', 'running');
      await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
      // Part way: a percent strictly between 0 and 100, the total right, a speed and a time left.
      await expect(panel.getByTestId('upload-sent')).toContainText('25', { timeout: 10_000 });
      await expect
        .poll(async () => Number((await panel.getByTestId('upload-percent').textContent())?.replace('%', '')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      const percent = Number((await panel.getByTestId('upload-percent').textContent())?.replace('%', ''));
      expect(percent).toBeLessThan(100);
      await expect(panel.getByTestId('upload-eta')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
      await expect(panel.getByTestId('upload-speed')).not.toHaveText(/^0 B\/s$/);

      await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
      await expect(itemLink(page, 'big.bin')).toBeVisible();
      expect(patches.length).toBe(5);
      const response = await server.apiOk('GET', '/api/resources/big.bin?checksum=sha256', { token });
      const body = (await response.json()) as { checksums: { sha256: string } };
      expect(body.checksums.sha256).toBe(local.sha256);
    } finally {
      await context.close();
      fs.rmSync(local.folder, { recursive: true, force: true });
    }
  });

  // Known bug: aborting does not yet send the tus DELETE, so the staged part waits for the expiry
  // sweep (the target is never touched). Re-enable once the abort path terminates the upload.
  test('abort asks first, then stops and removes the partial file', async ({ browser, launchServer }) => {
    test.setTimeout(90_000);
    const server = await launchServer({});
    const token = await server.adminToken();
    await server.updateSettings((settings) => {
      settings.tus = { chunkSize: 1 * MiB, retryCount: 1 };
    });
    const local = bigFile(12 * MiB);
    const context = await loggedInContext(browser, server, token);
    const page = await context.newPage();
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && request.url().includes('/api/tus/')) deletes.push(request.url());
    });
    try {
      await page.goto('files/');
      await waitForApp(page);
      await throttleUploads(page, 1 * MiB);
      await action(page, 'Upload').click();
      await page.getByTestId('upload-files-input').setInputFiles(local.file);
      const panel = page.getByRole('region', { name: 'Upload progress' });
      await expect(panel).toHaveAttribute('data-state', 'running');
      // Part of the file is on the server once the first chunk is acknowledged.
      await page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api/tus/'), { timeout: 15_000 });

      await panel.getByRole('button', { name: 'Abort uploads' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Abort uploads?' });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(panel).toHaveAttribute('data-state', 'running');

      await panel.getByRole('button', { name: 'Abort uploads' }).click();
      await confirm.getByRole('button', { name: 'Abort uploads' }).click();
      await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 10_000 });
      // The running upload was terminated on the server, and nothing of it stays.
      await expect.poll(() => deletes.length, { timeout: 10_000 }).toBe(1);
      await page.waitForTimeout(1000);
      expect(fs.existsSync(path.join(server.root, 'big.bin'))).toBe(false);
      await expect(page.getByRole('region', { name: 'Upload progress' })).toHaveCount(0);
      // The abort was the user's choice: no error appears.
      await expect(page.getByText('Upload aborted')).toHaveCount(0);
    } finally {
      await context.close();
      fs.rmSync(local.folder, { recursive: true, force: true });
    }
  });
});
