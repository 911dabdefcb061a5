import { AdminPassword, expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('settings screens: axe finds no serious or critical violation', () => {
  // Each scheme once and each width once: light on a desktop, dark on a phone.
  for (const [scheme, width] of [['light', 1280], ['dark', 375]] as const) {
    test(`every settings screen with content, ${scheme}, ${width} px`, async ({ launchServer, pageAs }) => {
      test.setTimeout(120_000);
      const server = await launchServer({ args: ['--enable-exec'] });
      const token = await server.adminToken();
      await server.apiOk('POST', '/api/resources/shared-folder/', { token });
      await server.apiOk('POST', '/api/share/shared-folder/', { token, body: {} });
      await server.apiOk('POST', '/api/share/shared-folder/', { token, body: { expires: '3', unit: 'days', password: 'secret-words' } });
      const user = await server.createUser({ username: 'reader', scope: '/shared-folder' });
      const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });

      // The toasts belong to the app shell and come and go with the saves these screens make; they
      // are not part of what is checked here.
      const check = async (label: string) => expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' }), label).toEqual([]);

      await page.goto(`${server.url}/settings/profile`);
      await page.getByLabel('New password', { exact: true }).fill('one-password');
      await page.getByLabel('Confirm the new password').fill('another-password');
      await expect(page.getByText("The passwords don't match.")).toBeVisible();
      await check('profile');

      await page.goto(`${server.url}/settings/global`);
      await page.getByRole('button', { name: 'New rule' }).first().click();
      await expect(page.getByRole('heading', { name: 'Command runner' })).toBeVisible();
      await check('global');

      await page.goto(`${server.url}/settings/users`);
      await expect(page.getByRole('cell', { name: /^(Username )?reader$/ })).toBeVisible();
      await check('users');

      await page.goto(`${server.url}/settings/users/new`);
      await page.getByRole('button', { name: 'New rule' }).click();
      await page.getByLabel('Administrator').check();
      await check('new user');

      await page.goto(`${server.url}/settings/users/${user.id}`);
      await expect(page.getByLabel('Username')).toHaveValue('reader');
      await check('edit user');
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Delete user' })).toBeVisible();
      await check('delete dialog');
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/settings/shares`);
      await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(2);
      await check('shares');
      await page.getByRole('button', { name: 'Delete' }).first().click();
      // One row at a time: a second click before the first row left would hit the same link.
      await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(1);
      await page.getByRole('button', { name: 'Delete' }).first().click();
      await expect(page.getByText("You haven't shared anything yet.")).toBeVisible();
      await check('shares, empty');
    });
  }

  test('the settings forms work from the keyboard alone', async ({ adminPage }) => {
    await adminPage.goto('settings/users/new');
    await waitForApp(adminPage);
    const username = adminPage.getByLabel('Username');
    await username.focus();
    await adminPage.keyboard.type('keyboard-user');
    await adminPage.keyboard.press('Tab');
    await expect(adminPage.getByLabel('Password', { exact: true })).toBeFocused();
    // The New rule button is reachable and puts the focus into the new rule.
    const newRule = adminPage.getByRole('button', { name: 'New rule' });
    await newRule.focus();
    await adminPage.keyboard.press('Enter');
    await expect(adminPage.getByRole('group', { name: 'Rule 1' }).getByLabel('Path')).toBeFocused();
    await adminPage.keyboard.type('/hidden');
    // Its remove button hands the focus back to New rule.
    await adminPage.getByRole('button', { name: 'Remove rule 1' }).focus();
    await adminPage.keyboard.press('Enter');
    await expect(adminPage.getByRole('group', { name: 'Rule 1' })).toHaveCount(0);
    await expect(newRule).toBeFocused();
    // Checkboxes toggle with the space bar.
    const admin = adminPage.getByLabel('Administrator');
    await admin.focus();
    await adminPage.keyboard.press('Space');
    await expect(admin).toBeChecked();
  });
});
