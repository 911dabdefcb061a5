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
    const isListing = (url: string) => url.includes('/api/resources/') && url.split('?')[0]!.endsWith('/big/');
    // The folder is asked for with its first items, then as a whole.
    const headAnswered = page.waitForResponse((response) => isListing(response.url()) && response.url().endsWith('?first=500'), { timeout: 120_000 });
    const wholeAnswered = page.waitForResponse((response) => isListing(response.url()) && !response.url().includes('?'), { timeout: 120_000 });
    // In the page: when the double click that opens the folder arrives.
    await page.evaluate(() => document.addEventListener('dblclick', () => ((window as unknown as { openedAt: number }).openedAt = performance.now()), { capture: true, once: true }));
    await itemLink(page, 'big').dblclick();
    // Checked on every frame, so no polling interval is added to the time.
    const shownAfter = await page.waitForFunction(
      (name) => document.querySelector(`[role="grid"] [data-item-link][aria-label="${name}"]`) !== null && Math.round(performance.now() - (window as unknown as { openedAt: number }).openedAt),
      nameOf(0),
      { polling: 'raf', timeout: 120_000 },
    );
    const firstRowsIn = Date.now() - opening;
    const firstRowsAfterClick = await shownAfter.jsonValue();
    await expect(itemLink(page, nameOf(0))).toBeVisible();
    const head = await (await headAnswered).json();
    expect(head).toMatchObject({ numDirs: 0, numFiles: EntryCount, partial: true });
    expect(head.items.map((item: { name: string }) => item.name)).toEqual(Array.from({ length: 500 }, (_, index) => nameOf(index)));
    // Every file is counted while the first ones show; the rest of the folder follows.
    await expect(page.locator('.files__meta')).toContainText(`0 folders · ${EntryCount.toLocaleString('en')} files`);
    await (await wholeAnswered).finished();
    await expect(page.getByText('Loading the rest of the folder…')).toHaveCount(0, { timeout: 120_000 });
    const wholeIn = Date.now() - opening;

    const report = `${EntryCount} entries: created in ${createdIn} ms; first rows ${firstRowsAfterClick} ms after the double click (${firstRowsIn} ms after the test began it), whole listing shown after ${wholeIn} ms`;
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

  test('a big folder shows its first items, counted in full, while the rest of its listing is held back', async ({ server, makeUser, pageAs, root }) => {
    const folder = root.mkdir(`${root.folder}/many`);
    for (let index = 0; index < 3; index++) fs.mkdirSync(path.join(folder, `dir-${String(index).padStart(2, '0')}`));
    for (let index = 0; index < 1200; index++) fs.closeSync(fs.openSync(path.join(folder, nameOf(index)), 'w'));
    const page = await pageAs(await filesUser(server, makeUser));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const whole = `**/api/resources/${root.folder}/many/`;
    await page.route(whole, async (route) => {
      await held;
      await route.continue();
    });

    await page.goto(`files/${root.folder}/many/`);
    // The first 500 items: every folder, then the first files; the counts are the folder's own.
    await expect(itemLink(page, 'dir-00')).toBeVisible();
    await expect(page.locator('.files__meta')).toContainText('3 folders · 1,200 files');
    await expect(page.getByRole('status').filter({ hasText: 'Loading the rest of the folder…' })).toBeVisible();
    await expect(listing(page).locator('.listing__group', { hasText: 'Files' })).toContainText('1,200');
    await page.screenshot({ path: test.info().outputPath('first-items.png') });
    await itemLink(page, 'dir-00').click();
    await page.keyboard.press('End');
    await expect(itemLink(page, nameOf(496))).toBeFocused();
    await expect(itemLink(page, nameOf(497))).toHaveCount(0);

    release();
    await expect(page.getByText('Loading the rest of the folder…')).toHaveCount(0);
    await page.keyboard.press('End');
    await expect(itemLink(page, nameOf(1199))).toBeFocused();
    await expect(page.locator('.files__meta')).toContainText('3 folders · 1,200 files');
    await page.unroute(whole);

    // Opened again, the folder is known: it is shown at once and refreshed as a whole.
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/resources/')) requests.push(new URL(request.url()).search);
    });
    await page.goto(`files/${root.folder}/`);
    await itemLink(page, 'many').dblclick();
    await expect(itemLink(page, nameOf(0))).toBeVisible();
    await expect.poll(() => requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.at(-1)).toBe('');
  });
});
