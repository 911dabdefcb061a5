import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:18080';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const token = await (await fetch(base + '/api/login', { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'adminpassword123' }) })).text();
const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
const page = await context.newPage();
page.on('response', (r) => { if (r.url().includes('/api/')) console.log(r.request().method(), r.url(), r.status()); });
page.on('framenavigated', (f) => { if (f === page.mainFrame()) console.log('nav', f.url()); });
for (const path of ['/files/Documents/notes.txt', '/files/Photos/']) {
  console.log('---', path);
  await page.goto(base + '/404');
  await context.addCookies([{ name: 'auth', value: token, url: base }]);
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
  await page.goto(base + path);
  await page.waitForTimeout(800);
  console.log('url', page.url());
}
await browser.close();
