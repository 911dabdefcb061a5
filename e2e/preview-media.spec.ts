import type { Page } from '@playwright/test';
import { expect, test, waitForApp, type RootFolder } from './fixtures';

const media = ['photo.jpg', 'clip.mp4', 'clip.vtt', 'tone.mp3', 'doc.pdf'];

function copyMedia(root: RootFolder & { folder: string }, names = media): void {
  for (const name of names) root.copyFixture(`media/${name}`, `${root.folder}/${name}`);
}

async function openPreview(page: Page, path: string): Promise<void> {
  await page.goto(`files/${path}`);
  await waitForApp(page);
  await expect(page.locator('.preview')).toBeVisible();
}

function previewTitle(page: Page) {
  return page.locator('.preview-bar__name');
}

test.describe('previews', () => {
  test('an image: thumbnail first, then the resized image, with zoom', async ({ adminPage, root }) => {
    copyMedia(root, ['photo.jpg']);
    const requested: string[] = [];
    adminPage.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await openPreview(adminPage, `${root.folder}/photo.jpg`);
    const image = adminPage.getByRole('img', { name: 'photo.jpg' });
    await expect(adminPage.locator('.image-viewer')).toHaveAttribute('data-loaded', 'true');
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    await expect(image).toHaveAttribute('src', /\/api\/preview\/big\/.*photo\.jpg\?inline=true&key=\d+/);
    expect(requested.some((path) => path.startsWith('/api/preview/thumb/'))).toBe(true);

    await adminPage.getByRole('button', { name: 'Zoom in' }).click();
    await expect(adminPage.getByRole('button', { name: 'Reset zoom' })).toHaveText('150%');
    await expect(image).toHaveAttribute('style', /scale\(1\.5\)/);
    // Past the resized image's detail, the original is fetched and swapped in.
    await adminPage.getByRole('button', { name: 'Zoom in' }).click();
    await expect(image).toHaveAttribute('src', /\/api\/raw\/.*photo\.jpg\?inline=true$/);
    await adminPage.getByRole('button', { name: 'Reset zoom' }).click();
    await expect(adminPage.getByRole('button', { name: 'Reset zoom' })).toHaveText('100%');
    const box = (await adminPage.locator('.image-viewer__box').boundingBox())!;
    await adminPage.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await adminPage.mouse.wheel(0, -400);
    await expect.poll(async () => Number((await adminPage.getByRole('button', { name: 'Reset zoom' }).textContent())?.replace('%', ''))).toBeGreaterThan(100);
  });

  test('a TIFF is shown through the server\u2019s conversion', async ({ adminPage, root }) => {
    root.copyFixture('media/scan.tiff', `${root.folder}/scan.tiff`);
    await openPreview(adminPage, `${root.folder}/scan.tiff`);
    const image = adminPage.getByRole('img', { name: 'scan.tiff' });
    await expect(adminPage.locator('.image-viewer')).toHaveAttribute('data-loaded', 'true');
    await expect(image).toHaveAttribute('src', /\/api\/preview\/big\//);
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  });

  test('a video with its subtitle track, audio and a PDF', async ({ adminPage, root }) => {
    copyMedia(root);
    await openPreview(adminPage, `${root.folder}/clip.mp4`);
    const video = adminPage.locator('video');
    await expect(video).toHaveAttribute('src', new RegExp(`/api/raw/${root.folder}/clip\\.mp4\\?inline=true$`));
    const track = video.locator('track');
    await expect(track).toHaveCount(1);
    await expect(track).toHaveAttribute('src', new RegExp(`/api/subtitle/${root.folder}/clip\\.vtt\\?inline=true$`));
    await expect(track).toHaveAttribute('kind', 'subtitles');
    // The browser loads the track and reads its cues.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.textTracks[0]?.cues?.length ?? 0)).toBeGreaterThan(0);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);

    await openPreview(adminPage, `${root.folder}/tone.mp3`);
    const audio = adminPage.locator('audio');
    await expect(audio).toHaveAttribute('src', /tone\.mp3\?inline=true$/);
    await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(1);

    const pdfResponse = adminPage.waitForResponse((response) => response.url().includes('doc.pdf?inline=true'));
    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    // The app fetches the file and shows it with its own viewer, in a frame with an opaque origin.
    const frame = adminPage.locator('iframe.media-player__frame');
    await expect(frame).toHaveAttribute('title', 'doc.pdf');
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
    const response = await pdfResponse;
    expect(response.status()).toBe(200);
    expect(response.request().frame()).toBe(adminPage.mainFrame());
    expect(await response.headerValue('content-type')).toContain('application/pdf');
    // Opened directly, the document could never script the app either: the server forbids script in it.
    expect(await response.headerValue('content-security-policy')).toContain("script-src 'none'");
    await expect(adminPage.locator('.media-player--pdf')).toHaveAttribute('data-status', 'shown');
    await expect(adminPage.frameLocator('iframe.media-player__frame').getByRole('img', { name: 'Page 1 of 1' })).toBeVisible();
  });

  test('arrow keys, buttons and swipes step through the folder; Escape goes back with the file selected', async ({ adminPage, root, server }) => {
    copyMedia(root);
    await openPreview(adminPage, `${root.folder}/clip.mp4`);
    // Folders and the text files the editor opens (clip.vtt) are skipped.
    await expect(previewTitle(adminPage)).toHaveText('clip.mp4');
    await expect(adminPage.locator('.preview-bar__counter')).toHaveText('1 of 4');
    await expect(adminPage.getByRole('button', { name: 'Previous file' })).toHaveCount(0);
    await adminPage.keyboard.press('ArrowRight');
    await expect(previewTitle(adminPage)).toHaveText('doc.pdf');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/doc.pdf`);
    await adminPage.keyboard.press('ArrowRight');
    await expect(previewTitle(adminPage)).toHaveText('photo.jpg');
    await adminPage.getByRole('button', { name: 'Next file' }).click();
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
    await expect(adminPage.getByRole('button', { name: 'Next file' })).toHaveCount(0);
    await adminPage.keyboard.press('ArrowRight');
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
    await adminPage.keyboard.press('ArrowLeft');
    await expect(previewTitle(adminPage)).toHaveText('photo.jpg');

    // A quick touch swipe to the left shows the next file, to the right the previous one.
    const swipe = async (fromX: number, toX: number) => {
      const box = (await adminPage.locator('.preview__stage').boundingBox())!;
      const y = box.y + box.height / 2;
      await adminPage.locator('.image-viewer__box').evaluate(
        (element, { startX, endX, y }) => {
          const fire = (type: string, x: number) =>
            element.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y }));
          fire('pointerdown', startX);
          fire('pointermove', (startX + endX) / 2);
          fire('pointermove', endX);
          fire('pointerup', endX);
        },
        { startX: box.x + fromX * box.width, endX: box.x + toX * box.width, y },
      );
    };
    await swipe(0.8, 0.2);
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
    await adminPage.keyboard.press('ArrowLeft');
    await expect(previewTitle(adminPage)).toHaveText('photo.jpg');
    await swipe(0.2, 0.8);
    await expect(previewTitle(adminPage)).toHaveText('doc.pdf');

    // Stepping replaced the history entry: Escape returns to the folder, the file selected.
    await adminPage.keyboard.press('Escape');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(adminPage.locator('[aria-selected="true"]')).toContainText('doc.pdf');
  });

  test('Escape pressed the moment the next file shows still returns with that file selected', async ({ adminPage, root, server }) => {
    copyMedia(root, ['photo.jpg', 'tone.mp3']);
    await openPreview(adminPage, `${root.folder}/photo.jpg`);
    await expect(previewTitle(adminPage)).toHaveText('photo.jpg');
    // The arrow steps once the folder's listing has told the preview which file comes next.
    await expect(adminPage.getByRole('button', { name: 'Next file' })).toBeVisible();
    // Escape goes in as soon as the title changes, before the screen's effects of the step have run.
    // The whole page is watched: the bar may be drawn anew rather than changed in place.
    await adminPage.evaluate(() => {
      new MutationObserver((_changes, observer) => {
        if (document.querySelector('.preview-bar__name')?.textContent !== 'tone.mp3') return;
        observer.disconnect();
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
      }).observe(document.body, { childList: true, characterData: true, subtree: true });
    });
    await adminPage.keyboard.press('ArrowRight');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`);
    await expect(adminPage.locator('[aria-selected="true"]')).toHaveCount(1);
    await expect(adminPage.locator('[aria-selected="true"]')).toContainText('tone.mp3');
  });

  test('delete moves on to the next file even when the folder listing arrives after the dialog opens', async ({ adminPage, root, server }) => {
    copyMedia(root, ['photo.jpg', 'tone.mp3']);
    // The folder's listing (the neighbours) is held back until the delete has been confirmed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await adminPage.route(
      (url) => url.pathname.endsWith(`/api/resources/${root.folder}/`),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await openPreview(adminPage, `${root.folder}/photo.jpg`);
    await adminPage.getByRole('button', { name: 'Delete' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Delete' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    release();
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/tone.mp3`);
    expect(root.exists(`${root.folder}/photo.jpg`)).toBe(false);
  });

  test('delete from the preview moves on to the next file, and back to the folder after the last', async ({ adminPage, root, server }) => {
    copyMedia(root, ['photo.jpg', 'tone.mp3']);
    await openPreview(adminPage, `${root.folder}/photo.jpg`);
    await adminPage.getByRole('button', { name: 'Delete' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Delete' });
    await expect(dialog).toContainText('photo.jpg');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/tone.mp3`);
    expect(root.exists(`${root.folder}/photo.jpg`)).toBe(false);

    // The Delete key asks too.
    await adminPage.locator('.preview').focus();
    await adminPage.keyboard.press('Delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`);
    expect(root.exists(`${root.folder}/tone.mp3`)).toBe(false);
  });

  test('rename shows the file under its new name; info and download are offered', async ({ adminPage, root, server }) => {
    copyMedia(root, ['photo.jpg', 'tone.mp3']);
    await openPreview(adminPage, `${root.folder}/photo.jpg`);
    await expect(adminPage.getByRole('link', { name: 'Download' })).toHaveAttribute('href', new RegExp(`/api/raw/${root.folder}/photo\\.jpg$`));

    await adminPage.getByRole('button', { name: 'Info' }).click();
    const info = adminPage.getByRole('dialog', { name: 'Information' });
    await expect(info).toContainText('photo.jpg');
    await adminPage.keyboard.press('Escape');
    await expect(info).toHaveCount(0);
    // Escape closed the dialog only, not the preview.
    await expect(previewTitle(adminPage)).toHaveText('photo.jpg');

    await adminPage.getByRole('button', { name: 'Rename' }).click();
    const rename = adminPage.getByRole('dialog', { name: 'Rename' });
    await rename.getByRole('textbox').fill('holiday.jpg');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/holiday.jpg`);
    await expect(previewTitle(adminPage)).toHaveText('holiday.jpg');
    expect(root.exists(`${root.folder}/holiday.jpg`)).toBe(true);
    expect(root.exists(`${root.folder}/photo.jpg`)).toBe(false);
    await adminPage.keyboard.press('ArrowRight');
    await expect(previewTitle(adminPage)).toHaveText('tone.mp3');
  });

  test('without permissions the actions are not offered', async ({ makeUser, pageAs, root }) => {
    copyMedia(root, ['photo.jpg']);
    const page = await pageAs(await makeUser({ perm: { delete: false, rename: false, share: false, download: false } }));
    await openPreview(page, `${root.folder}/photo.jpg`);
    await expect(page.getByRole('button', { name: 'Info' })).toBeVisible();
    for (const name of ['Delete', 'Rename', 'Share']) await expect(page.getByRole('button', { name })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Download' })).toHaveCount(0);
    await expect(page.getByText("You don't have permission to see this file's contents.")).toBeVisible();
  });

  test('a file without a preview gets a card with its download', async ({ adminPage, root }) => {
    root.write(`${root.folder}/data.bin`, Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0]));
    await openPreview(adminPage, `${root.folder}/data.bin`);
    await expect(adminPage.getByText('There is no preview for this kind of file.')).toBeVisible();
    await expect(adminPage.locator('.preview__card').getByRole('link', { name: 'Download' })).toHaveAttribute('href', /data\.bin$/);
  });
});
