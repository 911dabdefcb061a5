import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { action, filesUser, itemLink, listing, openFolder } from './files-helpers';
import { repositoryRoot } from './support/burrow-server';

/** Kept out of Playwright's own output folder, which every run empties, so they can be looked at afterwards. */
const shotsFolder = path.join(repositoryRoot, 'test-results/files-shots');

const views = [
  ['list', '.listing--list'],
  ['mosaic', '.listing--mosaic'],
  ['gallery', '.listing--mosaic-gallery'],
] as const;

/** Waits until every thumbnail in view has loaded (or failed and fallen back to its icon). */
async function thumbnailsSettled(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('img.tile__thumbnail').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)))
    .toBe(true);
}

test.describe('files screen: screenshots', () => {
  test('list, mosaic and gallery in light and dark at 1280 and 375 px', async ({ server, makeUser, pageAs, root }) => {
    test.setTimeout(90_000);
    fs.mkdirSync(shotsFolder, { recursive: true });
    const here = `${root.folder}/Holiday photos and documents`;
    root.mkdir(`${here}/Receipts`);
    root.mkdir(`${here}/A folder with a rather long name that has to be cut somewhere`);
    // Named so the pictures sort first and fill the gallery's first rows.
    const copies = { 'anim.gif': 'anim.gif', 'photo.jpg': 'beach.jpg', 'fractal.png': 'bloom.png', 'still.webp': 'city.webp', 'doc.pdf': 'doc.pdf', 'tone.mp3': 'tone.mp3', 'clip.mp4': 'film.mp4' };
    for (const [fixture, name] of Object.entries(copies)) root.copyFixture(`media/${fixture}`, `${here}/${name}`);
    root.write(`${here}/notes.md`, '# Notes\n');
    root.write(`${here}/zipped.zip`, Buffer.alloc(3 * 1024 * 1024));
    root.write(`${here}/the file name long enough to need more than one tile width to show in full.txt`, 'long');

    const page = await pageAs(await filesUser(server, makeUser));
    await page.setViewportSize({ width: 1280, height: 800 });
    await openFolder(page, here);
    await itemLink(page, 'bloom.png').click();

    const taken: string[] = [];
    for (const [index, [view, selector]] of views.entries()) {
      if (index > 0) await action(page, 'Switch view').click();
      await expect(page.locator(selector)).toBeVisible();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width > 700 ? 800 : 740 });
        await expect(listing(page)).toBeVisible();
        for (const theme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: theme });
          await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
          await thumbnailsSettled(page);
          const file = path.join(shotsFolder, `${view}-${theme}-${width}.png`);
          await page.screenshot({ path: file, animations: 'disabled' });
          taken.push(file);
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    for (const file of taken) expect(fs.statSync(file).size, file).toBeGreaterThan(5_000);
    test.info().annotations.push({ type: 'screenshots', description: taken.map((file) => path.relative(repositoryRoot, file)).join(', ') });
  });
});
