import net from 'node:net';
import { test, expect, AdminPassword } from './fixtures';
import { seriousViolations } from './support/axe';
import { startTestProvider, TestClient, type TestProvider } from '../server/src/modules/oidc/oidc.test-support';

/** A port nothing listens on yet: the provider takes it once the server's callback URL is known. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let provider: TestProvider | undefined;
test.afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

test('signs in through the OpenID provider from the login page and lands in the files screen', async ({ page, launchServer }, testInfo) => {
  const port = await freePort();
  // Configured through the environment; the provider is asked only when someone signs in.
  const server = await launchServer({
    env: {
      BURROW_OIDC_ISSUER: `http://127.0.0.1:${port}`,
      BURROW_OIDC_CLIENT_ID: TestClient.id,
      BURROW_OIDC_CLIENT_SECRET: TestClient.secret,
      BURROW_OIDC_BUTTON_LABEL: 'Sign in with Test ID',
    },
  });
  provider = await startTestProvider({ port, redirectUris: [`${server.origin}${server.baseURL}/api/oidc/callback`] });
  provider.accounts.set('sub-erin', { preferred_username: 'erin', email: 'erin@example.test' });

  await page.goto(`${server.url}/login`);
  const button = page.getByRole('link', { name: 'Sign in with Test ID' });
  await expect(button).toBeVisible();
  await expect(page.getByLabel('Username')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('login-with-sso.png') });

  await button.click();
  // The provider's own login form.
  await page.locator('input[name="login"]').fill('sub-erin');
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();

  await expect(page).toHaveURL(/\/files\//);
  await expect(page.getByRole('main')).toBeVisible();
  expect(page.url()).not.toMatch(/eyJ/);
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  expect(JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).user.username).toBe('erin');
});

test('the global settings show the single sign-on card, the secret never shown', async ({ page, launchServer }, testInfo) => {
  const server = await launchServer();
  const token = await server.login('admin', AdminPassword);
  const put = await fetch(`${server.url}/api/oidc/settings`, { method: 'GET', headers: { 'x-auth': token } });
  const current = await put.json();
  const { clientSecretSet: _set, locked: _locked, ...fields } = current;
  const saved = await fetch(`${server.url}/api/oidc/settings`, {
    method: 'PUT',
    headers: { 'x-auth': token, 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, enabled: true, issuer: 'https://sso.example.com/realms/main', clientId: 'burrow', clientSecret: 'a-secret-value', groupsClaim: 'groups', adminGroup: 'burrow-admins' }),
  });
  expect(saved.status).toBe(200);

  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(AdminPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/files\//);
  await page.goto(`${server.url}/settings/global`);
  const card = page.locator('form', { has: page.getByRole('heading', { name: 'Single sign-on (OpenID Connect)' }) });
  await expect(card).toBeVisible();
  await expect(card.getByLabel('Issuer URL')).toHaveValue('https://sso.example.com/realms/main');
  await expect(card.getByLabel('Client secret')).toHaveValue('');
  await expect(page.getByText('a-secret-value')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await card.screenshot({ path: testInfo.outputPath('settings-sso-card.png') });
});
