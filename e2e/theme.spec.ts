import { AdminPassword, expect, test } from './fixtures';

test.describe('theme', () => {
  test('follows the system colour scheme when no theme is set', async ({ adminPage }) => {
    await adminPage.emulateMedia({ colorScheme: 'dark' });
    await adminPage.goto('files/');
    await expect(adminPage.locator('html')).toHaveClass(/\bdark\b/);
    // A change of the system preference applies at once.
    await adminPage.emulateMedia({ colorScheme: 'light' });
    await expect(adminPage.locator('html')).toHaveClass(/\blight\b/);
    await expect(adminPage.locator('html')).not.toHaveClass(/\bdark\b/);
  });

  test('the theme from the global settings wins over the system scheme', async ({ launchServer, pageAs }) => {
    const server = await launchServer();
    await server.updateSettings((settings) => {
      settings.branding.theme = 'dark';
    });
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/files/`);
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(18, 20, 23)');

    await server.updateSettings((settings) => {
      settings.branding.theme = 'light';
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(245, 246, 248)');
  });
});
