import type { Page } from '@playwright/test';
import { expect, test, waitForApp } from './fixtures';

/** The text in the ace editor on screen. */
function editorText(page: Page): Promise<string> {
  return page.evaluate(() => (document.querySelector('.ace_editor') as unknown as { env: { editor: { getValue(): string } } }).env.editor.getValue());
}

/** Types at the end of the document, as a user would after clicking into the editor. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('.ace_text-input').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

async function openEditor(page: Page, path: string): Promise<void> {
  await page.goto(`files/${path}`);
  await waitForApp(page);
  await expect(page.locator('.ace_editor .ace_content')).toBeVisible();
}

test.describe('text editor', () => {
  test('edit, save with the button and with Ctrl+S, reload and see the change', async ({ adminPage, root }) => {
    const file = `${root.folder}/notes.txt`;
    root.write(file, 'first line\n');
    await openEditor(adminPage, file);
    await expect.poll(() => editorText(adminPage)).toBe('first line\n');
    const save = adminPage.getByRole('button', { name: 'Save' });
    await expect(save).toBeVisible();

    await typeAtEnd(adminPage, 'second line');
    await expect(adminPage.getByText('Unsaved changes')).toBeVisible();
    await save.click();
    await expect(adminPage.locator('[data-sonner-toast][data-type="success"]')).toContainText('File saved');
    await expect(adminPage.getByText('Unsaved changes')).toHaveCount(0);
    expect(root.read(file)).toBe('first line\nsecond line');

    await typeAtEnd(adminPage, '\nthird line');
    await adminPage.keyboard.press('Control+s');
    await expect.poll(() => root.read(file)).toBe('first line\nsecond line\nthird line');
    await expect(adminPage.getByText('Unsaved changes')).toHaveCount(0);

    // Ctrl+S also saves while the focus is outside the text (and never downloads the file).
    await typeAtEnd(adminPage, '!');
    await adminPage.getByRole('button', { name: 'Find' }).focus();
    await adminPage.keyboard.press('Control+s');
    await expect.poll(() => root.read(file)).toBe('first line\nsecond line\nthird line!');

    await adminPage.reload();
    await expect(adminPage.locator('.ace_editor .ace_content')).toBeVisible();
    await expect.poll(() => editorText(adminPage)).toBe('first line\nsecond line\nthird line!');
  });

  test('a failed save keeps the changes and shows a lasting error', async ({ adminPage, root }) => {
    const file = `${root.folder}/keep.txt`;
    root.write(file, 'original');
    await openEditor(adminPage, file);
    await typeAtEnd(adminPage, ' edited');
    await adminPage.route('**/api/resources/**', (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 500, body: '500 Internal Server Error' }) : route.fallback()));
    await adminPage.getByRole('button', { name: 'Save' }).click();
    const toast = adminPage.locator('[data-sonner-toast][data-type="error"]');
    await expect(toast).toContainText('500 Internal Server Error');
    await expect(adminPage.getByText('Unsaved changes')).toBeVisible();
    expect(root.read(file)).toBe('original');
    await adminPage.waitForTimeout(4_500);
    await expect(toast).toBeVisible();
  });

  test('read-only without the modify permission', async ({ makeUser, pageAs, root }) => {
    const file = `${root.folder}/fixed.txt`;
    root.write(file, 'do not touch');
    const page = await pageAs(await makeUser({ perm: { modify: false } }));
    await openEditor(page, file);
    await expect(page.getByText('Read-only', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await typeAtEnd(page, 'typed');
    await page.keyboard.press('Control+s');
    await expect.poll(() => editorText(page)).toBe('do not touch');
    expect(root.read(file)).toBe('do not touch');
  });

  test('the user\u2019s editor theme, and the fallback for an unknown one', async ({ makeUser, pageAs, root, server }) => {
    root.write(`${root.folder}/style.css`, 'body { color: red; }\n');
    const user = await makeUser();
    const token = await user.token();
    const setTheme = (aceEditorTheme: string) =>
      server.apiOk('PUT', `/api/users/${user.id}`, { token, body: { what: 'user', which: ['aceEditorTheme'], data: { id: user.id, aceEditorTheme } } });

    await setTheme('monokai');
    const page = await pageAs(user);
    await openEditor(page, `${root.folder}/style.css`);
    await expect(page.locator('.ace_editor')).toHaveClass(/ace-monokai/);
    await expect(page.locator('.ace_editor .ace_keyword, .ace_editor .ace_support').first()).toBeVisible();

    await setTheme('no-such-theme');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.locator('.ace_editor')).toHaveClass(/ace-twilight/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('.ace_editor')).toHaveClass(/ace-chrome/);
  });

  test('search with ace\u2019s search box', async ({ adminPage, root }) => {
    root.write(`${root.folder}/find.txt`, 'alpha\nbeta\ngamma\nbeta again\n');
    await openEditor(adminPage, `${root.folder}/find.txt`);
    await adminPage.getByRole('button', { name: 'Find' }).click();
    const field = adminPage.getByRole('textbox', { name: 'Search for' });
    await expect(field).toBeVisible();
    await field.fill('beta');
    await expect(adminPage.locator('.ace_search_counter')).toContainText('of 2');
  });

  test('a large file opens quickly and stays responsive', async ({ adminPage, root }) => {
    test.setTimeout(60_000);
    const line = 'const value = "the quick brown fox jumps over the lazy dog"; // 0123456789\n';
    const size = 5 * 1024 * 1024;
    const text = line.repeat(Math.ceil(size / line.length)).slice(0, size);
    root.write(`${root.folder}/big.js`, text);
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    const started = Date.now();
    await adminPage.goto(`files/${root.folder}/big.js`);
    await expect(adminPage.locator('.ace_editor .ace_line').first()).toBeVisible({ timeout: 20_000 });
    const opened = Date.now() - started;
    const readyMs = await adminPage.locator('.editor-view').getAttribute('data-ready-ms');
    // Soft wrap would measure every line first: a text this large opens unwrapped.
    await expect(adminPage.getByRole('button', { name: 'Wrap long lines' })).toHaveAttribute('aria-pressed', 'false');
    // Typing at the end and jumping around must not stall the page.
    const typingStarted = Date.now();
    await typeAtEnd(adminPage, 'x');
    await adminPage.keyboard.press('Control+Home');
    await expect(adminPage.locator('.ace_gutter-active-line')).toHaveText('1');
    const typed = Date.now() - typingStarted;
    console.log(`5 MiB file: shown ${opened} ms after navigation (editor ready ${readyMs} ms after its chunk loaded); typing and jumping ${typed} ms`);
    test.info().annotations.push({ type: '5 MiB open', description: `${opened} ms` });
    expect(opened).toBeLessThan(10_000);
    expect(typed).toBeLessThan(2_000);
    await expect.poll(async () => (await editorText(adminPage)).length).toBe(size + 1);
  });

  test('a text file over the inline limit gets a download card', async ({ adminPage, root }) => {
    root.write(`${root.folder}/huge.log`, Buffer.alloc(10 * 1024 * 1024 + 10, 'a'));
    await adminPage.goto(`files/${root.folder}/huge.log`);
    await waitForApp(adminPage);
    await expect(adminPage.getByText('This file is too large to open in the editor.')).toBeVisible();
    await expect(adminPage.getByRole('link', { name: 'Download' }).last()).toHaveAttribute('href', /\/api\/raw\/.*huge\.log$/);
    await expect(adminPage.locator('.ace_editor')).toHaveCount(0);
  });

  test('Markdown renders beside the source without running anything', async ({ adminPage, root, server }) => {
    root.copyFixture('hostile/script.md', `${root.folder}/script.md`);
    const dialogs: string[] = [];
    adminPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openEditor(adminPage, `${root.folder}/script.md`);
    const preview = adminPage.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('heading', { name: 'Notes' })).toBeVisible();
    await expect(preview.getByText('Plain text, then raw HTML that must never run:')).toBeVisible();
    expect(await preview.locator('script, [onerror], [onload]').count()).toBe(0);
    const link = preview.getByText('a link');
    await expect(link).not.toHaveAttribute('href', /.+/);
    await link.click();
    await adminPage.waitForTimeout(500);
    expect(await adminPage.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(adminPage).toHaveURL(`${server.url}/files/${root.folder}/script.md`);

    // Editing updates the rendering.
    await typeAtEnd(adminPage, '\n\n## Added heading\n');
    await expect(preview.getByRole('heading', { name: 'Added heading' })).toBeVisible();
    // The preview can be hidden.
    await adminPage.getByRole('button', { name: 'Show or hide the preview' }).click();
    await expect(preview).toHaveCount(0);
  });
});
