import { expect, test, waitForApp } from './fixtures';

const successToast = (text: string) => `[data-sonner-toast][data-type="success"]:has-text("${text}")`;

test.describe('profile settings', () => {
  test('changing the language switches the interface at once, and back', async ({ server, makeUser, pageAs }) => {
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto('settings/profile');
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Profile settings' })).toBeVisible();

    await page.getByLabel('Language').selectOption('de');
    const saved = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith(`/api/users/${user.id}`));
    await page.getByRole('button', { name: 'Save' }).click();
    // The profile writes exactly its own preferences, nothing else of the record.
    expect((await saved).postDataJSON()).toMatchObject({
      what: 'user',
      which: ['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme'],
      data: { id: user.id, locale: 'de' },
    });
    await expect(page.getByRole('heading', { name: 'Profileinstellungen' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Meine Dateien' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const token = await user.token();
    const stored = await (await server.apiOk('GET', `/api/users/${user.id}`, { token })).json();
    expect(stored.locale).toBe('de');

    // It survives a reload (the renewed token carries it) and can be switched back.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profileinstellungen' })).toBeVisible();
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('heading', { name: 'Profile settings' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator(successToast('Settings updated'))).toBeVisible();
  });

  test('preferences are saved and shown again', async ({ server, makeUser, pageAs }) => {
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto('settings/profile');
    await page.getByLabel('Hide dotfiles').check();
    await page.getByLabel('Open files and folders with a single click').check();
    await page.getByLabel('Show exact dates and times').check();
    await page.getByLabel('Editor theme').selectOption('monokai');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator(successToast('Settings updated'))).toBeVisible();
    const stored = await (await server.apiOk('GET', `/api/users/${user.id}`, { token: await user.token() })).json();
    expect(stored).toMatchObject({ hideDotfiles: true, singleClick: true, dateFormat: true, aceEditorTheme: 'monokai', redirectAfterCopyMove: true });

    await page.reload();
    await expect(page.getByLabel('Hide dotfiles')).toBeChecked();
    await expect(page.getByLabel('Show exact dates and times')).toBeChecked();
    await expect(page.getByLabel('Editor theme')).toHaveValue('monokai');
    // The editor themes are grouped as light and dark.
    await expect(page.locator('#profile-editor-theme optgroup')).toHaveCount(2);
    expect(await page.locator('#profile-editor-theme option').count()).toBeGreaterThan(40);
  });

  test('changing the password: fields compare, nothing is sent until they match, then log in with the new one', async ({
    browser,
    server,
    makeUser,
    pageAs,
  }) => {
    test.setTimeout(60_000);
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto('settings/profile');
    await waitForApp(page);
    const passwordWrites: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/api/users/')) passwordWrites.push(request.postData() ?? '');
    });
    const card = page.locator('form', { has: page.getByRole('heading', { name: 'Change password' }) });
    const fresh = card.getByLabel('New password', { exact: true });
    const confirmation = card.getByLabel('Confirm the new password');
    const newPassword = 'a-brand-new-password-77';

    await card.getByLabel('Current password').fill(user.password);
    await fresh.fill(newPassword);
    await confirmation.fill(newPassword + 'x');
    await expect(confirmation).toHaveClass(/input--mismatch/);
    await expect(fresh).toHaveClass(/input--mismatch/);
    await expect(card.getByText("The passwords don't match.")).toBeVisible();
    // The border colour changes with a short transition: read it once the transition is over.
    const settledBorder = () =>
      confirmation.evaluate(async (element) => {
        await Promise.all(element.getAnimations().map((animation) => animation.finished));
        return getComputedStyle(element).borderColor;
      });
    const red = await settledBorder();
    await card.getByRole('button', { name: 'Update password' }).click();
    await page.waitForTimeout(300);
    expect(passwordWrites).toEqual([]);

    await confirmation.fill(newPassword);
    await expect(confirmation).toHaveClass(/input--match/);
    await expect(card.getByText('The passwords match.')).toBeVisible();
    const green = await settledBorder();
    expect(green).not.toBe(red);

    await card.getByRole('button', { name: 'Update password' }).click();
    await expect(page.locator(successToast('Password updated'))).toBeVisible();
    expect(passwordWrites).toHaveLength(1);
    expect(JSON.parse(passwordWrites[0]!)).toMatchObject({ which: ['password'], current_password: user.password, data: { password: newPassword } });
    await expect(fresh).toHaveValue('');
    await expect(confirmation).toHaveValue('');

    // The old tokens were revoked; this page took over the fresh one and keeps working.
    await page.getByRole('link', { name: 'My files' }).click();
    await expect(page).toHaveURL(/\/files\/$/);
    await expect(page.getByRole('heading', { name: 'Log in' })).toHaveCount(0);

    expect((await server.api('POST', '/api/login', { body: { username: user.username, password: user.password } })).status).toBe(403);
    const context = await browser.newContext({ baseURL: server.url + '/' });
    const login = await context.newPage();
    await login.goto('login');
    await login.getByLabel('Username').fill(user.username);
    await login.getByLabel('Password').fill(newPassword);
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect(login).toHaveURL(/\/files\/$/);
    await context.close();
  });

  test('a wrong current password is refused with a lasting error', async ({ makeUser, pageAs }) => {
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto('settings/profile');
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('another-password-123');
    await page.getByLabel('Confirm the new password').fill('another-password-123');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.locator('[data-sonner-toast][data-type="error"]')).toContainText('the current password is incorrect');
    // The typed passwords stay so the user can correct the current one.
    await expect(page.getByLabel('New password', { exact: true })).toHaveValue('another-password-123');
  });

  test('a locked password hides the password card', async ({ makeUser, pageAs }) => {
    const page = await pageAs(await makeUser({ lockPassword: true }));
    await page.goto('settings/profile');
    await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Change password' })).toHaveCount(0);
    await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  });
});
