import { chromium } from '@playwright/test';
const base = process.env.BASE ?? 'http://127.0.0.1:18080';
const pages = (process.env.PAGES ?? '/login,/files/,/settings/profile,/403').split(',');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const token = await (await fetch(base + '/api/login', { method: 'POST', body: JSON.stringify({ username: process.env.USER_NAME ?? 'admin', password: process.env.USER_PASSWORD ?? 'adminpassword123' }) })).text();
for (const scheme of (process.env.SCHEMES ?? 'light,dark').split(',')) {
  for (const [label, viewport] of [['desktop', { width: 1280, height: 800 }], ['mobile', { width: 375, height: 740 }]]) {
    if (process.env.ONLY && process.env.ONLY !== label) continue;
    const context = await browser.newContext({ viewport, colorScheme: scheme });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console', m.type(), m.text()); });
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    for (const entry of pages) {
      const [path, action] = entry.split('!');
      const anon = path.startsWith('/login');
      await page.goto(base + '/404');
      if (!anon) {
        await context.addCookies([{ name: 'auth', value: token, url: base }]);
        await page.evaluate((t) => localStorage.setItem('jwt', t), token);
      } else {
        await context.clearCookies();
        await page.evaluate(() => localStorage.clear());
      }
      await page.goto(base + path);
      await page.waitForTimeout(500);
      if (action === 'newfolder') { if (label === 'mobile') await page.locator('[aria-controls=sidebar]').click(); await page.getByRole('button', { name: 'New folder' }).click(); await page.waitForTimeout(400); }
      if (action === 'drawer') { await page.locator('[aria-controls=sidebar]').click(); await page.waitForTimeout(400); }
      if (action === 'badlogin') { await page.getByLabel('Username').fill('x'); await page.getByLabel('Password').fill('y'); await page.keyboard.press('Enter'); await page.waitForTimeout(600); }
      if (action === 'toast') { if (label === 'mobile') await page.locator('[aria-controls=sidebar]').click(); await page.getByRole('button', { name: 'New file' }).click(); await page.getByLabel('File name').fill('notes.txt'); await page.keyboard.press('Enter'); await page.waitForTimeout(1000); }
      const name = `${label}-${scheme}-${entry.replace(/[^a-z0-9]+/gi, '_')}.png`;
      await page.screenshot({ path: `/tmp/shots/${name}`, fullPage: false });
      console.log('shot', name, await page.title());
    }
    await context.close();
  }
}
await browser.close();
