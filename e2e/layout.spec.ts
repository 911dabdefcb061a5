import { AdminPassword, expect, test, waitForApp } from './fixtures';

test.describe('layout', () => {
  test('the sidebar shows the account, navigation, usage, help and version', async ({ adminPage, root }) => {
    root.write(`${root.folder}/a.txt`, 'abc');
    await adminPage.goto(`files/${root.folder}/`);
    const sidebar = adminPage.getByRole('navigation', { name: 'Main menu' });
    await expect(sidebar.getByRole('link', { name: 'admin' })).toHaveAttribute('href', '/settings/profile');
    await expect(sidebar.getByRole('link', { name: 'My files' })).toHaveAttribute('href', '/files/');
    await expect(sidebar.getByRole('link', { name: 'Settings' })).toBeVisible();
    await expect(sidebar.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Help' })).toBeVisible();
    await expect(sidebar.getByText(/^Version \d/)).toBeVisible();
    const usage = sidebar.getByRole('progressbar');
    await expect(usage).toHaveAttribute('aria-valuetext', /^[\d.,]+ [KMGTPE]?i?B of [\d.,]+ [KMGTPE]?i?B used$/);

    // Not on other screens.
    await adminPage.goto('settings/profile');
    await expect(adminPage.getByRole('heading', { name: 'Profile settings' })).toBeVisible();
    await expect(sidebar.getByRole('progressbar')).toHaveCount(0);
  });

  test('the usage bar is hidden when the deployment disables it', async ({ launchServer, pageAs }) => {
    const server = await launchServer();
    await server.updateSettings((settings) => {
      settings.branding.disableUsedPercentage = true;
    });
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/files/`);
    await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });

  test('logged-out visitors get Login and Sign up links when the login button is not hidden', async ({ page, launchServer }) => {
    const server = await launchServer({ settings: { signup: 'true', hideLoginButton: 'false' } });
    await page.goto(`${server.url}/share/abcdefgh`);
    const sidebar = page.getByRole('navigation', { name: 'Main menu' });
    await expect(sidebar.getByRole('link', { name: 'Log in' })).toBeVisible();
    await sidebar.getByRole('link', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/login\?mode=signup$/);
    await expect(page.getByLabel('Confirm password')).toBeVisible();
  });

  test('narrow screens get a menu button that opens the sidebar as a drawer', async ({ adminPage }) => {
    await adminPage.setViewportSize({ width: 375, height: 740 });
    await adminPage.goto('files/');
    await waitForApp(adminPage);
    const menu = adminPage.getByRole('button', { name: 'Toggle the menu' });
    const myFiles = adminPage.getByRole('link', { name: 'My files' });
    await expect(menu).toBeVisible();
    // The files screen's actions take the room of the app's name: the logo stays, the name is
    // still the link's accessible name, and nothing in the bar is cut off.
    const brand = adminPage.locator('.top-bar__brand');
    await expect(brand).toHaveAccessibleName('Burrow');
    await expect(brand.locator('img')).toBeVisible();
    await expect(brand.locator('span')).toBeHidden();
    const bar = adminPage.locator('.top-bar');
    expect(await bar.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expect(myFiles).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(myFiles).toBeVisible();
    await adminPage.keyboard.press('Escape');
    await expect(myFiles).toBeHidden();
    await menu.click();
    await adminPage.getByRole('link', { name: 'admin' }).click();
    await expect(adminPage.getByRole('heading', { name: 'Profile settings' })).toBeVisible();
    await expect(myFiles).toBeHidden();
  });

  test('wide screens show the sidebar without a menu button', async ({ adminPage }) => {
    await adminPage.setViewportSize({ width: 1024, height: 700 });
    await adminPage.goto('files/');
    await expect(adminPage.getByRole('link', { name: 'My files' })).toBeVisible();
    await expect(adminPage.getByRole('button', { name: 'Toggle the menu' })).toBeHidden();
  });

  test('folders list their items as links that open them', async ({ adminPage, server, root }) => {
    root.write(`${root.folder}/docs/readme.txt`, 'read me');
    root.write(`${root.folder}/photo one.jpg`, 'jpeg');
    await adminPage.goto(`files/${root.folder}/`);
    const list = adminPage.getByRole('grid', { name: 'Folder contents' });
    await expect(list.getByRole('link')).toHaveCount(2);
    await expect(list.getByRole('link').first()).toContainText('docs');
    // A click selects; a double click opens.
    await list.getByRole('link', { name: /docs/ }).dblclick();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/docs/`);
    await list.getByRole('link', { name: /readme\.txt/ }).dblclick();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/docs/readme.txt`);
    // A text file opens in the editor, whose close button leads back to the folder.
    await expect(adminPage.locator('.ace_editor')).toBeVisible();
    await adminPage.getByRole('link', { name: 'Close' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/docs/`);
  });
});
