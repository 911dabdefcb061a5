import { expect, test } from './fixtures';

test('everything works below a base URL, lazy chunks included', async ({ page, launchServer }) => {
  const server = await launchServer({ baseURL: '/burrow' });
  const user = await server.createUser();
  const failures: string[] = [];
  const assets: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() >= 400) failures.push(`${response.status()} ${url.pathname}`);
    if (/\.(js|css|svg)$/.test(url.pathname)) assets.push(url.pathname);
  });
  page.on('requestfailed', (request) => failures.push(`failed ${request.url()}`));

  await page.goto(`${server.url}/files/`);
  await expect(page).toHaveURL(`${server.url}/login?redirect=%2Ffiles%2F`);
  await expect(page.locator('img.login__logo')).toHaveAttribute('src', '/burrow/static/img/logo.svg');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${server.url}/files/`);
  const cookie = (await page.context().cookies()).find((entry) => entry.name === 'auth');
  expect(cookie?.path).toBe('/burrow');

  // A lazily loaded dialog and screen chunk.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('below base');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(`${server.url}/files/below%20base/`);
  await page.getByRole('link', { name: user.username }).click();
  await expect(page).toHaveURL(`${server.url}/settings/profile`);
  await expect(page.getByRole('heading', { name: 'Profile settings' })).toBeVisible();

  expect(failures).toEqual([]);
  expect(assets.length).toBeGreaterThan(5);
  expect(assets.filter((asset) => !asset.startsWith('/burrow/static/'))).toEqual([]);
});
