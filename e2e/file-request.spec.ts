import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('file requests (upload-only links)', () => {
  test('the owner makes an upload link in the share dialog, a visitor drops two files, the owner finds them', async ({ adminPage, browser, server, root }, testInfo) => {
    test.setTimeout(90_000);
    root.write(`${root.folder}/inbox/already-here.txt`, 'private\n');

    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.getByRole('link', { name: 'inbox', exact: true }).click({ modifiers: ['ControlOrMeta'] });
    await adminPage.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Share “inbox”' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Upload-only link (file request)').check();
    await dialog.getByLabel('Note for uploaders (optional)').fill('Please send the signed forms.');
    await dialog.getByLabel('Largest file (MiB)').fill('5');
    await dialog.getByLabel('Number of files').fill('10');
    expect(await seriousViolations(adminPage, { include: '.dialog-stack' })).toEqual([]);
    await adminPage.screenshot({ path: testInfo.outputPath('dialog-form.png') });
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();

    const list = dialog.getByRole('list', { name: 'Share links' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Upload link');
    await expect(list).toContainText('No files received yet');
    const token = await server.adminToken();
    const [link] = (await (await server.apiOk('GET', `/api/share/${encodeURIComponent(root.folder)}/inbox/`, { token })).json()) as Array<{ hash: string; uploadOnly?: boolean }>;
    expect(link!.uploadOnly).toBe(true);
    const shareUrl = `${server.url}/share/${link!.hash}`;

    // A visitor with nothing but the link, in a fresh browser context.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(shareUrl);
    await waitForApp(visitor);
    await expect(visitor.getByRole('heading', { name: 'Send files to “inbox”' })).toBeVisible();
    await expect(visitor.getByText('Please send the signed forms.')).toBeVisible();
    await expect(visitor.getByText('Up to 5 MiB per file')).toBeVisible();
    // Nothing of what the folder holds is shown.
    await expect(visitor.getByText('already-here.txt')).toHaveCount(0);
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.screenshot({ path: testInfo.outputPath('drop-desktop.png'), fullPage: true });

    // The file picker opens from the keyboard.
    const choose = visitor.getByRole('button', { name: 'Choose files' });
    await choose.focus();
    const chooser = visitor.waitForEvent('filechooser');
    await choose.press('Enter');
    await (await chooser).setFiles([
      { name: 'form-a.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 first form\n') },
      { name: 'already-here.txt', mimeType: 'text/plain', buffer: Buffer.from('from the visitor\n') },
    ]);
    await expect(visitor.getByRole('status').filter({ hasText: 'Sent: 2. Failed: 0.' })).toBeVisible();
    await expect(visitor.getByRole('list', { name: 'Your uploads' }).getByRole('listitem')).toHaveCount(2);
    expect(await seriousViolations(visitor)).toEqual([]);
    await visitor.screenshot({ path: testInfo.outputPath('drop-desktop-done.png'), fullPage: true });

    // On a phone the page fits the screen.
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    await phone.goto(shareUrl);
    await waitForApp(phone);
    await expect(phone.getByRole('button', { name: 'Choose files' })).toBeVisible();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.screenshot({ path: testInfo.outputPath('drop-phone.png'), fullPage: true });
    await phoneContext.close();
    await visitorContext.close();

    // The owner finds both files; the taken name got a number rather than replacing the file.
    expect(root.read(`${root.folder}/inbox/form-a.pdf`)).toBe('%PDF-1.4 first form\n');
    expect(root.read(`${root.folder}/inbox/already-here(1).txt`)).toBe('from the visitor\n');
    expect(root.read(`${root.folder}/inbox/already-here.txt`)).toBe('private\n');
    await adminPage.keyboard.press('Escape');
    await adminPage.goto(`files/${root.folder}/inbox/`);
    await waitForApp(adminPage);
    await expect(adminPage.getByRole('link', { name: 'form-a.pdf', exact: true })).toBeVisible();
    await expect(adminPage.getByRole('link', { name: 'already-here(1).txt', exact: true })).toBeVisible();

    // And the link says what arrived.
    await adminPage.goto('settings/shares');
    await waitForApp(adminPage);
    await expect(adminPage.getByText('Files received: 2')).toBeVisible();
    await adminPage.screenshot({ path: testInfo.outputPath('owner-list.png'), fullPage: true });
  });
});
