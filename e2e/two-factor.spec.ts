import { generate } from 'otplib';
import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

/** The code of `secret` a number of 30-second steps from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test.describe('two-factor and API tokens', () => {
  test('enrol from the profile, sign in again with password and code, and use a new API token', async ({ server, makeUser, page }) => {
    test.setTimeout(120_000);
    const user = await makeUser();
    // Sign in through the login page, as a person would.
    await page.goto(server.url + '/login');
    await waitForApp(page);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/files\//);

    await page.goto(server.url + '/settings/profile');
    await waitForApp(page);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Two-factor authentication' }) });
    await expect(card.getByText('Two-factor authentication is off.')).toBeVisible();
    await card.getByRole('button', { name: 'Set up' }).click();

    // The secret is read from the page, as someone typing it into an app would.
    const secretText = page.locator('.two-factor__secret');
    await expect(secretText).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
    const secret = (await secretText.innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText('Wrong code')).toBeVisible();
    await page.getByLabel('Code from the app').fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.locator('.two-factor__codes li');
    await expect(codes).toHaveCount(10);
    // The toast of the wrong code above is the app's own, checked elsewhere.
    expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' })).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('Two-factor authentication is on. Recovery codes left: 10.')).toBeVisible();

    // Log out, then in again: the password alone is not enough.
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();
    await page.goto(server.url + '/login');
    await waitForApp(page);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Verification code').fill(await codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/files\//);

    // A read-only API token, shown once, that works with fetch and cannot write.
    await page.goto(server.url + '/settings/profile');
    await waitForApp(page);
    await page.getByRole('button', { name: 'New token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('backup script');
    await expect(dialog.getByLabel('Read only')).toBeChecked();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const tokenField = dialog.getByLabel('backup script');
    await expect(tokenField).toHaveValue(/^burrow_pat_/);
    expect(await seriousViolations(page)).toEqual([]);
    const token = await tokenField.inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('cell', { name: 'backup script' })).toBeVisible();

    const answers = await page.evaluate(async (bearer) => {
      const headers = { authorization: `Bearer ${bearer}` };
      const list = await fetch('/api/resources/', { headers, credentials: 'omit' });
      const write = await fetch('/api/resources/from-token.txt', { method: 'POST', headers, body: 'x', credentials: 'omit' });
      return { list: list.status, write: write.status };
    }, token);
    expect(answers).toEqual({ list: 200, write: 403 });

    // Revoked, it is refused.
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText('No tokens yet.')).toBeVisible();
    const afterRevoke = await page.evaluate(async (bearer) => (await fetch('/api/resources/', { headers: { authorization: `Bearer ${bearer}` }, credentials: 'omit' })).status, token);
    expect(afterRevoke).toBe(401);
  });
});
