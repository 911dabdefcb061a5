import { AdminPassword, expect, test } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('accessibility (axe: no serious or critical violation)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`login and signup, ${scheme}`, async ({ page, launchServer }) => {
      test.setTimeout(60_000);
      const server = await launchServer({ settings: { signup: 'true' }, env: { BURROW_EXTERNAL_CHAT_URL: 'https://chat.example.org/' } });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}/login`);
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByLabel('Confirm password')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${server.url}/login?logout-reason=inactivity`);
      await expect(page.getByRole('status')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test(`files, share and error screens, ${scheme}`, async ({ adminPage, root }) => {
      test.setTimeout(90_000);
      root.write(`${root.folder}/sub/inner.txt`, 'x');
      root.write(`${root.folder}/a file.txt`, 'some text');
      await adminPage.emulateMedia({ colorScheme: scheme });
      const screens: Array<[string, string]> = [
        [`files/${root.folder}/`, 'a file.txt'],
        [`files/${root.folder}/a%20file.txt`, 'a file.txt'],
        [`files/${root.folder}/sub/`, 'inner.txt'],
        // The settings screens have their own, fuller axe checks in settings-a11y.spec.ts.
        ['share/abcdefgh', "This location can't be reached."],
        ['403', "You don't have permission to access this."],
        ['404', "This location can't be reached."],
        ['500', 'Something went really wrong.'],
      ];
      for (const [path, text] of screens) {
        await adminPage.goto(path);
        await expect(adminPage.getByText(text, { exact: true }).first()).toBeVisible();
        expect(await seriousViolations(adminPage), path).toEqual([]);
      }
    });
  }

  test('empty folder, dialog and mobile drawer', async ({ adminPage, root }) => {
    await adminPage.goto(`files/${root.folder}/`);
    await expect(adminPage.getByText('This folder is empty.')).toBeVisible();
    expect(await seriousViolations(adminPage)).toEqual([]);
    await adminPage.getByRole('button', { name: 'New folder' }).click();
    await expect(adminPage.getByRole('dialog', { name: 'New folder' })).toBeVisible();
    expect(await seriousViolations(adminPage)).toEqual([]);
    await adminPage.keyboard.press('Escape');
    await adminPage.setViewportSize({ width: 375, height: 740 });
    await adminPage.getByRole('button', { name: 'Toggle the menu' }).click();
    await expect(adminPage.getByRole('link', { name: 'My files' })).toBeVisible();
    expect(await seriousViolations(adminPage)).toEqual([]);
  });

  test('connection error screen', async ({ pageAs }) => {
    const page = await pageAs({ username: 'admin', password: AdminPassword });
    await page.route('**/api/resources/**', (route) => route.abort('connectionrefused'));
    await page.goto('files/');
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '0');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
