import { expect, test } from './fixtures';
import { action, dialog, expectSelected, filesUser, itemLink, listing, openFolder, shownNames } from './files-helpers';

test.describe('files screen: move, copy, new file and new folder dialogs', () => {
  test('move: the picker browses subfolders, Move is off for the current folder, a clash asks cancel, rename or replace', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/a.txt`, 'new a');
    root.write(`${here}/b.txt`, 'new b');
    root.write(`${here}/dest/a.txt`, 'old a');
    root.write(`${here}/dest/b.txt`, 'old b');
    root.mkdir(`${here}/dest/sub/deeper`);
    const page = await pageAs(await filesUser(server, makeUser, { redirectAfterCopyMove: false }));
    await openFolder(page, here);
    const move = dialog(page, 'Move to…');
    const picker = move.getByRole('listbox', { name: 'Folders' });
    const moveButton = move.getByRole('button', { name: 'Move', exact: true });
    const location = move.locator('.folder-picker__location');
    const question = dialog(page, 'Replace or rename?');

    await itemLink(page, 'a.txt').click();
    await action(page, 'Move').click();
    await expect(move).toContainText('Choose where to move 1 item.');
    await expect(location).toHaveText(`/${here}/`);
    await expect(picker.getByRole('option')).toHaveText(['Parent folder', 'dest']);
    // Where the item already is: nothing to do.
    await expect(moveButton).toBeDisabled();
    await expect(move).toContainText('the items are already here');

    // A click marks a folder as the destination; a double click opens it.
    await picker.getByRole('option', { name: 'dest' }).click();
    await expect(picker.getByRole('option', { name: 'dest' })).toHaveAttribute('aria-selected', 'true');
    await expect(move.locator('.transfer-destination strong')).toHaveText(`/${here}/dest/`);
    await expect(moveButton).toBeEnabled();
    await picker.getByRole('option', { name: 'dest' }).dblclick();
    await expect(location).toHaveText(`/${here}/dest/`);
    await expect(picker.getByRole('option')).toHaveText(['Parent folder', 'sub']);
    await picker.getByRole('option', { name: 'sub' }).dblclick();
    await expect(location).toHaveText(`/${here}/dest/sub/`);
    await expect(picker.getByRole('option')).toHaveText(['Parent folder', 'deeper']);
    // The parent entry goes back up with one click.
    await picker.getByRole('option', { name: 'Parent folder' }).click();
    await expect(location).toHaveText(`/${here}/dest/`);
    await expect(move.locator('.transfer-destination strong')).toHaveText(`/${here}/dest/`);

    // dest already holds an a.txt.
    await moveButton.click();
    await expect(question).toBeVisible();
    await expect(question.getByRole('listitem')).toHaveText(['a.txt']);
    await expect(question.getByRole('button', { name: 'Rename' })).toBeFocused();
    // Cancel returns to the picker, where it was.
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toHaveCount(0);
    await expect(location).toHaveText(`/${here}/dest/`);
    expect(root.read(`${here}/a.txt`)).toBe('new a');
    expect(root.read(`${here}/dest/a.txt`)).toBe('old a');

    // Rename keeps both.
    await moveButton.click();
    await question.getByRole('button', { name: 'Rename' }).click();
    await expect(move).toHaveCount(0);
    await expect(itemLink(page, 'a.txt')).toHaveCount(0);
    expect(root.read(`${here}/dest/a(1).txt`)).toBe('new a');
    expect(root.read(`${here}/dest/a.txt`)).toBe('old a');
    expect(root.exists(`${here}/a.txt`)).toBe(false);
    // Without redirectAfterCopyMove the folder on screen stays.
    await expect(page).toHaveURL(`${server.url}/files/${here}/`);

    // Replace overwrites.
    await itemLink(page, 'b.txt').click();
    await action(page, 'Move').click();
    await picker.getByRole('option', { name: 'dest' }).click();
    await moveButton.click();
    await question.getByRole('button', { name: 'Replace' }).click();
    await expect(move).toHaveCount(0);
    await expect.poll(() => shownNames(page)).toEqual(['dest']);
    expect(root.read(`${here}/dest/b.txt`)).toBe('new b');
    expect(root.exists(`${here}/b.txt`)).toBe(false);
    // The folder changed seconds after the listing was first shown: its time is told from the
    // new listing's moment, never as one still to come.
    await expect(listing(page).getByRole('row').filter({ hasText: 'dest' })).toContainText(/now|seconds? ago/);

    // A folder cannot go into itself.
    await itemLink(page, 'dest').click();
    await action(page, 'Move').click();
    await picker.getByRole('option', { name: 'dest' }).dblclick();
    await expect(move).toContainText('a folder cannot go inside itself');
    await expect(moveButton).toBeDisabled();
  });

  test('copy with single click: a click opens a folder, copies here are renamed, a clash can be replaced and the destination opens', async ({ server, makeUser, pageAs, root }) => {
    const here = `${root.folder}/work`;
    root.write(`${here}/a.txt`, 'new a');
    root.write(`${here}/dest/a.txt`, 'old a');
    root.mkdir(`${here}/dest/sub`);
    const page = await pageAs(await filesUser(server, makeUser, { singleClick: true, redirectAfterCopyMove: true }));
    await openFolder(page, here);
    const copy = dialog(page, 'Copy to…');
    const picker = copy.getByRole('listbox', { name: 'Folders' });
    const copyButton = copy.getByRole('button', { name: 'Copy', exact: true });
    const question = dialog(page, 'Replace or rename?');

    // Copying into the folder the item is in is allowed and never overwrites.
    await itemLink(page, 'a.txt').click({ modifiers: ['ControlOrMeta'] });
    await expectSelected(page, ['a.txt']);
    await action(page, 'Copy').click();
    await expect(copyButton).toBeEnabled();
    await copyButton.click();
    await expect(copy).toHaveCount(0);
    await expect(question).toHaveCount(0);
    await expect(itemLink(page, 'a(1).txt')).toBeVisible();
    expect(root.read(`${here}/a(1).txt`)).toBe('new a');
    await expectSelected(page, ['a(1).txt'], ['a.txt']);

    // With single click, one click opens the folder in the picker.
    await itemLink(page, 'a.txt').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'a(1).txt').click({ modifiers: ['ControlOrMeta'] });
    await expectSelected(page, ['a.txt'], ['a(1).txt']);
    await action(page, 'Copy').click();
    await picker.getByRole('option', { name: 'dest' }).click();
    await expect(copy.locator('.folder-picker__location')).toHaveText(`/${here}/dest/`);
    await expect(picker.getByRole('option')).toHaveText(['Parent folder', 'sub']);
    await copyButton.click();
    await question.getByRole('button', { name: 'Replace' }).click();
    // redirectAfterCopyMove: the destination opens with the copy preselected.
    await expect(page).toHaveURL(`${server.url}/files/${here}/dest/`);
    await expectSelected(page, ['a.txt'], ['sub']);
    expect(root.read(`${here}/dest/a.txt`)).toBe('new a');
    expect(root.read(`${here}/a.txt`)).toBe('new a');
  });

  test('new folder and new file: trimmed, blank ignored, odd and Unicode names encoded in the route', async ({ server, makeUser, pageAs, root }) => {
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const newFolder = dialog(page, 'New folder');
    const newFile = dialog(page, 'New file');

    await page.getByRole('button', { name: 'New folder' }).click();
    await newFolder.getByLabel('Folder name').fill('  ');
    await page.keyboard.press('Enter');
    await expect(newFolder).toBeVisible();
    const folderName = ' 50% #1 ?&x ';
    await newFolder.getByLabel('Folder name').fill(folderName);
    await page.keyboard.press('Enter');
    const trimmedFolder = folderName.trim();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/${encodeURIComponent(trimmedFolder)}/`);
    expect(root.isDirectory(`${root.folder}/${trimmedFolder}`)).toBe(true);
    await expect(page.getByRole('heading', { level: 1, name: trimmedFolder })).toBeVisible();

    await page.getByRole('button', { name: 'New file' }).click();
    await newFile.getByRole('button', { name: 'Create' }).click();
    await expect(newFile).toBeVisible();
    const fileName = 'Ünïcødé 文件 #?.md';
    await newFile.getByLabel('File name').fill(`\t${fileName}  `);
    await newFile.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/${encodeURIComponent(trimmedFolder)}/${encodeURIComponent(fileName)}`);
    expect(root.read(`${root.folder}/${trimmedFolder}/${fileName}`)).toBe('');

    // Both show under their own names in the listing.
    await openFolder(page, `${root.folder}/${trimmedFolder}`);
    expect(await shownNames(page)).toEqual([fileName]);
  });
});
