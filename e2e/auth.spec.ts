import { AdminPassword, expect, test, waitForApp } from './fixtures';

test.describe('authentication', () => {
  test('a protected page without a session goes to the login page with the redirect query', async ({ page }) => {
    await page.goto('files/some/folder/?x=1');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/files/some/folder/?x=1');
    await expect(page.getByRole('heading', { name: 'Burrow' })).toBeVisible();
    await expect(page).toHaveTitle('Log in - Burrow');
  });

  test('logging in leads to the redirect target', async ({ page, server, root }) => {
    root.write(`${root.folder}/hello.txt`, 'hi');
    await page.goto(`files/${root.folder}/`);
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(AdminPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(page.getByRole('link', { name: /hello\.txt/ })).toBeVisible();
    await expect(page).toHaveTitle('Files - Burrow');
    // The token is kept in storage and in the cookie the server reads for downloads.
    const cookies = await page.context().cookies();
    const token = await page.evaluate(() => localStorage.getItem('jwt'));
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cookies.find((cookie) => cookie.name === 'auth')?.value).toBe(token);
  });

  test('wrong credentials show a message and keep the visitor on the login page', async ({ page }) => {
    await page.goto('login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong credentials');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a logged-in user opening the login page goes to the files', async ({ adminPage, server }) => {
    await adminPage.goto('login');
    await expect(adminPage).toHaveURL(`${server.url}/files/`);
  });

  test('logout clears the cookie and storage and revokes the token', async ({ page, server, makeUser }) => {
    const user = await makeUser();
    await page.goto('login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`${server.url}/files/`);
    await waitForApp(page);
    const token = await page.evaluate(() => localStorage.getItem('jwt'));
    expect(token).toBeTruthy();
    expect((await server.api('GET', '/api/resources/', { token: token! })).status).toBe(200);

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'auth')).toBeUndefined();
    await expect.poll(async () => (await server.api('GET', '/api/resources/', { token: token! })).status).toBe(401);

    // Back to a protected page: the session is really gone.
    await page.goto('files/');
    await expect(page).toHaveURL(/\/login\?redirect=%2Ffiles%2F$/);
  });

  test('a stored token that no longer works starts a logged-out session', async ({ browser, server }) => {
    const context = await browser.newContext({
      storageState: { cookies: [], origins: [{ origin: server.origin, localStorage: [{ name: 'jwt', value: 'aaa.bbb.ccc' }] }] },
    });
    const page = await context.newPage();
    await page.goto(server.url + '/files/');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
    await context.close();
  });
});
