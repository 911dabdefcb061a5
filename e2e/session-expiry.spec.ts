import { expect, test, waitForApp } from './fixtures';

test('an expired session logs out with the inactivity reason', async ({ page, launchServer }) => {
  test.setTimeout(45_000);
  const server = await launchServer({ tokenExpiration: '5s' });
  const user = await server.createUser();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${server.url}/files/`);
  await waitForApp(page);
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const expiry = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).exp as number;
  expect(expiry * 1000 - Date.now()).toBeLessThanOrEqual(6_000);

  await expect(page).toHaveURL(/\/login\?logout-reason=inactivity$/, { timeout: 15_000 });
  await expect(page.getByRole('status')).toHaveText('You have been logged out due to inactivity.');
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
});
