import { expect, test } from './fixtures';

test.describe('signup', () => {
  test('is not offered when self-registration is off', async ({ page }) => {
    await page.goto('login');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign up' })).toHaveCount(0);
    await expect(page.getByLabel('Confirm password')).toHaveCount(0);
  });

  test('creates the account, logs in and goes to the redirect target', async ({ page, launchServer }) => {
    const server = await launchServer({ settings: { signup: 'true' } });
    await page.goto(`${server.url}/files/`);
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveTitle('Sign up - Burrow');

    await page.getByLabel('Username').fill('newcomer');
    await page.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('alert')).toHaveText("Passwords don't match");

    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('alert')).toHaveText('The password must be at least 12 characters long');

    await page.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
    await page.getByLabel('Confirm password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(`${server.url}/files/`);
    await expect(page.getByRole('link', { name: 'newcomer' })).toBeVisible();
    // The account exists on the server with that password.
    expect(await server.login('newcomer', 'a-long-enough-password')).toMatch(/\./);
  });

  test('reports a username that is taken', async ({ page, launchServer }) => {
    const server = await launchServer();
    await server.updateSettings((settings) => {
      settings.signup = true;
    });
    await page.goto(`${server.url}/login?mode=signup`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('a-long-enough-password');
    await page.getByLabel('Confirm password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('alert')).toHaveText('Username already taken');

    // Turned off again through the settings API: the next page load offers no signup.
    await server.updateSettings((settings) => {
      settings.signup = false;
    });
    await page.reload();
    await expect(page.getByLabel('Confirm password')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign up' })).toHaveCount(0);
  });

  test('the login page links to the external chat unless external links are disabled', async ({ page, launchServer }) => {
    const chat = 'https://chat.example.org/vpn';
    const server = await launchServer({ env: { BURROW_EXTERNAL_CHAT_URL: chat } });
    await page.goto(`${server.url}/login`);
    const link = page.getByRole('link', { name: /Chat with us/ });
    await expect(link).toHaveAttribute('href', chat);
    await expect(link).toContainText('30 days');

    await server.updateSettings((settings) => {
      settings.branding.disableExternal = true;
    });
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Chat with us/ })).toHaveCount(0);
  });
});
