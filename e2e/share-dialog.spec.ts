import type { Download } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

async function saved(download: Download): Promise<Buffer> {
  return fs.readFileSync((await download.path())!);
}

/** Lists a zip's entries and reads one, with the standard unzip tool. */
function unzip(archive: Buffer, entry?: string): string {
  const file = `${fs.mkdtempSync('/tmp/share-e2e-')}/archive.zip`;
  fs.writeFileSync(file, archive);
  const result = spawnSync('unzip', entry ? ['-p', file, entry] : ['-Z1', file], { encoding: 'utf8', timeout: 10_000 });
  fs.rmSync(file, { force: true });
  if (result.status !== 0) throw new Error(`unzip failed: ${result.stderr}`);
  return result.stdout;
}

test.describe('share dialog and public link', () => {
  test('create a protected link in the dialog, open it anonymously, browse, download, then delete it', async ({ adminPage, browser, server, root }) => {
    test.setTimeout(90_000);
    const folder = `${root.folder}/docs`;
    root.write(`${folder}/readme.txt`, 'read me first\n');
    root.write(`${folder}/sub/inner.txt`, 'inner text\n');
    const photo = fs.readFileSync(root.copyFixture('media/photo.jpg', `${folder}/photo.jpg`));
    await adminPage.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });

    // The files screen's share action opens the dialog for the selected folder (ctrl-click selects).
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.getByRole('link', { name: 'docs', exact: true }).click({ modifiers: ['ControlOrMeta'] });
    await adminPage.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Share “docs”' });
    await expect(dialog).toBeVisible();
    // No link yet: the form shows at once, with the defaults.
    await expect(dialog.getByLabel('Duration')).toBeFocused();
    await expect(dialog.getByLabel('Duration')).toHaveValue('0');
    await expect(dialog.getByLabel('Unit')).toHaveValue('hours');
    expect(await seriousViolations(adminPage, { include: '.dialog-stack' })).toEqual([]);

    await dialog.getByLabel('Duration').fill('2');
    await dialog.getByLabel('Unit').selectOption('days');
    await dialog.getByLabel('Password (optional)').fill('  open sesame  ');
    const before = Math.floor(Date.now() / 1000);
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();

    const list = dialog.getByRole('list', { name: 'Share links' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Expires in 2 days');
    await expect(list).toContainText('Password protected');
    expect(await seriousViolations(adminPage, { include: '.dialog-stack' })).toEqual([]);

    const token = await server.adminToken();
    const links = (await (await server.apiOk('GET', `/api/share/${encodeURIComponent(root.folder)}/docs/`, { token })).json()) as Array<{ hash: string; expire: number; hasPassword: boolean }>;
    expect(links).toHaveLength(1);
    const [link] = links;
    expect(link!.hasPassword).toBe(true);
    expect(link!.expire).toBeGreaterThanOrEqual(before + 2 * 86400);
    expect(link!.expire).toBeLessThanOrEqual(before + 2 * 86400 + 60);
    const shareUrl = `${server.url}/share/${link!.hash}`;
    await expect(list.getByRole('link', { name: link!.hash })).toHaveAttribute('href', shareUrl);

    await list.getByRole('button', { name: 'Copy link' }).click();
    await expect(adminPage.locator('[data-sonner-toast][data-type="success"]')).toContainText('Link copied');
    expect(await adminPage.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);

    // A visitor with nothing but the link, in a fresh browser context.
    const visitorContext = await browser.newContext({ acceptDownloads: true });
    const visitor = await visitorContext.newPage();
    await visitor.goto(shareUrl);
    await waitForApp(visitor);
    const password = visitor.getByLabel('Password', { exact: true });
    await expect(password).toBeFocused();
    expect(await seriousViolations(visitor)).toEqual([]);
    await password.fill('open sesame!');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    await expect(visitor.getByRole('alert')).toHaveText('Wrong password. Try again.');
    await expect(password).toHaveValue('open sesame!');
    // The password was trimmed when the link was made; Enter submits too.
    await password.fill('open sesame');
    await password.press('Enter');

    const info = visitor.getByRole('region', { name: 'Download folder' });
    await expect(info).toBeVisible();
    await expect(info).toContainText('docs');
    await expect(info.getByRole('definition')).toHaveText('3');
    const qr = info.getByRole('img', { name: 'QR code of the download link' });
    await expect(qr.locator('svg')).toHaveAttribute('width', '100');
    const items = visitor.getByRole('listbox', { name: 'Shared items' });
    await expect(items.getByRole('option')).toHaveText([/^sub/, /^photo\.jpg/, /^readme\.txt/]);
    expect(await seriousViolations(visitor)).toEqual([]);

    // Selecting an image previews it.
    await items.getByRole('option', { name: /^photo\.jpg/ }).click();
    const preview = visitor.getByRole('img', { name: 'photo.jpg' });
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    // The whole folder as a zip: the format is asked first.
    await info.getByRole('button', { name: 'Download' }).click();
    const formats = visitor.getByRole('dialog', { name: 'Download' });
    await expect(formats.getByRole('button')).toHaveCount(10);
    const [folderZip] = await Promise.all([visitor.waitForEvent('download'), formats.getByRole('button', { name: 'zip', exact: true }).click()]);
    const zip = await saved(folderZip);
    expect(unzip(zip).split('\n').filter(Boolean).sort()).toEqual(['photo.jpg', 'readme.txt', 'sub/', 'sub/inner.txt']);
    expect(unzip(zip, 'readme.txt')).toBe('read me first\n');
    expect(unzip(zip, 'sub/inner.txt')).toBe('inner text\n');

    // Two selected items (ctrl-click) as a tar.gz, through the header's download with its counter.
    await items.getByRole('option', { name: /^readme\.txt/ }).click({ modifiers: ['Control'] });
    const headerDownload = visitor.getByRole('button', { name: 'Download 2 selected' });
    await expect(headerDownload).toContainText('2');
    await headerDownload.click();
    const [selectionArchive] = await Promise.all([visitor.waitForEvent('download'), formats.getByRole('button', { name: 'tar.gz' }).click()]);
    const tarFile = `${fs.mkdtempSync('/tmp/share-e2e-')}/selection.tar.gz`;
    fs.writeFileSync(tarFile, await saved(selectionArchive));
    const listing = spawnSync('tar', ['-tzf', tarFile], { encoding: 'utf8', timeout: 10_000 });
    fs.rmSync(tarFile, { force: true });
    expect(listing.stdout.split('\n').filter(Boolean).sort()).toEqual(['photo.jpg', 'readme.txt']);

    // Into the subfolder (double click), then one file straight from the header.
    await items.getByRole('option', { name: /^sub/ }).dblclick();
    await expect(visitor).toHaveURL(`${shareUrl}/sub/`);
    await expect(visitor.getByRole('navigation', { name: 'Location in the shared folder' })).toContainText('docs');
    const inner = visitor.getByRole('listbox', { name: 'Shared items' }).getByRole('option', { name: /^inner\.txt/ });
    await inner.click();
    await expect(inner).toHaveAttribute('aria-selected', 'true');
    const [single] = await Promise.all([visitor.waitForEvent('download'), visitor.getByRole('button', { name: 'Download 1 selected' }).click()]);
    expect(single.suggestedFilename()).toBe('inner.txt');
    expect((await saved(single)).toString()).toBe('inner text\n');
    expect(new URL(single.url()).pathname).toBe(`/api/public/dl/${link!.hash}/sub/inner.txt`);
    expect(new URL(single.url()).searchParams.get('token')).toMatch(/^[\w-]{20,}$/);

    // A file page inside the folder: its own download button, the bytes unchanged.
    await visitor.goto(`${shareUrl}/photo.jpg`);
    await password.fill('open sesame');
    await password.press('Enter');
    const fileInfo = visitor.getByRole('region', { name: 'Download file' });
    const [photoDownload] = await Promise.all([visitor.waitForEvent('download'), fileInfo.getByRole('link', { name: 'Download' }).click()]);
    expect((await saved(photoDownload)).equals(photo)).toBe(true);

    // The owner deletes the link (with a confirmation); the dialog goes back to the form.
    await adminPage.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await adminPage.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete link' }).click();
    const confirm = adminPage.getByRole('alertdialog', { name: 'Delete share link' });
    await expect(confirm.getByRole('button', { name: 'Delete' })).toBeVisible();
    expect(await seriousViolations(adminPage, { include: '.dialog-stack' })).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(dialog.getByLabel('Duration')).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Share links' })).toHaveCount(0);

    await visitor.goto(shareUrl);
    await expect(visitor.getByRole('alert')).toHaveAttribute('data-status', '404');
    await expect(visitor.getByText("This location can't be reached.")).toBeVisible();
    await visitorContext.close();
  });
});
