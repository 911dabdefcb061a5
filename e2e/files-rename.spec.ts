import fs from 'node:fs';
import { expect, test } from './fixtures';
import { action, dialog, expectSelected, filesUser, itemLink, listing, openFolder, shownNames } from './files-helpers';

test.describe('files screen: the rename dialog', () => {
  test('rename by F2 and by the action: trimmed, blank ignored, odd characters and Unicode kept, renamed item preselected', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/draft.txt`, 'draft');
    root.write(`${root.folder}/other.txt`, 'other');
    root.mkdir(`${root.folder}/folder`);
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const rename = dialog(page, 'Rename');
    const field = rename.getByLabel('New name');

    await itemLink(page, 'draft.txt').click();
    await page.keyboard.press('F2');
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('draft.txt');
    // The stem is selected so typing keeps the extension.
    expect(await field.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 5]);

    // Blank does nothing: the dialog stays and nothing is sent.
    let patches = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches += 1;
    });
    await field.fill('   ');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(rename).toBeVisible();
    expect(patches).toBe(0);

    const odd = 'a #?%&b.txt';
    await field.fill(`  ${odd}  `);
    await page.keyboard.press('Enter');
    await expect(rename).toHaveCount(0);
    await expect(itemLink(page, odd)).toBeVisible();
    expect(root.read(`${root.folder}/${odd}`)).toBe('draft');
    expect(root.exists(`${root.folder}/draft.txt`)).toBe(false);
    await expectSelected(page, [odd], ['other.txt']);

    // The same item again, through the top bar, to a Unicode name.
    const unicode = 'Résumé 日本語 ✓.txt';
    await action(page, 'Rename').click();
    await expect(field).toHaveValue(odd);
    await field.fill(unicode);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(itemLink(page, unicode)).toBeVisible();
    expect(root.read(`${root.folder}/${unicode}`)).toBe('draft');
    await expectSelected(page, [unicode], ['other.txt']);
    // It opens at its own, encoded, route.
    await itemLink(page, unicode).dblclick();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/${encodeURIComponent(unicode)}`);
    await page.goBack();
    await expect(itemLink(page, unicode)).toBeVisible();

    // A folder keeps its contents; an unchanged name closes without a request.
    await itemLink(page, 'folder').click();
    await page.keyboard.press('F2');
    await expect(field).toHaveValue('folder');
    await page.keyboard.press('Enter');
    await expect(rename).toHaveCount(0);
    expect(patches).toBe(2);
    await page.keyboard.press('F2');
    await field.fill('folder #2');
    await page.keyboard.press('Enter');
    await expect(itemLink(page, 'folder #2')).toBeVisible();
    expect(root.isDirectory(`${root.folder}/folder #2`)).toBe(true);
    await expectSelected(page, ['folder #2']);
    // A slash is refused with a message.
    await page.keyboard.press('F2');
    await field.fill('a/b');
    await expect(rename.getByRole('alert')).toHaveText('A name cannot contain “/”.');
    await page.keyboard.press('Enter');
    await expect(rename).toBeVisible();
    await page.keyboard.press('Escape');
    expect(patches).toBe(3);
  });

  test('renaming onto a taken name asks: cancel, rename (keep both) or replace', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/one.txt`, 'one');
    root.write(`${root.folder}/two.txt`, 'two');
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const rename = dialog(page, 'Rename');
    const question = dialog(page, 'Replace or rename?');

    const renameOneTo = async (name: string) => {
      await itemLink(page, 'one.txt').click();
      await page.keyboard.press('F2');
      await rename.getByLabel('New name').fill(name);
      await expect(rename).toContainText('An item with this name already exists here.');
      await page.keyboard.press('Enter');
      await expect(question).toBeVisible();
      await expect(question.getByRole('listitem')).toHaveText(['two.txt']);
    };

    await renameOneTo('two.txt');
    // Cancel goes back to the name, to choose another one.
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toHaveCount(0);
    await expect(rename.getByLabel('New name')).toHaveValue('two.txt');
    await page.keyboard.press('Escape');
    await expect(rename).toHaveCount(0);
    expect(root.read(`${root.folder}/one.txt`)).toBe('one');
    expect(root.read(`${root.folder}/two.txt`)).toBe('two');

    // Keep both: the server picks the first free name.
    await renameOneTo('two.txt');
    await question.getByRole('button', { name: 'Rename' }).click();
    await expect(itemLink(page, 'two(1).txt')).toBeVisible();
    expect(root.read(`${root.folder}/two(1).txt`)).toBe('one');
    expect(root.read(`${root.folder}/two.txt`)).toBe('two');
    expect(root.exists(`${root.folder}/one.txt`)).toBe(false);
    await expectSelected(page, ['two(1).txt'], ['two.txt']);

    root.write(`${root.folder}/one.txt`, 'one again');
    await page.reload();
    await expect(itemLink(page, 'one.txt')).toBeVisible();
    await renameOneTo('two.txt');
    await question.getByRole('button', { name: 'Replace' }).click();
    await expect(itemLink(page, 'one.txt')).toHaveCount(0);
    expect(root.read(`${root.folder}/two.txt`)).toBe('one again');
    await expectSelected(page, ['two.txt'], ['two(1).txt']);
    expect(await shownNames(page)).toEqual(['two(1).txt', 'two.txt']);
    await expect(listing(page)).toBeVisible();
  });

  test('renaming the file on screen onto a taken name asks too, then shows the file under its new path', async ({ server, makeUser, pageAs, root }) => {
    root.write(`${root.folder}/draft.txt`, 'draft');
    root.write(`${root.folder}/final.txt`, 'final');
    const photo = fs.readFileSync(root.copyFixture('media/photo.jpg', `${root.folder}/photo.jpg`));
    root.copyFixture('media/still.webp', `${root.folder}/cover.jpg`);
    const page = await pageAs(await filesUser(server, makeUser));
    const rename = dialog(page, 'Rename');
    const question = dialog(page, 'Replace or rename?');

    // A text file, in the editor: the top bar's Rename.
    await page.goto(`files/${root.folder}/draft.txt`);
    await action(page, 'Rename').click();
    await rename.getByLabel('New name').fill('final.txt');
    await page.keyboard.press('Enter');
    await question.getByRole('button', { name: 'Rename' }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/final(1).txt`);
    expect(root.read(`${root.folder}/final(1).txt`)).toBe('draft');
    expect(root.read(`${root.folder}/final.txt`)).toBe('final');

    // A picture, in the preview: its own bar's Rename.
    await page.goto(`files/${root.folder}/photo.jpg`);
    await page.getByRole('button', { name: 'Rename' }).click();
    await rename.getByLabel('New name').fill('cover.jpg');
    await page.keyboard.press('Enter');
    await question.getByRole('button', { name: 'Replace' }).click();
    await expect(page).toHaveURL(`${server.url}/files/${root.folder}/cover.jpg`);
    expect(root.exists(`${root.folder}/photo.jpg`)).toBe(false);
    expect(fs.readFileSync(root.resolve(`${root.folder}/cover.jpg`)).equals(photo)).toBe(true);
  });
});
