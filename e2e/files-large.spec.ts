import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { filesUser, itemLink, listing, openFolder } from './files-helpers';

const EntryCount = 100_000;
/** Windowing keeps the rendered rows to what fills the viewport plus a small margin. */
const MostRowsInDom = 300;

const nameOf = (index: number) => `entry-${String(index).padStart(6, '0')}.txt`;

test.describe('files screen: a very large folder', () => {
  test(`a folder of ${EntryCount.toLocaleString('en')} entries opens, stays windowed and scrolls to its end`, async ({ server, makeUser, pageAs, root }) => {
    // Two slow shared cores in CI: generous, and nothing below is a timed assertion.
    test.setTimeout(180_000);
    const big = root.mkdir(`${root.folder}/big`);
    const creating = Date.now();
    for (let index = 0; index < EntryCount; index += 1) fs.closeSync(fs.openSync(path.join(big, nameOf(index)), 'w'));
    const createdIn = Date.now() - creating;

    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, root.folder);
    const rows = listing(page).locator('[role="row"]');

    const opening = Date.now();
    const answered = page.waitForResponse((response) => response.url().endsWith('/big/') && response.url().includes('/api/resources/'), { timeout: 120_000 });
    await itemLink(page, 'big').dblclick();
    const response = await answered;
    await response.finished();
    const listedIn = Date.now() - opening;
    await expect(itemLink(page, nameOf(0))).toBeVisible({ timeout: 120_000 });
    const firstRowsIn = Date.now() - opening;

    const report = `${EntryCount} entries: created in ${createdIn} ms; listing received after ${listedIn} ms, first rows ${firstRowsIn} ms after opening the folder`;
    console.log(report);
    test.info().annotations.push({ type: 'large folder', description: report });

    await expect(page.locator('.files__meta')).toContainText(`0 folders · ${EntryCount.toLocaleString('en')} files`);
    expect(await rows.count()).toBeLessThanOrEqual(MostRowsInDom);
    // The page is as tall as the whole list would be.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(EntryCount * 40);

    // End goes to the last entry, which gets the focus and the selection.
    await itemLink(page, nameOf(0)).click();
    await page.keyboard.press('End');
    const last = itemLink(page, nameOf(EntryCount - 1));
    await expect(last).toBeVisible();
    await expect(last).toBeFocused();
    await expect(last.locator('xpath=ancestor::*[@aria-selected][1]')).toHaveAttribute('aria-selected', 'true');
    await expect(itemLink(page, nameOf(0))).toHaveCount(0);
    expect(await rows.count()).toBeLessThanOrEqual(MostRowsInDom);

    // Scrolling by hand back up through the middle renders the rows found there.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await expect.poll(async () => (await listing(page).locator('[data-item-link]').first().getAttribute('aria-label')) ?? '').toMatch(/^entry-04\d{4}\.txt$|^entry-05\d{4}\.txt$/);
    expect(await rows.count()).toBeLessThanOrEqual(MostRowsInDom);
  });
});
