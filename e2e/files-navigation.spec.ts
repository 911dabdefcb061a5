import fs from 'node:fs';
import { AdminPassword, expect, test } from './fixtures';
import { action, filesUser, itemBox, itemLink, listing, openFolder, shownNames } from './files-helpers';

test.describe('files screen: navigation, views and sorting', () => {
  test('folders open by double click, Enter or a single click with the preference; breadcrumbs lead back', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/a/b/c/d/e/deep.txt`, 'deep');
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);

    // A single click selects, a double click opens.
    await itemLink(page, 'a').click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/`);
    await itemLink(page, 'a').dblclick();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/a/`);
    await expect(page.getByRole('heading', { level: 1, name: 'a' })).toBeVisible();

    // Enter on the focused item opens it.
    await itemLink(page, 'b').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/a/b/`);
    await itemLink(page, 'c').dblclick();
    await itemLink(page, 'd').dblclick();
    await itemLink(page, 'e').dblclick();
    await expect(itemLink(page, 'deep.txt')).toBeVisible();

    // More than three segments: the last three, led by an ellipsis that opens the folder before them.
    const crumbs = page.getByRole('navigation', { name: 'Location' });
    await expect(crumbs.getByRole('link')).toHaveText(['', '…', 'c', 'd', 'e']);
    await expect(crumbs.getByRole('link', { name: 'e', exact: true })).toHaveAttribute('aria-current', 'page');
    await crumbs.getByRole('link', { name: 'b', exact: true }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/a/b/`);
    await expect(crumbs.getByRole('link')).toHaveText(['', root.folder, 'a', 'b']);
    await crumbs.getByRole('link', { name: 'a', exact: true }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/a/`);
    await crumbs.getByRole('link', { name: 'Home folder' }).click();
    await expect(page).toHaveURL(`${server.url}/files/`);
    await expect(page.getByRole('heading', { level: 1, name: 'My files' })).toBeVisible();
    // The root holds every test's folder and the listing is windowed: this one may be far down.
    await expect(listing(page)).toBeVisible();
  });

  test('with the single-click preference a click opens', async ({ server, makeUser, pageAs, root }) => {
    root.mkdir(`${root.folder}/inner`);
    const page = await pageAs(await filesUser(server, makeUser, { singleClick: true }));
    await openFolder(page, root.folder);
    await itemLink(page, 'inner').click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/inner/`);
    await expect(page.getByText('This folder is empty.')).toBeVisible();
  });

  test('a file opens under its own route with its facts and a download link', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/data.bin`, Buffer.alloc(1536, 7));
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    // Sizes are in binary units.
    await expect(listing(page).getByRole('row', { name: /data\.bin/ })).toContainText('1.5 KiB');
    await itemLink(page, 'data.bin').dblclick();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/data.bin`);
    // The preview takes the page, its bar in place of the breadcrumbs, with the file's facts.
    const preview = page.getByRole('region', { name: 'data.bin' });
    await expect(preview.getByRole('heading', { level: 1, name: 'data.bin' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Location' })).toBeHidden();
    await expect(preview.getByRole('definition').first()).toHaveText('1.5 KiB');
    await expect(preview.getByRole('link', { name: 'Download' }).first()).toHaveAttribute('href', `/api/raw/${root.folder}/data.bin`);
    await preview.getByRole('link', { name: 'Parent folder' }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: root.folder })).toHaveAttribute('aria-current', 'page');
  });

  test('loading, empty, missing, forbidden and offline states', async ({ server, makeUser, pageAs, root }) => {
    root.mkdir(`${root.folder}/empty`);
    root.write(`${root.folder}/secret/x.txt`, 'x');
    const user = await filesUser(server, makeUser);
    await server.apiOk('PUT', `/api/users/${user.id}`, {
      token: await server.adminToken(),
      body: {
        what: 'user',
        which: ['rules'],
        current_password: AdminPassword,
        data: { id: user.id, rules: [{ regex: false, allow: false, path: `/${root.folder}/secret`, regexp: { raw: '' } }] },
      },
    });
    const page = await pageAs(user);

    // A slow listing shows the loading indicator first.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/resources/${root.folder}/empty/*`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`files/${root.folder}/empty/`);
    await expect(page.locator('.files__loading[role="status"]')).toBeVisible();
    release();
    await expect(page.getByText('This folder is empty.')).toBeVisible();
    await page.unroute(`**/api/resources/${root.folder}/empty/*`);

    await page.goto(`files/${root.folder}/nothing-here/`);
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '404');
    await page.goto(`files/${root.folder}/secret/`);
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '403');
    await page.route('**/api/resources/**', (route) => route.abort('connectionrefused'));
    await page.goto(`files/${root.folder}/`);
    await expect(page.getByRole('alert')).toHaveAttribute('data-status', '0');
  });

  test('the view cycles list, mosaic, gallery and stays after a reload', async ({ server, makeUser, pageAs, root }) => {
    root.mkdir(`${root.folder}/album`);
    root.copyFixture('media/photo.jpg', `${root.folder}/photo.jpg`);
    root.write(`${root.folder}/notes.txt`, 'n');
    const user = await filesUser(server, makeUser);
    const page = await pageAs(user);
    const switchView = async () => {
      const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith(`/api/users/${user.id}`));
      await action(page, 'Switch view').click();
      const response = await saved;
      expect(response.status()).toBe(200);
      return response.request().postDataJSON() as { which: string[]; data: { viewMode: string } };
    };
    await openFolder(page, root.folder);
    await expect(page.locator('.listing--list')).toBeVisible();
    await expect(listing(page).getByRole('columnheader')).toHaveText(['Name', 'Size', 'Modified']);

    expect(await switchView()).toMatchObject({ which: ['viewMode'], data: { viewMode: 'mosaic' } });
    await expect(page.locator('.listing--mosaic')).toBeVisible();
    await expect(itemLink(page, 'notes.txt')).toBeVisible();
    await page.reload();
    await expect(page.locator('.listing--mosaic')).toBeVisible();

    expect((await switchView()).data.viewMode).toBe('mosaic gallery');
    await expect(page.locator('.listing--mosaic-gallery')).toBeVisible();
    // Pictures show their thumbnail, loaded lazily from the preview endpoint.
    const thumbnail = itemBox(page, 'photo.jpg').locator('img');
    await expect(thumbnail).toHaveAttribute('loading', 'lazy');
    await expect(thumbnail).toHaveAttribute('src', new RegExp(`/api/preview/thumb/${root.folder}/photo\\.jpg\\?inline=true&key=\\d+$`));
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await page.reload();
    await expect(page.locator('.listing--mosaic-gallery')).toBeVisible();

    expect((await switchView()).data.viewMode).toBe('list');
    await expect(page.locator('.listing--list')).toBeVisible();
    await page.reload();
    await expect(page.locator('.listing--list')).toBeVisible();
  });

  test('sorting by name, size and modified, folders first, saved to the profile', async ({ server, makeUser, pageAs, root }) => {
    const day = 24 * 3600;
    const now = Date.now() / 1000;
    const files: Array<[string, number, number]> = [
      ['alpha.txt', 300, now - 3 * day],
      ['beta.txt', 100, now - 1 * day],
      ['Gamma.txt', 200, now - 2 * day],
    ];
    for (const [name, size, time] of files) {
      const full = root.write(`${root.folder}/${name}`, Buffer.alloc(size));
      fs.utimesSync(full, time, time);
    }
    root.mkdir(`${root.folder}/zeta`);
    root.mkdir(`${root.folder}/Eta`);
    const user = await filesUser(server, makeUser);
    const page = await pageAs(user);
    await openFolder(page, root.folder);
    const header = (name: string) => listing(page).getByRole('columnheader', { name });

    await expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(await shownNames(page)).toEqual(['Eta', 'zeta', 'alpha.txt', 'beta.txt', 'Gamma.txt']);

    // The active column flips.
    await header('Name').getByRole('button').click();
    await expect(header('Name')).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => shownNames(page)).toEqual(['zeta', 'Eta', 'Gamma.txt', 'beta.txt', 'alpha.txt']);

    await header('Size').getByRole('button').click();
    await expect(header('Size')).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => (await shownNames(page)).slice(2)).toEqual(['alpha.txt', 'Gamma.txt', 'beta.txt']);
    await header('Size').getByRole('button').click();
    await expect(header('Size')).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(async () => (await shownNames(page)).slice(2)).toEqual(['beta.txt', 'Gamma.txt', 'alpha.txt']);

    await header('Modified').getByRole('button').click();
    await expect(header('Modified')).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => (await shownNames(page)).slice(2)).toEqual(['beta.txt', 'Gamma.txt', 'alpha.txt']);
    // The first click's save may still be on its way: wait for the one that turns the order round.
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'PUT' &&
        response.url().endsWith(`/api/users/${user.id}`) &&
        (response.request().postDataJSON() as { data?: { sorting?: { asc?: boolean } } }).data?.sorting?.asc === true,
    );
    await header('Modified').getByRole('button').click();
    expect((await saved).request().postDataJSON()).toMatchObject({ which: ['sorting'], data: { sorting: { by: 'modified', asc: true } } });
    await expect.poll(async () => (await shownNames(page)).slice(2)).toEqual(['alpha.txt', 'Gamma.txt', 'beta.txt']);

    // Saved: the reloaded page (and the stored profile) keep oldest first.
    await page.reload();
    await expect(header('Modified')).toHaveAttribute('aria-sort', 'ascending');
    expect((await shownNames(page)).slice(2)).toEqual(['alpha.txt', 'Gamma.txt', 'beta.txt']);
    const stored = (await (await server.apiOk('GET', `/api/users/${user.id}`, { token: await server.adminToken() })).json()) as { sorting: unknown };
    expect(stored.sorting).toEqual({ by: 'modified', asc: true });

    // The mosaics sort with buttons.
    await action(page, 'Switch view').click();
    const sortBar = page.getByRole('group', { name: 'Sorting' });
    await expect(sortBar.getByRole('button', { name: /Modified/ })).toHaveAttribute('aria-pressed', 'true');
    await sortBar.getByRole('button', { name: /^Name/ }).click();
    await expect(sortBar.getByRole('button', { name: /^Name/ })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => shownNames(page)).toEqual(['Eta', 'zeta', 'alpha.txt', 'beta.txt', 'Gamma.txt']);
  });

  test('dates follow the dateFormat preference', async ({ server, makeUser, pageAs, root }) => {
    const full = root.write(`${root.folder}/old.txt`, 'x');
    fs.utimesSync(full, new Date('2021-03-04T10:00:00Z'), new Date('2021-03-04T10:00:00Z'));
    const user = await filesUser(server, makeUser);
    const page = await pageAs(user);
    await openFolder(page, root.folder);
    const row = listing(page).getByRole('row', { name: /old\.txt/ });
    await expect(row).toContainText(/years? ago/);
    await server.apiOk('PUT', `/api/users/${user.id}`, { token: await user.token(), body: { what: 'user', which: ['dateFormat'], data: { id: user.id, dateFormat: true } } });
    const absolute = await pageAs(user);
    await openFolder(absolute, root.folder);
    await expect(listing(absolute).getByRole('row', { name: /old\.txt/ })).toContainText('2021');
  });
});
