import type { Page } from '@playwright/test';
import { AdminPassword, expect, test, waitForApp, type BurrowServer } from './fixtures';

const toast = (page: Page, type: 'success' | 'error', text: string) => page.locator(`[data-sonner-toast][data-type="${type}"]:has-text("${text}")`);

async function storedUser(server: BurrowServer, id: number): Promise<Record<string, any>> {
  return (await server.apiOk('GET', `/api/users/${id}`, { token: await server.adminToken() })).json();
}

const otherPermissions = ['Create files and folders', 'Delete files and folders', 'Download', 'Edit files', 'Rename and move files and folders', 'Share files'];

test.describe('users', () => {
  test('the list shows every user with admin flag, scope and an edit link', async ({ adminPage, makeUser, root }) => {
    const user = await makeUser({ scope: `/${root.folder}` });
    await adminPage.goto('settings/users');
    await waitForApp(adminPage);
    const table = adminPage.getByRole('table', { name: 'Users' });
    const adminRow = table.getByRole('row').filter({ has: adminPage.getByRole('cell', { name: 'admin', exact: true }) });
    await expect(adminRow.getByRole('cell', { name: 'Yes' })).toBeVisible();
    await expect(adminRow.getByRole('cell', { name: '/', exact: true })).toBeVisible();
    const userRow = table.getByRole('row').filter({ has: adminPage.getByRole('cell', { name: user.username, exact: true }) });
    await expect(userRow.getByRole('cell', { name: 'No' })).toBeAttached();
    await expect(userRow.getByRole('cell', { name: `/${root.folder}` })).toBeVisible();
    await userRow.getByRole('link', { name: `Edit ${user.username}` }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/settings/users/${user.id}$`));
    await expect(adminPage.getByLabel('Username')).toHaveValue(user.username);

    await adminPage.goto('settings/users');
    await adminPage.getByRole('link', { name: 'New user' }).click();
    await expect(adminPage).toHaveURL(/\/settings\/users\/new$/);
    await expect(adminPage.getByRole('heading', { name: 'New user', exact: true })).toBeVisible();
  });

  test('create, edit and delete a user through the form', async ({ adminPage, server, root }) => {
    const username = `formuser-${test.info().workerIndex}-${Date.now()}`;
    const password = 'form-user-password-1';
    await adminPage.goto('settings/users/new');
    await waitForApp(adminPage);
    await adminPage.getByLabel('Username').fill(username);
    await adminPage.getByLabel('Password', { exact: true }).fill(password);
    await adminPage.getByLabel('Scope').fill(`/${root.folder}/home`);
    await adminPage.getByLabel('Language').selectOption('pt-br');
    await adminPage.getByLabel('Delete files and folders').uncheck();
    await adminPage.getByLabel("Don't let the user change their password").check();
    await adminPage.getByLabel('Your password').fill(AdminPassword);
    await adminPage.getByRole('button', { name: 'Save' }).click();

    await expect(adminPage).toHaveURL(/\/settings\/users\/\d+$/);
    await expect(toast(adminPage, 'success', 'User created')).toBeVisible();
    const id = Number(/(\d+)$/.exec(adminPage.url())![1]);
    let user = await storedUser(server, id);
    expect(user).toMatchObject({ username, scope: `/${root.folder}/home`, locale: 'pt-br', lockPassword: true, perm: { delete: false, create: true, admin: false } });
    expect(root.isDirectory(`${root.folder}/home`)).toBe(true);
    expect((await server.api('POST', '/api/login', { body: { username, password } })).status).toBe(200);

    // The edit form shows the record; an empty password keeps the old one.
    await expect(adminPage.getByRole('heading', { name: 'Edit user', exact: true })).toBeVisible();
    await expect(adminPage.getByLabel('Password', { exact: true })).toHaveAttribute('placeholder', 'Leave empty to keep unchanged');
    await expect(adminPage.getByLabel('Create a home folder for this user')).toHaveCount(0);
    await adminPage.getByLabel('Scope').fill(`/${root.folder}`);
    await adminPage.getByLabel("Don't let the user change their password").uncheck();
    await adminPage.getByLabel('Delete files and folders').check();
    await adminPage.getByLabel('Your password').fill(AdminPassword);
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(toast(adminPage, 'success', 'User updated')).toBeVisible();
    user = await storedUser(server, id);
    expect(user).toMatchObject({ scope: `/${root.folder}`, lockPassword: false, perm: { delete: true } });
    expect((await server.api('POST', '/api/login', { body: { username, password } })).status).toBe(200);

    // A wrong own password is refused and nothing changes.
    await adminPage.getByLabel('Scope').fill('/elsewhere');
    await adminPage.getByLabel('Your password').fill('not the admin password');
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(toast(adminPage, 'error', 'the current password is incorrect')).toBeVisible();
    expect((await storedUser(server, id)).scope).toBe(`/${root.folder}`);

    // Delete, confirmed with the admin's password.
    await adminPage.getByRole('button', { name: 'Delete' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Delete user' });
    await expect(dialog).toContainText(username);
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await dialog.getByLabel('Your password').fill(AdminPassword);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(adminPage, 'success', 'User deleted')).toBeVisible();
    await expect(adminPage).toHaveURL(/\/settings\/users$/);
    await expect(adminPage.getByRole('cell', { name: username, exact: true })).toHaveCount(0);
    expect((await server.api('GET', `/api/users/${id}`, { token: await server.adminToken() })).status).toBe(404);
  });

  test('the admin box grants everything, locks the other boxes and clears the password lock', async ({ adminPage }) => {
    await adminPage.goto('settings/users/new');
    const lock = adminPage.getByLabel("Don't let the user change their password");
    const admin = adminPage.getByLabel('Administrator');
    await lock.check();
    await adminPage.getByLabel('Share files').uncheck();
    await adminPage.getByLabel('Edit files').uncheck();

    await admin.check();
    for (const name of otherPermissions) {
      await expect(adminPage.getByLabel(name)).toBeChecked();
      await expect(adminPage.getByLabel(name)).toBeDisabled();
    }
    await expect(lock).not.toBeChecked();
    await expect(lock).toBeDisabled();

    await admin.uncheck();
    for (const name of otherPermissions) {
      await expect(adminPage.getByLabel(name)).toBeChecked();
      await expect(adminPage.getByLabel(name)).toBeEnabled();
    }
    await expect(lock).toBeEnabled();
    // Without shell execution there is neither an execute box nor commands.
    await expect(adminPage.getByLabel('Run commands')).toHaveCount(0);
    await expect(adminPage.getByLabel('Commands', { exact: true })).toHaveCount(0);
  });

  test('an admin created through the form gets every permission', async ({ adminPage, server }) => {
    const username = `formadmin-${test.info().workerIndex}-${Date.now()}`;
    await adminPage.goto('settings/users/new');
    await adminPage.getByLabel('Username').fill(username);
    await adminPage.getByLabel('Password', { exact: true }).fill('form-admin-password-1');
    await adminPage.getByLabel('Share files').uncheck();
    await adminPage.getByLabel('Administrator').check();
    await adminPage.getByLabel('Your password').fill(AdminPassword);
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(toast(adminPage, 'success', 'User created')).toBeVisible();
    const id = Number(/(\d+)$/.exec(adminPage.url())![1]);
    const user = await storedUser(server, id);
    expect(user.perm).toEqual({ admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true });
    // Leave the worker's server with a single admin again.
    await server.apiOk('DELETE', `/api/users/${id}`, { token: await server.adminToken(), body: { current_password: AdminPassword } });
  });

  test('a home folder is generated when asked for', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer();
    await server.updateSettings((settings) => {
      settings.createUserDir = true;
      settings.userHomeBasePath = '/homes';
    });
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings/users/new`);
    const createHome = page.getByLabel('Create a home folder for this user');
    const scope = page.getByLabel('Scope');
    await expect(createHome).toBeChecked();
    await expect(scope).toBeDisabled();
    await expect(scope).toHaveValue('');
    // Unticking brings back the scope from the defaults, ticking clears it again.
    await createHome.uncheck();
    await expect(scope).toBeEnabled();
    await expect(scope).toHaveValue('.');
    await scope.fill('/typed');
    await createHome.check();
    await expect(scope).toHaveValue('');

    await page.getByLabel('Username').fill('Jane Doe');
    await page.getByLabel('Password', { exact: true }).fill('jane-doe-password-1');
    await page.getByLabel('Your password').fill(AdminPassword);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/settings\/users\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    expect((await storedUser(server, id)).scope).toBe('/homes/Jane-Doe');
    await expect(page.getByLabel('Scope')).toHaveValue('/homes/Jane-Doe');
  });

  test('without home folders in the global settings the box is offered disabled', async ({ adminPage }) => {
    await adminPage.goto('settings/users/new');
    const createHome = adminPage.getByLabel('Create a home folder for this user');
    await expect(createHome).toBeDisabled();
    await expect(createHome).not.toBeChecked();
    await expect(adminPage.getByText('Turn on home folders for new users in the global settings to use this.')).toBeVisible();
    await expect(adminPage.getByLabel('Scope')).toBeEnabled();
  });

  test('rules set in the form hide a folder from that user', async ({ adminPage, server, root, pageAs }) => {
    root.write(`${root.folder}/open-notes/readme.txt`, 'visible');
    root.write(`${root.folder}/secret-plans/plan.txt`, 'hidden');
    const username = `ruled-${test.info().workerIndex}-${Date.now()}`;
    const password = 'ruled-user-password-1';
    await adminPage.goto('settings/users/new');
    await adminPage.getByLabel('Username').fill(username);
    await adminPage.getByLabel('Password', { exact: true }).fill(password);
    await adminPage.getByLabel('Scope').fill(`/${root.folder}`);
    await adminPage.getByRole('button', { name: 'New rule' }).click();
    const rule = adminPage.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Path').fill('/secret-plans');
    await rule.getByLabel('Allow').uncheck();
    // An untouched extra rule is left out rather than refused.
    await adminPage.getByRole('button', { name: 'New rule' }).click();
    await adminPage.getByLabel('Your password').fill(AdminPassword);
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await expect(toast(adminPage, 'success', 'User created')).toBeVisible();
    const id = Number(/(\d+)$/.exec(adminPage.url())![1]);
    expect((await storedUser(server, id)).rules).toEqual([{ regex: false, allow: false, path: '/secret-plans', regexp: { raw: '' } }]);

    const page = await pageAs({ username, password });
    await page.goto('files/');
    await expect(page.getByText('open-notes').first()).toBeVisible();
    await expect(page.getByText('secret-plans')).toHaveCount(0);
    await page.goto('files/secret-plans/');
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '403');
    await expect(page.getByRole('heading', { name: "You don't have permission to access this." })).toBeVisible();
  });

  test('deleting the sole admin is refused with the forbidden message', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer();
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings/users/1`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete user' });
    await dialog.getByLabel('Your password').fill(AdminPassword);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'error', "You don't have permission to access this.")).toBeVisible();
    await expect(dialog).toBeVisible();
    // Escape closes the dialog; the admin is still there.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect((await server.apiOk('GET', '/api/users/1', { token: await server.adminToken() })).ok).toBe(true);
  });

  test('an unknown user id shows the not-found page', async ({ adminPage }) => {
    await adminPage.goto('settings/users/999999');
    await expect(adminPage.getByRole('alert')).toHaveAttribute('data-status', '404');
    await adminPage.goto('settings/users/abc');
    await expect(adminPage.getByRole('alert')).toHaveAttribute('data-status', '404');
  });
});
