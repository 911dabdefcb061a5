import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres, startProxy, type Postgres, type Proxy } from '../bench/lib/cluster.mjs';
import { AdminPassword, BurrowServer, expect, test, waitForApp } from './fixtures';
import { action, itemBox, itemLink } from './files-helpers';

// Two instances on one PostgreSQL database, one root and one cache folder, behind a round-robin
// proxy: the browser talks to the proxy only, and its requests alternate between the instances.

test.describe('several instances behind one address', () => {
  let postgres: Postgres | undefined;
  let proxy: Proxy | undefined;
  const servers: BurrowServer[] = [];
  const temp: string[] = [];

  test.afterEach(async () => {
    await proxy?.close();
    for (const server of servers.splice(0)) await server.stop();
    postgres?.stop();
    for (const folder of temp.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('log in, upload, share and search through a proxy that alternates between two instances', async ({ page, browser }) => {
    test.setTimeout(120_000);
    postgres = await startPostgres();
    const database = await postgres.createDatabase('burrow_e2e');
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-e2e-cache-'));
    temp.push(cache);
    const first = await BurrowServer.start({ args: ['--database', database, '--cache-dir', cache] });
    servers.push(first);
    // The second instance serves the first one's root: one shared tree.
    servers.push(await BurrowServer.start({ args: ['--database', database, '--cache-dir', cache, '--root', first.root] }));
    proxy = await startProxy(servers.map((server) => server.port));
    const origin = `http://127.0.0.1:${proxy.port}`;
    const folder = `cluster-${Date.now().toString(36)}`;
    fs.mkdirSync(path.join(first.root, folder));

    await page.goto(`${origin}/login`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(AdminPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${origin}/files/`);
    await waitForApp(page);

    // Upload a file into the folder.
    await page.goto(`${origin}/files/${folder}/`);
    await waitForApp(page);
    const local = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-e2e-upload-'));
    temp.push(local);
    const content = 'travelled through two instances\n'.repeat(2000);
    fs.writeFileSync(path.join(local, 'nomad-report.txt'), content);
    await action(page, 'Upload').click();
    await expect(page.getByRole('dialog', { name: 'Upload' })).toBeVisible();
    await page.getByTestId('upload-files-input').setInputFiles(path.join(local, 'nomad-report.txt'));
    await expect(page.getByRole('region', { name: 'Upload progress' })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(itemLink(page, 'nomad-report.txt')).toBeVisible();
    expect(fs.readFileSync(path.join(first.root, folder, 'nomad-report.txt'), 'utf8')).toBe(content);

    // Share it, and open the link as a visitor.
    await expect(itemBox(page, 'nomad-report.txt')).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “nomad-report.txt”' });
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    const links = dialog.getByRole('list', { name: 'Share links' });
    await expect(links.getByRole('listitem')).toHaveCount(1);
    const shareUrl = await links.getByRole('link').first().getAttribute('href');
    expect(shareUrl).toMatch(new RegExp(`^${origin}/share/[\\w-]+$`));
    await page.keyboard.press('Escape');
    const visitorContext = await browser.newContext();
    try {
      const visitor = await visitorContext.newPage();
      // Several loads, so that both instances answer for the link.
      for (let attempt = 0; attempt < 2; attempt++) {
        await visitor.goto(shareUrl!);
        await expect(visitor.getByText('nomad-report.txt').first()).toBeVisible();
      }
    } finally {
      await visitorContext.close();
    }

    // Search for it.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const search = page.getByRole('dialog', { name: 'Search' });
    const input = search.getByRole('searchbox', { name: 'Search in this folder' });
    await input.pressSequentially('nomad');
    await input.press('Enter');
    await expect(search.getByRole('list', { name: 'Search results' }).getByRole('link')).toHaveText([/nomad-report\.txt/]);

    // Both instances served the browser.
    for (const [index, count] of proxy.served.entries()) expect(count, `instance ${index}`).toBeGreaterThan(5);
  });
});
