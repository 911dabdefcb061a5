import type { Page } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures';

async function openAndEdit(page: Page, path: string, addition: string): Promise<void> {
  await page.goto(`files/${path}`);
  await waitForApp(page);
  await expect(page.locator('.ace_editor .ace_content')).toBeVisible();
  await page.locator('.ace_text-input').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(addition);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
}

/** The sidebar's link to the root folder: an in-app navigation away from the editor. */
function myFiles(page: Page) {
  return page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My files' });
}

test.describe('unsaved changes in the editor', () => {
  test('leaving through the app asks first: cancel stays, discard leaves the file as it was', async ({ adminPage, root, server }) => {
    const file = `${root.folder}/draft.txt`;
    root.write(file, 'draft');
    await openAndEdit(adminPage, file, ' plus edits');
    const fileUrl = `${server.url}/files/${file}`;

    await myFiles(adminPage).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Discard changes?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button')).toHaveText(['Cancel', 'Discard changes', 'Save changes']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(adminPage).toHaveURL(fileUrl);
    await expect(adminPage.getByText('Unsaved changes')).toBeVisible();

    // Escape is a cancel too.
    await myFiles(adminPage).click();
    await expect(dialog).toBeVisible();
    await adminPage.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(adminPage).toHaveURL(fileUrl);

    await myFiles(adminPage).click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/`);
    await expect(dialog).toHaveCount(0);
    expect(root.read(file)).toBe('draft');
  });

  test('save changes saves, then goes where the user was heading', async ({ adminPage, root, server }) => {
    const file = `${root.folder}/draft.txt`;
    root.write(file, 'draft');
    await openAndEdit(adminPage, file, ' saved on the way out');
    await myFiles(adminPage).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Discard changes?' });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/`);
    expect(root.read(file)).toBe('draft saved on the way out');
  });

  test('a failed save keeps the user in the editor', async ({ adminPage, root, server }) => {
    const file = `${root.folder}/draft.txt`;
    root.write(file, 'draft');
    await openAndEdit(adminPage, file, ' unsaved');
    await adminPage.route('**/api/resources/**', (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 403, body: '403 Forbidden' }) : route.fallback()));
    await myFiles(adminPage).click();
    await adminPage.getByRole('alertdialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage.locator('[data-sonner-toast][data-type="error"]')).toContainText('403 Forbidden');
    await expect(adminPage).toHaveURL(`${server.url}/files/${file}`);
    expect(root.read(file)).toBe('draft');
  });

  test('the browser\u2019s back button asks too', async ({ adminPage, root, server }) => {
    const file = `${root.folder}/back.txt`;
    root.write(file, 'back');
    // Arrive from the folder inside the app, so going back is an in-app navigation.
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.getByText('back.txt', { exact: true }).click();
    await adminPage.keyboard.press('Enter');
    await expect(adminPage).toHaveURL(`${server.url}/files/${file}`);
    await expect(adminPage.locator('.ace_editor .ace_content')).toBeVisible();
    await adminPage.locator('.ace_text-input').focus();
    await adminPage.keyboard.type('edited ');
    await expect(adminPage.getByText('Unsaved changes')).toBeVisible();
    await adminPage.evaluate(() => history.back());
    const dialog = adminPage.getByRole('alertdialog', { name: 'Discard changes?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${file}`);
    await expect(adminPage.getByText('Unsaved changes')).toBeVisible();

    await adminPage.evaluate(() => history.back());
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`);
    expect(root.read(file)).toBe('back');
  });

  test('closing the tab gets the browser\u2019s warning, and nothing is asked once saved', async ({ adminPage, root }) => {
    const file = `${root.folder}/tab.txt`;
    root.write(file, 'tab');
    await openAndEdit(adminPage, file, ' edited');
    const warning = new Promise<string>((resolve) => adminPage.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }));
    await adminPage.close({ runBeforeUnload: true });
    expect(await warning).toBe('beforeunload');
    expect(adminPage.isClosed()).toBe(false);

    await adminPage.keyboard.press('Control+s');
    await expect(adminPage.getByText('Unsaved changes')).toHaveCount(0);
    let asked = false;
    adminPage.on('dialog', () => {
      asked = true;
    });
    await myFiles(adminPage).click();
    await expect(adminPage.getByRole('alertdialog')).toHaveCount(0);
    await adminPage.close({ runBeforeUnload: true });
    await expect.poll(() => adminPage.isClosed()).toBe(true);
    expect(asked).toBe(false);
  });
});
