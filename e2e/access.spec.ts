import { expect, test, waitForApp } from './fixtures';

test.describe('route guards and error pages', () => {
  for (const path of ['settings/global', 'settings/users', 'settings/users/new', 'settings/users/1']) {
    test(`/${path} is for admins only`, async ({ makeUser, pageAs }) => {
      const page = await pageAs(await makeUser());
      await page.goto(path);
      await expect(page).toHaveURL(/\/403$/);
      await expect(page.getByRole('heading', { name: "You don't have permission to access this." })).toBeVisible();
      await expect(page).toHaveTitle('Access denied - Burrow');
    });
  }

  test('admins reach every settings screen; /settings opens the profile', async ({ adminPage, server }) => {
    await adminPage.goto('settings');
    await expect(adminPage).toHaveURL(`${server.url}/settings/profile`);
    await expect(adminPage.getByRole('heading', { name: 'Profile settings' })).toBeVisible();
    for (const [path, heading] of [
      ['settings/global', 'Global settings'],
      ['settings/users', 'Users'],
      ['settings/users/new', 'New user'],
      ['settings/users/1', 'Edit user'],
      ['settings/shares', 'Share management'],
    ] as const) {
      await adminPage.goto(path);
      await expect(adminPage.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await expect(adminPage).toHaveTitle(`${heading} - Burrow`);
    }
  });

  test('the settings menu depends on permissions', async ({ makeUser, pageAs }) => {
    const page = await pageAs(await makeUser({ perm: { share: false } }));
    await page.goto('settings/profile');
    const menu = page.getByRole('navigation', { name: 'Settings menu' });
    await expect(menu.getByRole('link')).toHaveText(['Profile settings']);
    const sharer = await pageAs(await makeUser());
    await sharer.goto('settings/profile');
    await expect(sharer.getByRole('navigation', { name: 'Settings menu' }).getByRole('link')).toHaveText(['Profile settings', 'Share management']);
    // The sidebar offers Settings to admins only.
    await expect(sharer.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' })).toHaveCount(0);
  });

  test('an unknown path is taken as a path in the files', async ({ adminPage, server, root }) => {
    root.write(`${root.folder}/inside.txt`, 'x');
    await adminPage.goto(`${root.folder}/`);
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(adminPage.getByRole('link', { name: /inside\.txt/ })).toBeVisible();
    await adminPage.goto('');
    await expect(adminPage).toHaveURL(`${server.url}/files/`);
  });

  test('a missing folder shows the not-found screen', async ({ adminPage }) => {
    await adminPage.goto('files/does-not-exist/');
    await expect(adminPage.getByRole('heading', { name: "This location can't be reached." })).toBeVisible();
  });

  for (const [status, message, title] of [
    [403, "You don't have permission to access this.", 'Access denied'],
    [404, "This location can't be reached.", 'Not found'],
    [500, 'Something went really wrong.', 'Internal error'],
  ] as const) {
    test(`/${status} shows its error page`, async ({ page }) => {
      await page.goto(String(status));
      await expect(page.getByRole('alert')).toHaveAttribute('data-status', String(status));
      await expect(page.getByRole('heading', { name: message })).toBeVisible();
      await expect(page.locator('.error-screen__icon')).toBeVisible();
      await expect(page).toHaveTitle(`${title} - Burrow`);
    });
  }

  test('a lost connection shows the connection error', async ({ adminPage }) => {
    await adminPage.route('**/api/resources/**', (route) => route.abort('connectionrefused'));
    await adminPage.goto('files/');
    await expect(adminPage.getByRole('heading', { name: /Something is wrong with the connection/ })).toBeVisible();
    await expect(adminPage.getByRole('alert')).toHaveAttribute('data-status', '0');
  });

  test('the public share route needs no login', async ({ page }) => {
    await page.goto('share/abcdefgh');
    await expect(page).toHaveURL(/\/share\/abcdefgh$/);
    // No such link: the share page itself answers, with the not-found screen.
    await expect(page.getByRole('heading', { name: "This location can't be reached." })).toBeVisible();
  });

  test('the loading overlay is removed after start-up', async ({ adminPage }) => {
    await adminPage.goto('files/');
    await waitForApp(adminPage);
    await expect(adminPage.locator('#loading')).toHaveCount(0);
  });
});
