import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { AdminPassword, expect, test, waitForApp } from './fixtures';

test.describe('shell panel', () => {
  test('runs allowed commands, refuses others, keeps a history, clears and exits', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer({ args: ['--enable-exec'] });
    const user = await server.createUser({ perm: { execute: true } });
    await server.apiOk('PUT', `/api/users/${user.id}`, {
      token: await server.adminToken(),
      body: { what: 'user', which: ['commands'], current_password: AdminPassword, data: { commands: ['echo', 'ls'] } },
    });
    fs.mkdirSync(path.join(server.root, 'work'));
    fs.writeFileSync(path.join(server.root, 'work', 'keep-me.txt'), 'still here');

    const page = await pageAs(user, { server });
    await page.goto(`${server.url}/files/work/`);
    await waitForApp(page);
    const toggle = page.getByRole('button', { name: 'Toggle shell' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const panel = page.getByRole('region', { name: 'Shell' });
    const input = panel.getByRole('textbox', { name: 'Command' });
    const output = panel.getByRole('log', { name: 'Command output' });
    await expect(input).toBeFocused();

    // Empty input is ignored.
    await input.press('Enter');
    await expect(output.locator('.shell__entry')).toHaveCount(0);

    await input.fill('ls');
    await input.press('Enter');
    await expect(output).toContainText('keep-me.txt');
    await expect(input).toBeEnabled();
    await expect(input).toBeFocused();

    // Colour codes are stripped from the output.
    await input.fill("echo -e '\\e[31mcoloured\\e[0m text'");
    await input.press('Enter');
    await expect(output.locator('pre').last()).toHaveText('coloured text\n');

    await input.fill('rm keep-me.txt');
    await input.press('Enter');
    await expect(output.locator('pre').last()).toHaveText('Command not allowed.\n');
    await expect(input).toBeEnabled();
    expect(fs.existsSync(path.join(server.root, 'work', 'keep-me.txt'))).toBe(true);

    // History: up walks back, down walks forward to a fresh line.
    await input.press('ArrowUp');
    await expect(input).toHaveValue('rm keep-me.txt');
    await input.press('ArrowUp');
    await expect(input).toHaveValue("echo -e '\\e[31mcoloured\\e[0m text'");
    await input.press('ArrowUp');
    await expect(input).toHaveValue('ls');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('ls');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('rm keep-me.txt');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('');

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
    expect(serious).toEqual([]);

    // The divider resizes the panel within its bounds.
    const divider = panel.getByRole('separator', { name: 'Resize the shell' });
    const before = (await panel.boundingBox())!.height;
    const box = (await divider.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y - 100, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThan(before + 50);
    await divider.press('End');
    const viewport = page.viewportSize()!;
    await expect.poll(async () => Math.round((await panel.boundingBox())!.height)).toBeLessThanOrEqual(viewport.height - 4 * 14);
    await divider.press('Home');
    await expect.poll(async () => (await panel.boundingBox())!.height).toBeLessThan(60);

    await input.fill('clear');
    await input.press('Enter');
    await expect(output.locator('.shell__entry')).toHaveCount(0);
    await expect(input).toHaveValue('');

    await input.fill('exit');
    await input.press('Enter');
    await expect(panel).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  test('no shell toggle without the execute permission or without the feature', async ({ launchServer, pageAs, adminPage }) => {
    const server = await launchServer({ args: ['--enable-exec'] });
    const user = await server.createUser({ perm: { execute: false } });
    const page = await pageAs(user, { server });
    await page.goto(`${server.url}/files/`);
    await waitForApp(page);
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Toggle shell' })).toHaveCount(0);

    // The worker's server runs without --enable-exec: even an admin gets no shell.
    await adminPage.goto('files/');
    await waitForApp(adminPage);
    await expect(adminPage.getByRole('button', { name: 'Search', exact: true })).toBeVisible();
    await expect(adminPage.getByRole('button', { name: 'Toggle shell' })).toHaveCount(0);
  });
});
