import { expect, test } from './fixtures';

test.describe('languages', () => {
  test("the user's locale sets the interface language and direction", async ({ server, makeUser, pageAs }) => {
    const user = await makeUser();
    const page = await pageAs(user);
    await page.goto('files/');
    const sidebar = page.getByRole('navigation', { name: 'Main menu' });
    await expect(sidebar.getByRole('link', { name: 'My files' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');

    await server.setLocale(user, 'de');
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Meine Dateien' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page).toHaveTitle('Dateien - Burrow');

    await server.setLocale(user, 'ar');
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'القائمة الرئيسية' }).getByRole('link', { name: 'ملفاتي' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');

    await server.setLocale(user, 'he');
    await page.reload();
    await expect(page.getByRole('button', { name: 'התנתקות' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    await server.setLocale(user, 'zh-tw');
    await page.reload();
    await expect(page.getByRole('button', { name: '登出' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  });

  test('only the active translation is downloaded', async ({ server, makeUser, pageAs }) => {
    const user = await makeUser();
    await server.setLocale(user, 'ja');
    const page = await pageAs(user);
    const localeChunks: string[] = [];
    page.on('request', (request) => {
      const name = request.url().split('/').pop() ?? '';
      if (/^(ar|ca|cs|de|el|en|es|fr|he|hu|is|it|ja|ko|nl-be|no|pl|pt|pt-br|ro|ru|sk|sv-se|tr|uk|vi|zh-cn|zh-tw)-[\w-]+\.js$/.test(name)) localeChunks.push(name.replace(/-[\w-]+\.js$/, ''));
    });
    await page.goto('files/');
    await expect(page.getByRole('button', { name: 'ログアウト' })).toBeVisible();
    expect(localeChunks).toEqual(['ja']);
  });

  test("visitors get the browser's language", async ({ browser, server }) => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
    await expect(page.getByLabel("Nom d'utilisateur")).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await context.close();
  });
});
