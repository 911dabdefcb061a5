import fs from 'node:fs';
import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('public share page', () => {
  test('a shared file: details, preview, open and copy links, QR code; dark and narrow', async ({ browser, server, root }) => {
    test.setTimeout(60_000);
    const photo = fs.readFileSync(root.copyFixture('media/photo.jpg', `${root.folder}/photo.jpg`));
    const token = await server.adminToken();
    const created = await server.apiOk('POST', `/api/share/${encodeURIComponent(root.folder)}/photo.jpg`, { token, body: {} });
    const { hash } = (await created.json()) as { hash: string };

    const context = await browser.newContext({ colorScheme: 'dark', baseURL: server.url + '/' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const visitor = await context.newPage();
    await visitor.goto(`share/${hash}`);
    await waitForApp(visitor);
    const info = visitor.getByRole('region', { name: 'Download file' });
    await expect(info).toContainText('photo.jpg');
    await expect(info.getByRole('term')).toHaveText(['Last modified', 'Size']);
    await expect(info.getByRole('definition').nth(1)).toHaveText(/^\d+(\.\d+)? KiB$/);
    await expect(info.getByRole('link', { name: 'Download' })).toHaveAttribute('href', `/api/public/dl/${hash}`);
    const open = info.getByRole('link', { name: 'Open file' });
    await expect(open).toHaveAttribute('href', `/api/public/dl/${hash}?inline=true`);
    await expect(open).toHaveAttribute('target', '_blank');
    await expect(info.getByRole('img', { name: 'QR code of the download link' }).locator('svg')).toHaveAttribute('width', '200');
    const preview = visitor.getByRole('img', { name: 'photo.jpg' });
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expect(visitor.getByRole('button', { name: 'Select multiple' })).toHaveCount(0);
    expect(await seriousViolations(visitor)).toEqual([]);

    await visitor.getByRole('button', { name: 'Copy download link' }).click();
    await expect(visitor.locator('[data-sonner-toast][data-type="success"]')).toContainText('Link copied');
    const copied = await visitor.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${server.url}/api/public/dl/${hash}`);
    const response = await visitor.request.get(copied);
    expect(Buffer.from(await response.body()).equals(photo)).toBe(true);

    // Narrow screens: one column, nothing wider than the screen.
    await visitor.setViewportSize({ width: 375, height: 740 });
    await expect(info).toBeVisible();
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousViolations(visitor)).toEqual([]);
    await context.close();
  });

  test('a long folder shows 100 items and grows by 100; keyboard, multiple selection and video preview', async ({ browser, server, root }) => {
    test.setTimeout(60_000);
    const folder = `${root.folder}/many`;
    for (let index = 1; index <= 250; index += 1) root.write(`${folder}/f-${String(index).padStart(3, '0')}.txt`, `file ${index}`);
    root.copyFixture('media/clip.mp4', `${folder}/clip.mp4`);
    root.copyFixture('media/clip.en.srt', `${folder}/clip.en.srt`);
    const token = await server.adminToken();
    const created = await server.apiOk('POST', `/api/share/${encodeURIComponent(root.folder)}/many`, { token, body: { expires: '1', unit: 'hours' } });
    const { hash } = (await created.json()) as { hash: string };

    const context = await browser.newContext({ baseURL: server.url + '/' });
    const visitor = await context.newPage();
    await visitor.goto(`share/${hash}`);
    await waitForApp(visitor);
    const items = visitor.getByRole('listbox', { name: 'Shared items' });
    await expect(items.getByRole('option')).toHaveCount(100);
    await expect(visitor.getByRole('region', { name: 'Download folder' }).getByRole('definition')).toHaveText('252');
    await visitor.getByRole('button', { name: '+152 show more items' }).click();
    await expect(items.getByRole('option')).toHaveCount(200);
    await visitor.getByRole('button', { name: '+52 show more items' }).click();
    await expect(items.getByRole('option')).toHaveCount(252);
    await expect(visitor.getByRole('button', { name: /show more items/ })).toHaveCount(0);

    // Keyboard: arrows move, Space selects (the video shows with its subtitles), Escape clears.
    const first = items.getByRole('option').first();
    await first.focus();
    await expect(first).toHaveText(/^clip\.en\.srt/);
    await visitor.keyboard.press('ArrowDown');
    const clip = items.getByRole('option', { name: /^clip\.mp4/ });
    await expect(clip).toBeFocused();
    await visitor.keyboard.press('Space');
    await expect(clip).toHaveAttribute('aria-selected', 'true');
    const video = visitor.locator('video');
    await expect(video).toHaveAttribute('src', `/api/public/dl/${hash}/clip.mp4?inline=true`);
    const track = video.locator('track');
    await expect(track).toHaveAttribute('src', `/api/public/subtitle/${hash}/clip.en.srt?inline=true`);
    const subtitles = await visitor.request.get(`${server.url}/api/public/subtitle/${hash}/clip.en.srt?inline=true`);
    expect(await subtitles.text()).toMatch(/^WEBVTT/);
    await visitor.keyboard.press('Escape');
    await expect(clip).toHaveAttribute('aria-selected', 'false');
    await expect(video).toHaveCount(0);

    // Multiple selection: every click toggles; the header counts the selection.
    const selectMultiple = visitor.getByRole('button', { name: 'Select multiple' });
    await selectMultiple.click();
    await expect(selectMultiple).toHaveAttribute('aria-pressed', 'true');
    await expect(visitor.getByText('Multiple selection enabled')).toBeVisible();
    await items.getByRole('option', { name: /^f-001\.txt/ }).click();
    await items.getByRole('option', { name: /^f-003\.txt/ }).click();
    await items.getByRole('option', { name: /^f-002\.txt/ }).click();
    await items.getByRole('option', { name: /^f-003\.txt/ }).click();
    await expect(items.locator('[aria-selected="true"]')).toHaveText([/^f-001/, /^f-002/]);
    await expect(visitor.getByRole('button', { name: 'Download 2 selected' })).toBeVisible();
    await visitor.getByRole('button', { name: 'Done' }).click();
    await expect(selectMultiple).toHaveAttribute('aria-pressed', 'false');

    // Enter opens: a file gets its own page, with the player.
    await clip.focus();
    await visitor.keyboard.press('Enter');
    await expect(visitor).toHaveURL(`${server.url}/share/${hash}/clip.mp4`);
    await expect(visitor.getByRole('region', { name: 'Download file' })).toContainText('clip.mp4');
    await expect(visitor.locator('video')).toHaveAttribute('src', `/api/public/dl/${hash}/clip.mp4?inline=true`);
    await context.close();
  });
});
