import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from './fixtures';
import { action, dialog, expectSelected, filesUser, infoValue, itemLink, openFolder, shownNames } from './files-helpers';

test.describe('files screen: info, help and delete dialogs', () => {
  test('info shows a file, a picture, a folder, the folder on screen and a selection; checksums on demand', async ({ server, makeUser, pageAs, root }) => {
    const content = Buffer.from(Array.from({ length: 1536 }, (_, index) => (index * 7) % 256));
    const dataFile = root.write(`${root.folder}/data.bin`, content);
    fs.utimesSync(dataFile, new Date('2021-03-04T10:00:00Z'), new Date('2021-03-04T10:00:00Z'));
    root.write(`${root.folder}/notes.txt`, 'plain text\n');
    root.copyFixture('media/photo.jpg', `${root.folder}/photo.jpg`);
    root.write(`${root.folder}/album/one.txt`, '1');
    root.write(`${root.folder}/album/two.txt`, '2');
    root.write(`${root.folder}/album/three.txt`, '3');
    root.mkdir(`${root.folder}/album/x`);
    root.mkdir(`${root.folder}/album/y`);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const info = dialog(page, 'Information');

    // A file: name, size in binary units and in bytes, type, modification time, checksums.
    await itemLink(page, 'data.bin').click();
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Name')).toHaveText('data.bin');
    await expect(infoValue(info, 'Size')).toHaveText('1.5 KiB · exactly 1,536 bytes');
    await expect(infoValue(info, 'Type')).toHaveText('File');
    await expect(infoValue(info, 'Modified').locator('time')).toHaveAttribute('datetime', /^2021-03-04T/);
    await expect(infoValue(info, 'Modified')).toContainText('2021');
    await expect(infoValue(info, 'Resolution')).toHaveCount(0);
    for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512']) {
      const label = algorithm.toUpperCase();
      // Nothing is computed until asked for.
      await expect(info.getByLabel(`${label} checksum`, { exact: true })).toHaveCount(0);
      await info.getByRole('button', { name: `Calculate the ${label} checksum` }).click();
      await expect(info.getByLabel(`${label} checksum`, { exact: true })).toHaveText(createHash(algorithm).update(content).digest('hex'));
    }
    await info.getByRole('button', { name: 'Close' }).click();
    await expect(info).toHaveCount(0);

    // A picture adds its resolution (the fixture is 1600 × 1200).
    await itemLink(page, 'photo.jpg').click();
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Type')).toHaveText('Picture');
    await expect(infoValue(info, 'Resolution')).toHaveText('1600 × 1200');
    await expect(infoValue(info, 'Size')).toContainText(`exactly ${fs.statSync(root.resolve(`${root.folder}/photo.jpg`)).size.toLocaleString('en')} bytes`);
    await page.keyboard.press('Escape');
    await expect(info).toHaveCount(0);

    await itemLink(page, 'notes.txt').click();
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Type')).toHaveText('Text document');
    await page.keyboard.press('Escape');
    await expect(info).toHaveCount(0);

    // A folder counts its own folders and files (fetched for the dialog), without a size or checksums.
    await itemLink(page, 'album').click();
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Type')).toHaveText('Folder');
    await expect(infoValue(info, 'Folders')).toHaveText('2');
    await expect(infoValue(info, 'Files')).toHaveText('3');
    await expect(infoValue(info, 'Size')).toHaveCount(0);
    await expect(info.getByRole('button', { name: /Calculate/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(info).toHaveCount(0);

    // Nothing selected: the folder on screen.
    await page.keyboard.press('Escape');
    await expectSelected(page, [], ['album']);
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Name')).toHaveText(root.folder);
    await expect(infoValue(info, 'Folders')).toHaveText('1');
    await expect(infoValue(info, 'Files')).toHaveText('3');
    await page.keyboard.press('Escape');
    await expect(info).toHaveCount(0);

    // Several items: how many, of which kind, and the files' total size. Picked with Ctrl/Cmd
    // from the empty selection: a plain click on album, clicked before, can read as a double click.
    await itemLink(page, 'album').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'data.bin').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'notes.txt').click({ modifiers: ['ControlOrMeta'] });
    await action(page, 'Info').click();
    await expect(infoValue(info, 'Selected')).toHaveText('3 items');
    await expect(infoValue(info, 'Folders')).toHaveText('1');
    await expect(infoValue(info, 'Files')).toHaveText('2');
    await expect(infoValue(info, 'Size of the files')).toHaveText('1.51 KiB'); // 1,536 + 11 bytes
    await page.keyboard.press('Escape');
    await expect(info).toHaveCount(0);
  });

  test('without the download permission no checksum is offered', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/a.txt`, 'a');
    const page = await pageAs(await filesUser(server, makeUser, { perm: { download: false, share: false } }));
    await openFolder(page, root.folder);
    await itemLink(page, 'a.txt').click();
    await action(page, 'Info').click();
    const info = dialog(page, 'Information');
    await expect(infoValue(info, 'Name')).toHaveText('a.txt');
    await expect(info.getByRole('button', { name: /Calculate/ })).toHaveCount(0);
  });

  test('help lists the shortcuts and closes with its button', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/a.txt`, 'a');
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    await page.keyboard.press('F1');
    const help = dialog(page, 'Keyboard shortcuts');
    const entries = help.locator('.help-list__entry');
    await expect(entries).toHaveCount(9);
    await expect(entries.nth(0)).toContainText('F1');
    await expect(entries.nth(0)).toContainText('Show this help');
    await expect(entries.nth(1)).toContainText('Rename the selected item');
    await expect(entries.nth(2)).toContainText('Delete the selected items');
    await expect(entries.nth(4)).toContainText('Download the selection');
    await expect(entries.nth(8)).toContainText('Open a file or folder');
    await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(help).toHaveCount(0);
    // While a dialog is open the screen's shortcuts are off: a second F1 opens no second help.
    await page.keyboard.press('F1');
    await page.keyboard.press('F1');
    await expect(page.getByRole('dialog')).toHaveCount(1);
  });

  test('delete one item, then several: the listing reloads with the item before them preselected', async ({ server, makeUser, pageAs, root }) => {
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'f.txt']) root.write(`${root.folder}/${name}`, name);
    root.write(`${root.folder}/box/inner.txt`, 'inner');
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const confirm = page.getByRole('alertdialog', { name: 'Delete' });

    await itemLink(page, 'c.txt').click();
    await action(page, 'Delete').click();
    await expect(confirm).toContainText('Delete “c.txt”? This cannot be undone.');
    // Cancel has the focus: a stray Enter keeps the file.
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect(root.exists(`${root.folder}/c.txt`)).toBe(true);

    // From the keyboard: the focused item goes, and the focus moves on to the item preselected
    // in its place, so the arrow keys keep working.
    await itemLink(page, 'c.txt').click();
    await expect(itemLink(page, 'c.txt')).toBeFocused();
    await page.keyboard.press('Delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(itemLink(page, 'c.txt')).toHaveCount(0);
    expect(root.exists(`${root.folder}/c.txt`)).toBe(false);
    await expectSelected(page, ['b.txt'], ['a.txt', 'd.txt']);
    await expect(itemLink(page, 'b.txt')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expectSelected(page, ['d.txt'], ['b.txt']);

    // Several, a folder with its contents among them.
    await itemLink(page, 'box').click();
    await itemLink(page, 'd.txt').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'e.txt').click({ modifiers: ['ControlOrMeta'] });
    await page.keyboard.press('Delete');
    await expect(confirm).toContainText('Delete 3 items? This cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => shownNames(page)).toEqual(['a.txt', 'b.txt', 'f.txt']);
    expect(root.exists(`${root.folder}/box`)).toBe(false);
    // Nothing came before the first deleted item: the first remaining one is preselected.
    await expectSelected(page, ['a.txt'], ['b.txt', 'f.txt']);
    await expect(page.locator('.files__meta')).toContainText('0 folders · 3 files');
  });
});
