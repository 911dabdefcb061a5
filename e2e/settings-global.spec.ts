import type { Page } from '@playwright/test';
import { AdminPassword, expect, test, waitForApp, type BurrowServer } from './fixtures';

const successToast = (page: Page, text: string) => page.locator(`[data-sonner-toast][data-type="success"]:has-text("${text}")`);

async function storedSettings(server: BurrowServer): Promise<Record<string, any>> {
  return (await server.apiOk('GET', '/api/settings', { token: await server.adminToken() })).json();
}

/** Resolves when the page's settings PUT has been answered successfully. */
function settingsSaved(page: Page) {
  return page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith('/api/settings') && response.ok());
}

/** The card (a form) whose heading has this name. */
function card(page: Page, title: string) {
  return page.locator('form', { has: page.getByRole('heading', { name: title, exact: true }) });
}

test.describe('global settings', () => {
  test('every field of the general card survives a save and a reload', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer();
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings/global`);
    await waitForApp(page);
    const general = card(page, 'General');
    await general.getByLabel('Allow visitors to sign up').check();
    await general.getByLabel('Create a home folder for each new user').check();
    await general.getByLabel('Base folder of user homes').fill('/homes');
    await general.getByLabel('Minimum password length').fill('8');
    await general.getByRole('button', { name: 'New rule' }).click();
    // The new rule's text field takes the focus.
    await page.keyboard.type('/private');
    await general.getByRole('group', { name: 'Rule 1' }).getByLabel('Allow').uncheck();
    await general.getByRole('button', { name: 'New rule' }).click();
    const second = general.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('Regex').check();
    await second.getByLabel('Regular expression').fill('\\.bak$');
    await general.getByLabel('Run commands through').fill('  /bin/bash   -c  ');
    await general.getByLabel('Instance name').fill('Team Burrow');
    await general.getByLabel('Branding folder').fill('/srv/branding');
    await general.getByLabel('Hide external links (except the documentation)').check();
    await general.getByLabel('Hide the disk usage bar').check();
    await general.getByLabel('Chunk size').fill('2.5mb');
    await general.getByLabel('Retries per chunk').fill('3');
    await general.getByRole('button', { name: 'Save' }).click();
    await expect(successToast(page, 'Settings updated')).toBeVisible();

    const saved = await storedSettings(server);
    expect(saved).toMatchObject({
      signup: true,
      createUserDir: true,
      userHomeBasePath: '/homes',
      minimumPasswordLength: 8,
      shell: ['/bin/bash', '-c'],
      rules: [
        { regex: false, allow: false, path: '/private', regexp: { raw: '' } },
        { regex: true, allow: true, path: '', regexp: { raw: '\\.bak$' } },
      ],
      branding: { name: 'Team Burrow', files: '/srv/branding', disableExternal: true, disableUsedPercentage: true, theme: '' },
      tus: { chunkSize: 2.5 * 1024 * 1024, retryCount: 3 },
    });
    // The display name applies at once.
    await expect(page).toHaveTitle('Global settings - Team Burrow');

    await page.reload();
    await expect(general.getByLabel('Allow visitors to sign up')).toBeChecked();
    await expect(general.getByLabel('Base folder of user homes')).toHaveValue('/homes');
    await expect(general.getByLabel('Minimum password length')).toHaveValue('8');
    await expect(general.getByLabel('Run commands through')).toHaveValue('/bin/bash -c');
    await expect(general.getByRole('group', { name: 'Rule 1' }).getByLabel('Path')).toHaveValue('/private');
    await expect(general.getByLabel('Chunk size')).toHaveValue('2.5 MB');
    await expect(general.getByLabel('Retries per chunk')).toHaveValue('3');

    // Removing a rule and saving drops it.
    await general.getByRole('button', { name: 'Remove rule 1' }).click();
    await expect(general.getByRole('group', { name: 'Rule 2' })).toHaveCount(0);
    await Promise.all([settingsSaved(page), general.getByRole('button', { name: 'Save' }).click()]);
    expect((await storedSettings(server)).rules).toEqual([{ regex: true, allow: true, path: '', regexp: { raw: '\\.bak$' } }]);
  });

  test('the chunk size is read 1.5 s after typing stops and shown in the largest unit', async ({ adminPage, server }) => {
    await adminPage.goto('settings/global');
    const size = adminPage.getByLabel('Chunk size');
    await expect(size).toHaveValue('10 MB');

    await size.fill('1536 k');
    await adminPage.waitForTimeout(700);
    // Still as typed while the pause is shorter than 1.5 s.
    await expect(size).toHaveValue('1536 k');
    await expect(size).toHaveValue('1.5 MB', { timeout: 2500 });

    await size.fill('nonsense');
    await expect(size).toHaveValue('1 MB', { timeout: 2500 });
    await size.fill('3G');
    await expect(size).toHaveValue('3 GB', { timeout: 2500 });
    await size.fill('0.5 tb');
    await expect(size).toHaveValue('512 GB', { timeout: 2500 });

    // Saving at once (the field loses focus) still sends what was typed; nothing is written here.
    let sent: Record<string, any> | undefined;
    await adminPage.route('**/api/settings', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      sent = route.request().postDataJSON();
      await route.fulfill({ status: 200, body: '200 OK' });
    });
    await size.fill('64kb');
    await card(adminPage, 'General').getByRole('button', { name: 'Save' }).click();
    await expect(size).toHaveValue('64 KB');
    await expect.poll(() => sent?.tus?.chunkSize).toBe(64 * 1024);
    // The save reads the settings back before it ends; until then Save is busy and Enter does nothing.
    await expect(card(adminPage, 'General').getByRole('button', { name: 'Save' })).toBeEnabled();
    await size.fill('128K');
    await size.press('Enter');
    await expect.poll(() => sent?.tus?.chunkSize).toBe(128 * 1024);
    expect((await storedSettings(server)).tus.chunkSize).toBe(10 * 1024 * 1024);
  });

  test('a changed theme applies at once', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer();
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/settings/global`);
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    const general = card(page, 'General');
    await general.getByLabel('Theme').selectOption('dark');
    // Choosing is not saving.
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    await general.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 20, 23)');
    expect((await storedSettings(server)).branding.theme).toBe('dark');

    await general.getByLabel('Theme').selectOption('');
    await general.getByRole('button', { name: 'Save' }).click();
    // Back to following the system.
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
  });

  test('invalid numbers are refused before anything is sent', async ({ adminPage }) => {
    await adminPage.goto('settings/global');
    const general = card(adminPage, 'General');
    let puts = 0;
    adminPage.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/settings')) puts += 1;
    });
    await general.getByLabel('Minimum password length').fill('0');
    await general.getByRole('button', { name: 'Save' }).click();
    expect(await general.getByLabel('Minimum password length').evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true);
    await general.getByLabel('Minimum password length').fill('12');
    await general.getByLabel('Retries per chunk').fill('-1');
    await general.getByRole('button', { name: 'Save' }).click();
    expect(await general.getByLabel('Retries per chunk').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    await adminPage.waitForTimeout(300);
    expect(puts).toBe(0);
  });

  test('the defaults for new users are saved', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer();
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings/global`);
    const defaults = card(page, 'Defaults for new users');
    await expect(defaults.getByLabel('Username')).toHaveCount(0);
    await expect(defaults.getByLabel('Password')).toHaveCount(0);
    await defaults.getByLabel('Scope').fill('/shared');
    await defaults.getByLabel('Language').selectOption('fr');
    await defaults.getByLabel('Delete files and folders').uncheck();
    await defaults.getByLabel('Edit files').uncheck();
    await defaults.getByRole('button', { name: 'Save' }).click();
    await expect(successToast(page, 'Settings updated')).toBeVisible();
    const saved = await storedSettings(server);
    expect(saved.defaults).toMatchObject({ scope: '/shared', locale: 'fr', perm: { delete: false, modify: false, create: true, admin: false } });
    // The new-user form starts from them.
    await page.goto(`${server.url}/settings/users/new`);
    await expect(page.getByLabel('Scope')).toHaveValue('/shared');
    await expect(page.getByLabel('Delete files and folders')).not.toBeChecked();
    await expect(page.getByLabel('Language')).toHaveValue('fr');
  });

  test('the command runner card appears with shell execution and saves trimmed lines', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const plain = await launchServer();
    const plainPage = await pageAs({ username: 'admin', password: AdminPassword }, { server: plain });
    await plainPage.goto(`${plain.url}/settings/global`);
    await expect(plainPage.getByRole('heading', { name: 'Defaults for new users' })).toBeVisible();
    await expect(plainPage.getByRole('heading', { name: 'Command runner' })).toHaveCount(0);
    await expect(plainPage.getByLabel('Run commands', { exact: true })).toHaveCount(0);

    const server = await launchServer({ args: ['--enable-exec'] });
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.goto(`${server.url}/settings/global`);
    const runner = card(page, 'Command runner');
    await expect(runner.getByRole('textbox')).toHaveCount(10);
    await runner.getByLabel('before_copy').fill('  echo one  \n\n   \necho two');
    await runner.getByLabel('after_upload').fill('logger uploaded');
    await runner.getByRole('button', { name: 'Save' }).click();
    await expect(successToast(page, 'Settings updated')).toBeVisible();
    const saved = await storedSettings(server);
    expect(saved.commands.before_copy).toEqual(['echo one', 'echo two']);
    expect(saved.commands.after_upload).toEqual(['logger uploaded']);
    expect(saved.commands.after_delete).toEqual([]);
    // With execution on, the defaults offer the execute permission and commands.
    const defaults = card(page, 'Defaults for new users');
    await expect(defaults.getByLabel('Run commands', { exact: true })).toBeVisible();
    await defaults.getByLabel('Commands', { exact: true }).fill(' ls   git  ');
    await Promise.all([settingsSaved(page), defaults.getByRole('button', { name: 'Save' }).click()]);
    expect((await storedSettings(server)).defaults.commands).toEqual(['ls', 'git']);
  });

  test('a load failure shows the error page; a save failure a lasting error', async ({ adminPage }) => {
    await adminPage.route('**/api/settings', (route) => route.fulfill({ status: 500, body: '500 Internal Server Error' }));
    await adminPage.goto('settings/global');
    await expect(adminPage.getByRole('alert')).toHaveAttribute('data-status', '500');
    await expect(adminPage.getByRole('heading', { name: 'Something went really wrong.' })).toBeVisible();
    await adminPage.unroute('**/api/settings');

    await adminPage.route('**/api/settings', (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 400, body: '400 Bad Request (invalid theme)' }) : route.continue(),
    );
    await adminPage.reload();
    await card(adminPage, 'General').getByRole('button', { name: 'Save' }).click();
    const error = adminPage.locator('[data-sonner-toast][data-type="error"]');
    await expect(error).toContainText('400 Bad Request (invalid theme)');
    await adminPage.waitForTimeout(4500);
    await expect(error).toBeVisible();
  });

  test('ordinary users cannot open the global settings or the users screens', async ({ makeUser, pageAs }) => {
    const page = await pageAs(await makeUser());
    for (const path of ['settings/global', 'settings/users', 'settings/users/new']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/403$/);
      await expect(page.getByRole('heading', { name: "You don't have permission to access this." })).toBeVisible();
    }
  });
});
