import fs from 'node:fs';
import { AdminPassword, expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('audit log screen', () => {
  test('shows what was done, filters it and exports it', async ({ launchServer, pageAs }) => {
    test.setTimeout(90_000);
    // A server of its own: the log holds only what this test did.
    const server = await launchServer();
    const token = await server.adminToken();
    await server.apiOk('POST', '/api/resources/projects/', { token });
    await server.apiOk('POST', '/api/resources/projects/plan.txt', { token, body: 'step one' });
    const refused = await server.api('POST', '/api/login', { body: { username: 'intruder', password: 'guessing-1234' } });
    expect(refused.status).toBe(403);

    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings`);
    await waitForApp(page);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Audit log' });
    await expect(table.getByRole('columnheader')).toHaveText(['Time', 'User', 'Action', 'Target', 'Outcome']);
    await expect(table.getByRole('row').filter({ hasText: 'file.mkdir' })).toContainText('/projects');
    await expect(table.getByRole('row').filter({ hasText: 'file.upload' })).toContainText('/projects/plan.txt');
    expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' }), 'audit screen').toEqual([]);

    const filters = page.getByRole('form', { name: 'Audit log filters' });
    await filters.getByRole('textbox', { name: 'User' }).fill('intruder');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const rows = table.getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('auth.login');
    await expect(rows.first()).toContainText('Denied');
    await expect(rows.first()).toContainText('403');

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export as CSV' }).click();
    const csv = fs.readFileSync((await (await csvDownload).path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('"time","user_id","username","client","action","path","destination","outcome","status","details"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"intruder"');
    expect(csv).not.toContain('guessing-1234');

    await filters.getByRole('textbox', { name: 'User' }).fill('');
    await filters.getByRole('combobox', { name: 'Action' }).selectOption('file.upload');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(rows).toHaveCount(1);
    const ndjsonDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export as JSON lines' }).click();
    const entries = fs
      .readFileSync((await (await ndjsonDownload).path())!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; path: string; username: string });
    expect(entries).toEqual([expect.objectContaining({ action: 'file.upload', path: '/projects/plan.txt', username: 'admin' })]);

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'file.mkdir' })).toHaveCount(1);
  });

  test('is for admins only', async ({ server, makeUser, pageAs }) => {
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto(`${server.url}/settings/profile`);
    await waitForApp(page);
    await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    const response = await server.api('GET', '/api/audit', { token: await user.token() });
    expect(response.status).toBe(403);
  });
});
