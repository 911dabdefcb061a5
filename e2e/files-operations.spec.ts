import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { action, dialog, expectSelected, filesUser, itemBox, itemLink, listing, openFolder, shownNames } from './files-helpers';

/** Counts the copy and move requests a page sends. */
function countTransfers(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes('/api/resources/')) count += 1;
  });
  return () => count;
}

test.describe('files screen: clipboard, drag and drop, errors and leaving', () => {
  test('Ctrl+C and Ctrl+V: copies here are renamed, elsewhere a clash asks; the first pasted item is preselected', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/a.txt`, 'new a');
    root.write(`${here}/b.txt`, 'new b');
    root.write(`${here}/sub/a.txt`, 'old a');
    const page = await pageAs(await filesUser(server, makeUser));
    const transfers = countTransfers(page);
    await openFolder(page, here);
    const question = dialog(page, 'Replace or rename?');

    // Pasting into the folder the copy came from never overwrites and never asks.
    await itemLink(page, 'a.txt').click();
    await page.keyboard.press('ControlOrMeta+c');
    await page.keyboard.press('ControlOrMeta+v');
    await expect(itemLink(page, 'a(1).txt')).toBeVisible();
    await expect(question).toHaveCount(0);
    expect(root.read(`${here}/a(1).txt`)).toBe('new a');
    await expectSelected(page, ['a(1).txt'], ['a.txt']);
    // The clipboard keeps a copy: a second paste makes another one.
    await page.keyboard.press('ControlOrMeta+v');
    await expect(itemLink(page, 'a(2).txt')).toBeVisible();
    await expectSelected(page, ['a(2).txt'], ['a(1).txt']);

    // Two items into a folder that has one of the names.
    await itemLink(page, 'a.txt').click();
    await itemLink(page, 'b.txt').click({ modifiers: ['ControlOrMeta'] });
    await page.keyboard.press('ControlOrMeta+c');
    await itemLink(page, 'sub').dblclick();
    await expect(page).toHaveURL(`${server.url}/files/${here}/sub/`);
    await expectSelected(page, [], ['a.txt']);
    const before = transfers();
    await page.keyboard.press('ControlOrMeta+v');
    await expect(question.getByRole('listitem')).toHaveText(['a.txt']);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toHaveCount(0);
    expect(transfers()).toBe(before);
    expect(await shownNames(page)).toEqual(['a.txt']);

    await page.keyboard.press('ControlOrMeta+v');
    await question.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => shownNames(page)).toEqual(['a(1).txt', 'a.txt', 'b.txt']);
    expect(root.read(`${here}/sub/a.txt`)).toBe('old a');
    expect(root.read(`${here}/sub/a(1).txt`)).toBe('new a');
    expect(root.read(`${here}/sub/b.txt`)).toBe('new b');
    // The first item in the listing that the paste added.
    await expectSelected(page, ['a(1).txt'], ['a.txt', 'b.txt']);

    // Replace overwrites the clashing names.
    root.write(`${here}/b.txt`, 'newer b');
    await page.keyboard.press('ControlOrMeta+v');
    await question.getByRole('button', { name: 'Replace' }).click();
    await expect(question).toHaveCount(0);
    await expect.poll(() => root.read(`${here}/sub/b.txt`)).toBe('newer b');
    expect(root.read(`${here}/sub/a.txt`)).toBe('new a');
    await expect.poll(() => shownNames(page)).toEqual(['a(1).txt', 'a.txt', 'b.txt']);
  });

  test('Ctrl+X and Ctrl+V move the items and empty the clipboard', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/cut.txt`, 'cut');
    root.write(`${here}/stay.txt`, 'stay');
    root.write(`${here}/inner/deep.txt`, 'deep');
    root.mkdir(`${here}/other`);
    const page = await pageAs(await filesUser(server, makeUser));
    const transfers = countTransfers(page);
    await openFolder(page, here);

    await itemLink(page, 'cut.txt').click();
    await itemLink(page, 'inner').click({ modifiers: ['ControlOrMeta'] });
    await page.keyboard.press('ControlOrMeta+x');
    // Cut items are shown faded until pasted.
    await expect(itemBox(page, 'cut.txt')).toHaveClass(/is-dimmed/);
    await expect(itemBox(page, 'inner')).toHaveClass(/is-dimmed/);
    await expect(itemBox(page, 'stay.txt')).not.toHaveClass(/is-dimmed/);
    expect(transfers()).toBe(0);

    await itemLink(page, 'other').dblclick();
    await expect(page.getByText('This folder is empty.')).toBeVisible();
    await page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => shownNames(page)).toEqual(['inner', 'cut.txt']);
    await expectSelected(page, ['inner'], ['cut.txt']);
    expect(root.read(`${here}/other/cut.txt`)).toBe('cut');
    expect(root.read(`${here}/other/inner/deep.txt`)).toBe('deep');
    expect(root.exists(`${here}/cut.txt`)).toBe(false);
    expect(root.exists(`${here}/inner`)).toBe(false);
    expect(transfers()).toBe(2);

    // Back in the folder they left, the moved items are gone at once, even before its listing
    // has been fetched again (held here until checked).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => decodeURIComponent(url.pathname) === `/api/resources/${here}/`,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goBack();
    await expect(page).toHaveURL(`${server.url}/files/${here}/`);
    // The listing on screen may still be the one left for a moment; the folder's own, from the
    // cache without the moved items, follows while its fetch is still held.
    await expect.poll(() => shownNames(page)).toEqual(['other', 'stay.txt']);
    release();
    await page.unroute((url) => decodeURIComponent(url.pathname) === `/api/resources/${here}/`);

    // The clipboard is empty now: pasting again does nothing.
    await expect.poll(() => shownNames(page)).toEqual(['other', 'stay.txt']);
    await page.keyboard.press('ControlOrMeta+v');
    await expect(dialog(page, 'Replace or rename?')).toHaveCount(0);
    expect(await shownNames(page)).toEqual(['other', 'stay.txt']);
    expect(transfers()).toBe(2);
  });

  test('dragging items onto a folder moves them; a clash asks first', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    for (const name of ['one.txt', 'two.txt', 'three.txt']) root.write(`${here}/${name}`, `new ${name}`);
    root.write(`${here}/target/three.txt`, 'old three');
    root.mkdir(`${here}/target/nested`);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, here);

    // One unselected item: it is dragged alone.
    await itemLink(page, 'one.txt').dragTo(itemBox(page, 'target'));
    await expect(itemLink(page, 'one.txt')).toHaveCount(0);
    expect(root.read(`${here}/target/one.txt`)).toBe('new one.txt');

    // Dragging one of the selected items takes the whole selection; three.txt clashes.
    await itemLink(page, 'two.txt').click();
    await itemLink(page, 'three.txt').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'two.txt').dragTo(itemBox(page, 'target'));
    const question = dialog(page, 'Replace or rename?');
    await expect(question.getByRole('listitem')).toHaveText(['three.txt']);
    await question.getByRole('button', { name: 'Replace' }).click();
    await expect.poll(() => shownNames(page)).toEqual(['target']);
    expect(root.read(`${here}/target/two.txt`)).toBe('new two.txt');
    expect(root.read(`${here}/target/three.txt`)).toBe('new three.txt');

    // Into a folder of a folder, and a folder is no target for itself.
    await itemLink(page, 'target').dblclick();
    await expect(itemLink(page, 'nested')).toBeVisible();
    await itemLink(page, 'one.txt').dragTo(itemBox(page, 'nested'));
    await expect(itemLink(page, 'one.txt')).toHaveCount(0);
    expect(root.exists(`${here}/target/nested/one.txt`)).toBe(true);
    await itemLink(page, 'nested').dragTo(itemBox(page, 'nested'));
    expect(root.isDirectory(`${here}/target/nested`)).toBe(true);
    await expect(itemLink(page, 'nested')).toBeVisible();

    // A breadcrumb takes items too: two.txt goes back up to work.
    await itemLink(page, 'two.txt').dragTo(page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'work', exact: true }));
    await expect(itemLink(page, 'two.txt')).toHaveCount(0);
    expect(root.read(`${here}/two.txt`)).toBe('new two.txt');

    // Without the rename permission nothing can be dragged.
    const reader = await pageAs(await filesUser(server, makeUser, { perm: { rename: false } }));
    await openFolder(reader, `${here}/target`);
    await expect(itemBox(reader, 'three.txt')).not.toHaveAttribute('draggable', 'true');
  });

  test('failed operations: a vanished file gives the error dialog, a refused replace the error toast', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/gone.txt`, 'gone');
    root.write(`${here}/keep.txt`, 'mine');
    root.write(`${here}/dest/keep.txt`, 'theirs');
    // Replacing needs the modify permission.
    const page = await pageAs(await filesUser(server, makeUser, { perm: { modify: false } }));
    await openFolder(page, here);

    await itemLink(page, 'gone.txt').click();
    fs.rmSync(root.resolve(`${here}/gone.txt`));
    await page.keyboard.press('Delete');
    await page.getByRole('alertdialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
    const failure = dialog(page, 'Something went wrong');
    await expect(failure).toContainText('404 Not Found');
    await expect(failure.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(failure).toHaveCount(0);
    // The listing was reloaded: the file is no longer offered.
    await expect(itemLink(page, 'gone.txt')).toHaveCount(0);

    await itemLink(page, 'keep.txt').click();
    await expectSelected(page, ['keep.txt'], ['dest']);
    await page.keyboard.press('ControlOrMeta+c');
    await itemLink(page, 'dest').dblclick();
    // Both folders hold a keep.txt: wait for the destination's own listing before pasting.
    await expect(page).toHaveURL(`${server.url}/files/${here}/dest/`);
    await expect(itemLink(page, 'dest')).toHaveCount(0);
    await expect(itemLink(page, 'keep.txt')).toBeVisible();
    await page.keyboard.press('ControlOrMeta+v');
    await expect(dialog(page, 'Replace or rename?')).toBeVisible();
    await dialog(page, 'Replace or rename?').getByRole('button', { name: 'Replace' }).click();
    const toast = page.locator('[data-sonner-toast][data-type="error"]');
    await expect(toast).toContainText('403 Forbidden');
    expect(root.read(`${here}/dest/keep.txt`)).toBe('theirs');
    await expect(listing(page)).toBeVisible();
  });

  test('leaving the folder closes dialogs and clears the selection; Escape closes only the top dialog', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/a.txt`, 'a');
    root.write(`${here}/b.txt`, 'b');
    root.mkdir(`${here}/dest`);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    await itemLink(page, 'work').dblclick();
    await expect(itemLink(page, 'a.txt')).toBeVisible();

    // A stack: the move dialog, then a new folder from inside it.
    await itemLink(page, 'a.txt').click();
    await action(page, 'Select multiple').click();
    await itemLink(page, 'b.txt').click();
    await expectSelected(page, ['a.txt', 'b.txt']);
    await action(page, 'Move').click();
    const move = dialog(page, 'Move to…');
    const opener = move.getByRole('button', { name: 'New folder' });
    await opener.click();
    const newFolder = dialog(page, 'New folder');
    await expect(newFolder.getByLabel('Folder name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(newFolder).toHaveCount(0);
    await expect(move).toBeVisible();
    await expect(opener).toBeFocused();
    // The Escape went to the dialog, not to the listing: the selection is still there.
    await expectSelected(page, ['a.txt', 'b.txt']);

    // The folder made there becomes the destination.
    await opener.click();
    await newFolder.getByLabel('Folder name').fill('made here');
    await page.keyboard.press('Enter');
    await expect(newFolder).toHaveCount(0);
    await expect(move.locator('.transfer-destination strong')).toHaveText(`/${here}/made here/`);
    expect(root.isDirectory(`${here}/made here`)).toBe(true);
    await opener.click();
    await expect(page.getByRole('dialog')).toHaveCount(2);

    // Going back closes all of them and leaves the selection behind.
    await page.goBack();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.goForward();
    await expect(itemLink(page, 'a.txt')).toBeVisible();
    await expectSelected(page, [], ['a.txt', 'b.txt']);
    await expect(page.locator('.selection-banner')).toHaveCount(0);
    expect(root.exists(`${here}/a.txt`)).toBe(true);

    // The same for another screen.
    await itemLink(page, 'b.txt').click();
    await action(page, 'Info').click();
    await expect(dialog(page, 'Information')).toBeVisible();
    await page.goto('settings/profile');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.goBack();
    await expect(itemLink(page, 'b.txt')).toBeVisible();
    await expectSelected(page, [], ['b.txt']);
  });
});
