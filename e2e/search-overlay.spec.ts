import type { Page } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

/** Scrolls the result list to its end, which shows the next window of results. */
async function scrollResultsToEnd(page: Page) {
  await page.getByRole('list', { name: 'Search results' }).evaluate((list) => {
    list.scrollTop = list.scrollHeight;
    list.dispatchEvent(new Event('scroll'));
  });
}

test.describe('search overlay', () => {
  test('a quick filter, streamed results, 50 more when scrolled, and Escape closes', async ({ adminPage, server, root }) => {
    test.setTimeout(90_000);
    const token = await server.adminToken();
    // Created through the API: Burrow's own writes reach the search index at once.
    const pictures = 123;
    for (let index = 0; index < pictures; index += 1) {
      const name = `pics/holiday-${String(index).padStart(3, '0')}.png`;
      await server.apiOk('POST', `/api/resources/${root.folder}/${name}?override=false`, { token, body: '' });
    }
    await server.apiOk('POST', `/api/resources/${root.folder}/holiday-notes.txt?override=false`, { token, body: 'not a picture' });
    await server.apiOk('POST', `/api/resources/${root.folder}/holiday-album/?override=false`, { token });

    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    const startUrl = adminPage.url();
    await adminPage.getByRole('button', { name: 'Search', exact: true }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Search' });
    await expect(dialog).toBeVisible();
    const input = dialog.getByRole('searchbox', { name: 'Search in this folder' });
    await expect(input).toBeFocused();

    // Empty text does nothing.
    await input.press('Enter');
    await expect(dialog.getByRole('status')).toHaveText('Press Enter to search.');

    await dialog.getByRole('button', { name: 'Pictures' }).click();
    await expect(input).toHaveValue('type:image ');
    await expect(dialog.getByRole('button', { name: 'Pictures' })).toHaveAttribute('aria-pressed', 'true');
    await input.pressSequentially('holiday');
    await input.press('Enter');
    await expect(dialog.getByRole('status')).toHaveText(`Results: ${pictures}`);

    const results = dialog.getByRole('list', { name: 'Search results' }).getByRole('link');
    await expect(results).toHaveCount(50);
    const first = results.first();
    await expect(first).toHaveAccessibleName('File ./pics/holiday-000.png');
    await expect(first).toHaveAttribute('href', `/files/${root.folder}/pics/holiday-000.png`);
    await expect(dialog.getByText('./holiday-notes.txt')).toHaveCount(0);
    await expect(dialog.getByText('./holiday-album')).toHaveCount(0);

    await scrollResultsToEnd(adminPage);
    // The list grows by 50 per scroll to the bottom; on a slow machine a second scroll event can
    // land before the new rows render, so the first step may already reach the end.
    await expect.poll(() => results.count()).toBeGreaterThan(50);
    expect([100, pictures]).toContain(await results.count());
    await scrollResultsToEnd(adminPage);
    await expect(results).toHaveCount(pictures);

    expect(await seriousViolations(adminPage)).toEqual([]);

    // The arrow keys move between the results and back to the box.
    await input.focus();
    await input.press('ArrowDown');
    await expect(first).toBeFocused();
    await first.press('ArrowDown');
    await expect(results.nth(1)).toBeFocused();
    await results.nth(1).press('ArrowUp');
    await first.press('ArrowUp');
    await expect(input).toBeFocused();

    // Changing the text clears the results.
    await input.press('End');
    await input.pressSequentially('-0');
    await expect(results).toHaveCount(0);
    await expect(dialog.getByRole('status')).toHaveText('Press Enter to search.');

    await adminPage.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(adminPage.url()).toBe(startUrl);
  });

  test('Ctrl+Shift+F opens it, folders are found, back closes it and a result opens its item', async ({ adminPage, server, root }) => {
    const token = await server.adminToken();
    await server.apiOk('POST', `/api/resources/${root.folder}/reports/2024/?override=false`, { token });
    await server.apiOk('POST', `/api/resources/${root.folder}/reports/2024/summary.txt?override=false`, { token, body: 'numbers' });

    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await expect(adminPage.getByRole('link', { name: /reports/ }).first()).toBeVisible();
    await adminPage.locator('body').click({ position: { x: 5, y: 200 } });
    await adminPage.keyboard.press('Control+Shift+F');
    const dialog = adminPage.getByRole('dialog', { name: 'Search' });
    await expect(dialog).toBeVisible();

    // The browser's back button closes the overlay and stays on the folder.
    await adminPage.goBack();
    await expect(dialog).toBeHidden();
    await expect(adminPage).toHaveURL(new RegExp(`/files/${root.folder}/$`));

    await adminPage.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(dialog).toBeVisible();
    const input = dialog.getByRole('searchbox');
    await input.fill('2024');
    await input.press('Enter');
    const folderResult = dialog.getByRole('link', { name: 'Folder ./reports/2024' });
    await expect(folderResult).toBeVisible();
    await expect(folderResult).toHaveAttribute('href', `/files/${root.folder}/reports/2024/`);

    await input.fill('summary');
    await input.press('Enter');
    await dialog.getByRole('link', { name: 'File ./reports/2024/summary.txt' }).click();
    await expect(dialog).toBeHidden();
    await expect(adminPage).toHaveURL(new RegExp(`/files/${root.folder}/reports/2024/summary\\.txt$`));
    // The overlay's history entry was replaced: back returns to where the search started.
    await adminPage.goBack();
    await expect(adminPage).toHaveURL(new RegExp(`/files/${root.folder}/$`));
    await expect(dialog).toBeHidden();
  });
});
