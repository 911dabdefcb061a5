import type { Page } from '@playwright/test';
import { AdminPassword, expect, test, waitForApp, type BurrowServer } from './fixtures';

const toast = (page: Page, type: 'success' | 'error', text: string) => page.locator(`[data-sonner-toast][data-type="${type}"]:has-text("${text}")`);

async function share(server: BurrowServer, token: string, path: string, body: Record<string, string> = {}): Promise<{ hash: string; path: string }> {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return (await server.apiOk('POST', `/api/share${encoded}`, { token, body })).json();
}

test.describe('share management', () => {
  test('lists, copies and deletes the own links', async ({ server, root, makeUser, pageAs }) => {
    root.write(`${root.folder}/report final.pdf`, 'pdf');
    root.mkdir(`${root.folder}/photos`);
    const user = await makeUser({ scope: `/${root.folder}` });
    const token = await user.token();
    const permanent = await share(server, token, '/photos/');
    const expiring = await share(server, token, '/report final.pdf', { expires: '2', unit: 'hours' });

    const page = await pageAs(user);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await page.goto('settings/shares');
    await waitForApp(page);
    const table = page.getByRole('table', { name: 'Share management' });
    await expect(table.getByRole('columnheader')).toHaveText(['Path', 'Expires', 'Actions']);
    const photosRow = table.getByRole('row').filter({ hasText: '/photos/' });
    const reportRow = table.getByRole('row').filter({ hasText: '/report final.pdf' });
    await expect(photosRow).toContainText('permanent');
    await expect(reportRow).toContainText('in 2 hours');
    await expect(reportRow.getByRole('link', { name: '/report final.pdf' })).toHaveAttribute('href', `${server.url}/share/${expiring.hash}`);

    await reportRow.getByRole('button', { name: 'Copy link' }).click();
    await expect(toast(page, 'success', 'Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/share/${expiring.hash}`);

    await reportRow.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'success', 'Share deleted')).toBeVisible();
    await expect(reportRow).toHaveCount(0);
    await expect(photosRow).toBeVisible();
    const left = (await (await server.apiOk('GET', '/api/shares', { token })).json()) as Array<{ hash: string }>;
    expect(left.map((link) => link.hash)).toEqual([permanent.hash]);

    await photosRow.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText("You haven't shared anything yet.")).toBeVisible();
    await expect(table).toHaveCount(0);
  });

  test('copying falls back when the clipboard API refuses', async ({ server, root, makeUser, pageAs }) => {
    root.mkdir(`${root.folder}/docs`);
    const user = await makeUser({ scope: `/${root.folder}` });
    const link = await share(server, await user.token(), '/docs/');
    const page = await pageAs(user);
    await page.addInitScript(() => {
      // A browser that refuses the asynchronous clipboard even after the permission request.
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
      (window as unknown as { copied: string[] }).copied = [];
      document.addEventListener('copy', (event) => {
        (window as unknown as { copied: string[] }).copied.push(document.getSelection()?.toString() || (document.activeElement as HTMLTextAreaElement | null)?.value || '');
        void event;
      });
    });
    await page.goto('settings/shares');
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(toast(page, 'success', 'Link copied')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { copied: string[] }).copied)).toEqual([`${server.url}/share/${link.hash}`]);
  });

  test('admins see every link with its owner', async ({ server, root, makeUser, adminPage }) => {
    root.mkdir(`${root.folder}/mine`);
    root.mkdir(`${root.folder}/theirs`);
    const owner = await makeUser({ scope: `/${root.folder}` });
    const theirs = await share(server, await owner.token(), '/theirs/');
    const mine = await share(server, await server.adminToken(), `/${root.folder}/mine/`);
    await adminPage.goto('settings/shares');
    const table = adminPage.getByRole('table', { name: 'Share management' });
    await expect(table.getByRole('columnheader')).toHaveText(['Path', 'Expires', 'Username', 'Actions']);
    await expect(table.getByRole('row').filter({ has: adminPage.locator(`a[href$="/share/${theirs.hash}"]`) })).toContainText(owner.username);
    await expect(table.getByRole('row').filter({ has: adminPage.locator(`a[href$="/share/${mine.hash}"]`) })).toContainText('admin');
    // Tidy up: the admin deletes both from here.
    for (const hash of [theirs.hash, mine.hash]) {
      await table.getByRole('row').filter({ has: adminPage.locator(`a[href$="/share/${hash}"]`) }).getByRole('button', { name: 'Delete' }).click();
      await expect(adminPage.locator(`a[href$="/share/${hash}"]`)).toHaveCount(0);
    }
  });

  test('a failed deletion keeps the row and shows a lasting error', async ({ server, root, makeUser, pageAs }) => {
    root.mkdir(`${root.folder}/kept`);
    const user = await makeUser({ scope: `/${root.folder}` });
    await share(server, await user.token(), '/kept/');
    const page = await pageAs(user);
    await page.route('**/api/share/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: '500 Internal Server Error' }) : route.continue(),
    );
    await page.goto('settings/shares');
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'error', '500 Internal Server Error')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '/kept/' })).toBeVisible();
  });

  test('without the share permission the page shows the forbidden error', async ({ makeUser, pageAs }) => {
    const page = await pageAs(await makeUser({ perm: { share: false } }));
    await page.goto('settings/shares');
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '403');
    await expect(page.getByRole('heading', { name: "You don't have permission to access this." })).toBeVisible();
  });

  test('the public link includes the base URL', async ({ launchServer, pageAs }) => {
    test.setTimeout(60_000);
    const server = await launchServer({ baseURL: '/burrow' });
    const token = await server.adminToken();
    await server.apiOk('POST', '/api/resources/based/', { token });
    const link = await share(server, token, '/based/');
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await page.goto(`${server.url}/settings/shares`);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(toast(page, 'success', 'Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.origin}/burrow/share/${link.hash}`);
  });
});
