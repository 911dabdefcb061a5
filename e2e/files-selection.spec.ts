import { expect, test } from './fixtures';
import { action, expectSelected, filesUser, itemBox, itemLink, listing, openFolder } from './files-helpers';

const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

test.describe('files screen: selection and keyboard', () => {
  test('click, ctrl/meta-click, shift-click, Escape and Ctrl+A', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);

    await itemLink(page, 'b.txt').click();
    await expectSelected(page, ['b.txt'], ['a.txt', 'c.txt']);
    await itemLink(page, 'c.txt').click();
    await expectSelected(page, ['c.txt'], ['b.txt']);

    await itemLink(page, 'e.txt').click({ modifiers: ['ControlOrMeta'] });
    await expectSelected(page, ['c.txt', 'e.txt'], ['d.txt']);
    await itemLink(page, 'c.txt').click({ modifiers: ['ControlOrMeta'] });
    await expectSelected(page, ['e.txt'], ['c.txt']);

    // Shift selects from the anchor (the last item clicked without shift), in either direction.
    await itemLink(page, 'b.txt').click();
    await itemLink(page, 'd.txt').click({ modifiers: ['Shift'] });
    await expectSelected(page, ['b.txt', 'c.txt', 'd.txt'], ['a.txt', 'e.txt']);
    await itemLink(page, 'a.txt').click({ modifiers: ['Shift'] });
    await expectSelected(page, ['a.txt', 'b.txt'], ['c.txt', 'd.txt']);

    await page.keyboard.press('Escape');
    await expectSelected(page, [], names);
    await page.keyboard.press('ControlOrMeta+a');
    await expectSelected(page, names);
    await expect(action(page, 'Download')).toContainText('5');
    await page.keyboard.press('Escape');
    await expectSelected(page, [], names);
  });

  test('arrow keys move and extend the selection; Space toggles', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    await itemLink(page, 'a.txt').click();
    await page.keyboard.press('ArrowDown');
    await expectSelected(page, ['b.txt'], ['a.txt']);
    await expect(itemLink(page, 'b.txt')).toBeFocused();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await expectSelected(page, ['b.txt', 'c.txt', 'd.txt'], ['a.txt', 'e.txt']);
    await page.keyboard.press('End');
    await expectSelected(page, ['e.txt'], ['d.txt']);
    await page.keyboard.press('Space');
    await expectSelected(page, [], ['e.txt']);
    await page.keyboard.press('Space');
    await expectSelected(page, ['e.txt']);
  });

  test('multiple-selection mode toggles with plain clicks and its banner clears it', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    await action(page, 'Select multiple').click();
    await expect(action(page, 'Select multiple')).toHaveAttribute('aria-pressed', 'true');
    const banner = page.locator('.selection-banner');
    await expect(banner).toContainText('Multiple selection');
    await itemLink(page, 'a.txt').click();
    await itemLink(page, 'c.txt').click();
    await itemLink(page, 'e.txt').click();
    await itemLink(page, 'c.txt').click();
    await expectSelected(page, ['a.txt', 'e.txt'], ['b.txt', 'c.txt', 'd.txt']);
    await expect(banner).toContainText('2 selected');
    await banner.getByRole('button', { name: 'Clear' }).click();
    await expect(banner).toHaveCount(0);
    await expectSelected(page, [], names);
    await expect(action(page, 'Select multiple')).toHaveAttribute('aria-pressed', 'false');
  });

  test('a 500 ms press selects and turns multiple selection on; moving away cancels it', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const pressOn = async (name: string, moveBy = 0) => {
      const box = (await itemBox(page, name).boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + box.height / 2);
      await page.mouse.down();
      if (moveBy) await page.mouse.move(box.x + 20 + moveBy, box.y + box.height / 2, { steps: 4 });
      await page.waitForTimeout(650);
      await page.mouse.up();
    };
    // Moving more than 10 px first cancels the press: the release is an ordinary click, which
    // selects the one item without turning multiple selection on.
    await pressOn('b.txt', 30);
    await page.waitForTimeout(100);
    await expectSelected(page, ['b.txt'], ['a.txt', 'c.txt']);
    await expect(page.locator('.selection-banner')).toHaveCount(0);
    await pressOn('c.txt', 0);

    // Held still for 500 ms: the item is added, multiple selection is on, and the release does
    // not toggle anything.
    await expectSelected(page, ['b.txt', 'c.txt'], ['a.txt', 'd.txt']);
    await expect(page.locator('.selection-banner')).toBeVisible();
    // In multiple-selection mode a plain click adds.
    await itemLink(page, 'd.txt').click();
    await expectSelected(page, ['b.txt', 'c.txt', 'd.txt'], ['a.txt', 'e.txt']);
  });

  test('a long touch selects without opening a menu', async ({ browser, server, makeUser, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const user = await filesUser(server, makeUser);
    const context = await browser.newContext({ baseURL: server.url + '/', hasTouch: true, isMobile: true, viewport: { width: 390, height: 800 } });
    const token = await user.token();
    await context.addCookies([{ name: 'auth', value: token, url: server.url }]);
    await context.addInitScript((value) => localStorage.setItem('jwt', value), token);
    const page = await context.newPage();
    try {
      await openFolder(page, root.folder);
      const box = (await itemBox(page, 'c.txt').boundingBox())!;
      const point = { x: Math.round(box.x + 30), y: Math.round(box.y + box.height / 2) };
      const cdp = await context.newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await page.waitForTimeout(700);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expectSelected(page, ['c.txt'], ['b.txt']);
      await expect(page).toHaveURL(new RegExp(`/files/${root.folder}/$`));
      // The selection's actions sit in the bottom bar on a phone.
      await expect(page.getByRole('region', { name: 'Selected items' })).toContainText('1 selected');
      // Further taps add to the selection.
      await itemLink(page, 'e.txt').tap();
      await expectSelected(page, ['c.txt', 'e.txt']);
    } finally {
      await context.close();
    }
  });

  test('top-bar actions follow the selection count and the permissions', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    root.mkdir(`${root.folder}/sub`);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const bar = page.getByRole('group', { name: 'File actions' });
    const labels = async () => (await bar.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label'))))
      .filter((label) => label !== 'Upload');

    expect(await labels()).toEqual(['Switch view', 'Info', 'Select multiple']);
    await itemLink(page, 'a.txt').click();
    await expect.poll(labels).toEqual(['Share', 'Rename', 'Copy', 'Move', 'Delete', 'Download', 'Switch view', 'Info', 'Select multiple']);
    await expect(action(page, 'Download')).toContainText('1');
    // Rename and share need exactly one item.
    await itemLink(page, 'b.txt').click({ modifiers: ['ControlOrMeta'] });
    await expect.poll(labels).toEqual(['Copy', 'Move', 'Delete', 'Download', 'Switch view', 'Info', 'Select multiple']);
    await expect(action(page, 'Download')).toContainText('2');

    const limited = await pageAs(await filesUser(server, makeUser, { perm: { rename: false, delete: false, download: false, share: false, create: false } }));
    await openFolder(limited, root.folder);
    await itemLink(limited, 'a.txt').click();
    await expectSelected(limited, ['a.txt']);
    const limitedBar = limited.getByRole('group', { name: 'File actions' });
    await expect(limitedBar.getByRole('button')).toHaveText(['', '', '']);
    expect(await limitedBar.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')))).toEqual(['Switch view', 'Info', 'Select multiple']);
    // Without the permissions the shortcuts do nothing either.
    await limited.keyboard.press('Delete');
    await limited.keyboard.press('F2');
    await expect(limited.getByRole('dialog')).toHaveCount(0);
    await expect(limited.getByRole('alertdialog')).toHaveCount(0);
  });

  test('shortcuts: F1, F2, Delete, Ctrl+S and Ctrl+Shift+F', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);

    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help.locator('kbd')).toHaveText(['F1', 'F2', 'DEL', 'ESC', 'CTRL + S', 'CTRL + SHIFT + F', 'CTRL + Click', 'Click', 'Double click']);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);

    // F2 renames one item only.
    await itemLink(page, 'a.txt').click();
    await itemLink(page, 'b.txt').click({ modifiers: ['ControlOrMeta'] });
    await page.keyboard.press('F2');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await itemLink(page, 'b.txt').click();
    await page.keyboard.press('F2');
    await expect(page.getByRole('dialog', { name: 'Rename' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.keyboard.press('Delete');
    await expect(page.getByRole('alertdialog', { name: 'Delete' })).toContainText('b.txt');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    // Ctrl+S downloads the one selected file as it is.
    const download = page.waitForEvent('download');
    await page.keyboard.press('ControlOrMeta+s');
    expect((await download).suggestedFilename()).toBe('b.txt');

    // With nothing selected it offers the folder as an archive.
    await page.keyboard.press('Escape');
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByRole('dialog', { name: 'Download' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Ctrl+Shift+F asks the app for the search.
    await page.evaluate(() => window.addEventListener('burrow:open-search', () => document.body.setAttribute('data-search-asked', 'yes')));
    await page.keyboard.press('ControlOrMeta+Shift+f');
    await expect(page.locator('body')).toHaveAttribute('data-search-asked', 'yes');
  });

  test('at 375 px the selection actions move to a bar with the count', async ({ server, makeUser, pageAs, root }) => {
    for (const name of names) root.write(`${root.folder}/${name}`, name);
    const page = await pageAs(await filesUser(server, makeUser));
    await page.setViewportSize({ width: 375, height: 740 });
    await openFolder(page, root.folder);
    const bottom = page.getByRole('region', { name: 'Selected items' });
    await expect(bottom).toHaveCount(0);
    await itemLink(page, 'a.txt').click();
    await itemLink(page, 'c.txt').click({ modifiers: ['ControlOrMeta'] });
    await expect(bottom).toContainText('2 selected');
    await expect(bottom.getByRole('button', { name: 'Delete' })).toBeVisible();
    await expect(bottom.getByRole('button', { name: 'Rename' })).toHaveCount(0);
    // The top bar keeps only the view actions.
    await expect(action(page, 'Delete')).toHaveCount(0);
    await expect(action(page, 'Switch view')).toBeVisible();
    await bottom.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Delete' })).toContainText('2 items');
    await page.keyboard.press('Escape');
    await bottom.getByRole('button', { name: 'Clear selection' }).click();
    await expect(bottom).toHaveCount(0);
    // Wider again, the actions return to the top bar.
    await itemLink(page, 'a.txt').click();
    await page.setViewportSize({ width: 1000, height: 740 });
    await expect(action(page, 'Delete')).toBeVisible();
    await expect(bottom).toHaveCount(0);
    await expect(listing(page)).toBeVisible();
  });
});
