import type { Page } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures';

/** Collects every alert/confirm/prompt the page opens. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

async function pageState(page: Page) {
  return page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    title: document.title,
    cookie: document.cookie,
    origin: window.location.origin,
  }));
}

test.describe('hostile files in the preview', () => {
  test('a scripted SVG is shown as a picture and its script never runs', async ({ adminPage, root, server }) => {
    root.copyFixture('hostile/script.svg', `${root.folder}/script.svg`);
    const dialogs = watchDialogs(adminPage);
    const requests: string[] = [];
    adminPage.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    const before = await pageState(adminPage);

    await adminPage.goto(`files/${root.folder}/script.svg`);
    await expect(adminPage.locator('.image-viewer')).toHaveAttribute('data-loaded', 'true');
    const image = adminPage.getByRole('img', { name: 'script.svg' });
    expect(await image.evaluate((element: HTMLImageElement) => element.tagName)).toBe('IMG');
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    // Nothing embeds it as a document (no frame, object or inline SVG).
    await expect(adminPage.locator('.preview iframe, .preview object, .preview embed, .preview svg script')).toHaveCount(0);
    await adminPage.waitForTimeout(500);
    const after = await pageState(adminPage);
    expect(after.pwned).toBeUndefined();
    // The SVG's onload would have renamed the page.
    expect(after.title).toBe(before.title);
    // The session is still the app's own (a start-up renewal replaces the token, nothing else does).
    expect(after.cookie).toMatch(/^auth=ey/);
    expect(await adminPage.evaluate(() => localStorage.getItem('jwt'))).toBe(after.cookie.replace(/^auth=/, ''));
    expect(after.origin).toBe(server.origin);
    expect(dialogs).toEqual([]);
    // The script's fetch of the user list never happened.
    expect(requests.filter((path) => path === '/api/users')).toEqual([]);
  });

  test('a scripted HTML page opens as source text, never as a page', async ({ adminPage, root }) => {
    root.copyFixture('hostile/script.html', `${root.folder}/script.html`);
    const dialogs = watchDialogs(adminPage);
    const requests: string[] = [];
    adminPage.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await adminPage.goto(`files/${root.folder}/script.html`);
    await waitForApp(adminPage);
    await expect(adminPage.locator('.ace_editor .ace_content')).toContainText('<script>window.__pwned = true;');
    await expect(adminPage.locator('.ace_editor')).toHaveClass(/ace_editor/);
    await adminPage.waitForTimeout(500);
    const state = await pageState(adminPage);
    expect(state.pwned).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(requests.filter((path) => path === '/api/users')).toEqual([]);
    await expect(adminPage.locator('iframe')).toHaveCount(0);
  });

  test('raw inline responses of active content are sandboxed by the server', async ({ adminPage, root, server }) => {
    root.copyFixture('hostile/script.svg', `${root.folder}/script.svg`);
    const dialogs = watchDialogs(adminPage);
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    // Even opened as a document of its own (what "open in a new tab" would do), the SVG cannot script.
    const response = await adminPage.goto(`${server.url}/api/raw/${root.folder}/script.svg?inline=true`);
    expect(await response!.headerValue('content-security-policy')).toContain('sandbox');
    await adminPage.waitForTimeout(300);
    expect(await adminPage.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await adminPage.title()).not.toBe('pwned');
    expect(dialogs).toEqual([]);
  });
});
