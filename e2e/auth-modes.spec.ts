import { expect, test } from './fixtures';
import { startFakeCaptcha } from './support/fake-captcha';

test.describe('authentication methods', () => {
  test('without authentication the app opens logged in, with nothing to log out of', async ({ page, launchServer }) => {
    const server = await launchServer({ settings: { authMethod: 'noauth' } });
    await page.goto(`${server.url}/files/`);
    await expect(page.getByRole('link', { name: 'admin' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await page.goto(`${server.url}/login`);
    await expect(page).toHaveURL(`${server.url}/files/`);
  });

  test('behind an authenticating proxy the header names the user', async ({ browser, launchServer }) => {
    const server = await launchServer({ settings: { authMethod: 'proxy' }, args: ['--trusted-proxies', '127.0.0.1'] });
    const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-User': 'proxied-person' } });
    const page = await context.newPage();
    await page.goto(`${server.url}/files/`);
    await expect(page.getByRole('link', { name: 'proxied-person' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await context.close();
  });

  test('with reCAPTCHA the app waits for the script, renders the widget and sends its answer', async ({ page, launchServer }) => {
    const captcha = await startFakeCaptcha({ siteKey: 'site-key-1', secret: 'secret-1' });
    try {
      const server = await launchServer({
        env: { BURROW_RECAPTCHA_HOST: captcha.url, BURROW_RECAPTCHA_KEY: 'site-key-1', BURROW_RECAPTCHA_SECRET: 'secret-1' },
      });
      // Logging in through the API needs a solved captcha too, so the user comes from the command line.
      const user = { username: 'captcha-user', password: 'captcha-user-password' };
      server.cli('users', 'add', user.username, user.password);
      await page.goto(`${server.url}/login`);
      const widget = page.getByRole('button', { name: 'I am not a robot' });
      await expect(widget).toBeVisible();
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);

      // Unsolved: refused on the spot, without asking the server.
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('alert')).toHaveText('Wrong credentials');
      expect(captcha.verifications).toEqual([]);

      await widget.click();
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page).toHaveURL(`${server.url}/files/`);
      expect(captcha.verifications).toEqual(['solved-site-key-1']);
    } finally {
      await captcha.close();
    }
  });
});
