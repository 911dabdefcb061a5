import { expect, test, waitForApp } from './fixtures';

test.describe('new folder and new file dialogs', () => {
  test('create a folder in the current folder and open it', async ({ adminPage, server, root }) => {
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    const opener = adminPage.getByRole('button', { name: 'New folder' });
    await opener.click();
    const dialog = adminPage.getByRole('dialog', { name: 'New folder' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Folder name')).toBeFocused();

    // Escape closes the dialog and gives focus back to the button that opened it.
    await adminPage.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();

    await opener.click();
    // A blank name does nothing.
    await dialog.getByLabel('Folder name').fill('   ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeVisible();

    await dialog.getByLabel('Folder name').fill('  Quarterly reports  ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/Quarterly%20reports/`);
    await expect(dialog).toHaveCount(0);
    expect(root.isDirectory(`${root.folder}/Quarterly reports`)).toBe(true);
    await expect(adminPage.getByRole('heading', { name: 'Quarterly reports' })).toBeVisible();
    await expect(adminPage.getByText('This folder is empty.')).toBeVisible();
  });

  test('create a file; an existing name shows a lasting error toast', async ({ adminPage, server, root }) => {
    root.write(`${root.folder}/taken.txt`, 'original');
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.getByRole('button', { name: 'New file' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'New file' });
    await dialog.getByLabel('File name').fill('notes & ideas.md');
    await adminPage.keyboard.press('Enter');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/notes%20%26%20ideas.md`);
    expect(root.read(`${root.folder}/notes & ideas.md`)).toBe('');

    await adminPage.goto(`files/${root.folder}/`);
    await adminPage.getByRole('button', { name: 'New file' }).click();
    await dialog.getByLabel('File name').fill('taken.txt');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const toast = adminPage.locator('[data-sonner-toast][data-type="error"]');
    await expect(toast).toContainText('409 Conflict');
    await expect(toast.getByRole('button', { name: 'Report issue' })).toBeVisible();
    expect(root.read(`${root.folder}/taken.txt`)).toBe('original');
    // Errors stay: still there after the 4 s a success message would last.
    await adminPage.waitForTimeout(4_500);
    await expect(toast).toBeVisible();
  });

  test('dialogs are offered only with the create permission', async ({ makeUser, pageAs }) => {
    const page = await pageAs(await makeUser({ perm: { create: false } }));
    await page.goto('files/');
    await expect(page.getByRole('link', { name: 'My files' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New file' })).toHaveCount(0);
  });

  test('Tab stays inside the open dialog', async ({ adminPage, root }) => {
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.getByRole('button', { name: 'New folder' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'New folder' });
    for (let step = 0; step < 5; step += 1) {
      await adminPage.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await adminPage.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  });
});
