import type { Page } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';
import { dialog, filesUser, itemLink, listing } from './files-helpers';

const toast = (page: Page, text: string) => page.locator(`[data-sonner-toast][data-type="success"]:has-text("${text}")`);

function trashTable(page: Page) {
  return page.getByRole('table', { name: 'Trash' });
}

function trashRow(page: Page, name: string) {
  return trashTable(page).getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

/** The user's home folder in the files screen, once its listing is shown. */
async function openHome(page: Page): Promise<void> {
  await page.goto('files/');
  await waitForApp(page);
  await expect(listing(page)).toBeVisible();
}

async function deleteFromListing(page: Page, name: string): Promise<void> {
  await itemLink(page, name).click();
  await page.keyboard.press('Delete');
  await dialog(page, 'Delete').getByRole('button', { name: 'Delete' }).click();
  await expect(itemLink(page, name)).toHaveCount(0);
}

test.describe('trash', () => {
  // One long flow through every action of the screen.
  test.describe.configure({ timeout: 120_000 });

  test('deleted items wait in the trash: restore, delete forever and empty it', async ({ server, makeUser, pageAs, root }) => {
    const here = root.folder;
    root.write(`${here}/notes.txt`, 'my notes');
    root.write(`${here}/draft.md`, 'draft');
    root.write(`${here}/photos/cat.jpg`, 'jpg');
    root.write(`${here}/old.log`, 'log');
    const page = await pageAs(await filesUser(server, makeUser, { scope: `/${here}` }));

    await page.goto('trash');
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible();
    await expect(page.getByText('The trash is empty')).toBeVisible();
    expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' })).toEqual([]);

    await openHome(page);
    for (const name of ['notes.txt', 'photos', 'draft.md', 'old.log']) await deleteFromListing(page, name);
    expect(root.exists(`${here}/notes.txt`)).toBe(false);

    // Reached from the sidebar; newest first.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Trash' }).click();
    await expect(page).toHaveURL(/\/trash$/);
    await expect(trashTable(page).getByRole('columnheader')).toHaveText(['Name', 'Deleted', 'Size', 'Actions']);
    await expect(trashRow(page, 'notes.txt')).toContainText('/notes.txt');
    await expect(page.getByText('4 items')).toBeVisible();
    expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' })).toEqual([]);

    // Sorting by name, both ways.
    const names = () => trashTable(page).locator('.trash__name').allTextContents();
    await trashTable(page).getByRole('button', { name: 'Name' }).click();
    await expect.poll(names).toEqual(['draft.md', 'notes.txt', 'old.log', 'photos']);
    await trashTable(page).getByRole('button', { name: 'Name' }).click();
    await expect.poll(names).toEqual(['photos', 'old.log', 'notes.txt', 'draft.md']);

    // Restore goes back to where the item was.
    await trashRow(page, 'notes.txt').getByRole('button', { name: 'Restore' }).click();
    await expect(toast(page, 'Restored to /notes.txt')).toBeVisible();
    await expect(trashRow(page, 'notes.txt')).toHaveCount(0);
    expect(root.read(`${here}/notes.txt`)).toBe('my notes');

    // When the place is taken, the usual question: keep both.
    root.write(`${here}/draft.md`, 'a newer draft');
    await trashRow(page, 'draft.md').getByRole('button', { name: 'Restore' }).click();
    const question = dialog(page, 'Replace or rename?');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Rename' }).click();
    await expect(toast(page, 'Restored to /draft(1).md')).toBeVisible();
    expect(root.read(`${here}/draft(1).md`)).toBe('draft');
    expect(root.read(`${here}/draft.md`)).toBe('a newer draft');

    // Delete forever asks first; Cancel keeps the item.
    await trashRow(page, 'old.log').getByRole('button', { name: 'Delete forever' }).click();
    const confirm = dialog(page, 'Delete forever?');
    await expect(confirm).toContainText('“old.log” will be deleted for good.');
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    expect(await seriousViolations(page, { exclude: '[data-sonner-toaster]' })).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(trashRow(page, 'old.log')).toHaveCount(1);
    await trashRow(page, 'old.log').getByRole('button', { name: 'Delete forever' }).click();
    await confirm.getByRole('button', { name: 'Delete forever' }).click();
    await expect(trashRow(page, 'old.log')).toHaveCount(0);
    await expect(trashRow(page, 'photos')).toHaveCount(1);

    // Empty trash takes the rest.
    await page.getByRole('button', { name: 'Empty trash' }).click();
    await dialog(page, 'Empty the trash?').getByRole('button', { name: 'Empty trash' }).click();
    await expect(toast(page, 'The trash is empty now')).toBeVisible();
    await expect(page.getByText('The trash is empty', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Empty trash' })).toHaveCount(0);

    await openHome(page);
    await expect(itemLink(page, 'notes.txt')).toBeVisible();
    await expect(itemLink(page, 'photos')).toHaveCount(0);
  });
});
