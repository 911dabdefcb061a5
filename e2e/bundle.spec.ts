import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, waitForApp } from './fixtures';
import { webDist } from './support/burrow-server';

/**
 * Start-up JavaScript as the browser fetches it, per screen: the login page (68.8 KB, with the
 * single sign-on button; the two-factor step loads only when needed) and the files screen, which
 * adds the signed-in layout and its own chunk (windowed listing, selection, actions; 85.4 KB).
 * React 18 and react-dom take about 44 KB of it. The web suite's budget test holds the two
 * screens' JavaScript and CSS together.
 */
const Budgets = { login: 70 * 1000, files: 87 * 1000 };

function gzippedSize(urlPath: string): number {
  const file = path.join(webDist, decodeURIComponent(urlPath.replace(/^.*?\/static\//, '')));
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

test.describe('bundle and page security', () => {
  for (const [label, screen, loggedIn, budget] of [
    ['login page', 'login', false, Budgets.login],
    ['files screen', 'files/', true, Budgets.files],
  ] as const) {
    test(`the JavaScript the ${label} loads stays under ${budget / 1000} KB gzipped`, async ({ page, adminPage }) => {
      const target = loggedIn ? adminPage : page;
      const scripts = new Set<string>();
      target.on('request', (request) => {
        const url = new URL(request.url());
        if (request.resourceType() === 'script' || url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await target.goto(screen);
      await waitForApp(target);
      await target.waitForLoadState('networkidle');
      const total = [...scripts].reduce((sum, script) => sum + gzippedSize(script), 0);
      test.info().annotations.push({ type: 'initial JavaScript (gzip)', description: `${(total / 1000).toFixed(1)} KB in ${scripts.size} files` });
      console.log(`${label}: initial JavaScript ${(total / 1000).toFixed(1)} KB gzipped in ${scripts.size} files`);
      expect(total).toBeLessThan(budget);
      // Heavy features stay out of the start-up path.
      for (const script of scripts) expect(script).not.toMatch(/ace|marked|qrcode|tus|purify|sonner/i);
    });
  }

  test('the editor comes as chunks of its own, loaded only when a text file opens', async ({ adminPage, root }) => {
    root.write(`${root.folder}/notes.md`, '# Notes\n\nplain text\n');
    const scripts: string[] = [];
    adminPage.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' || url.pathname.endsWith('.js')) scripts.push(url.pathname);
    });
    await adminPage.goto(`files/${root.folder}/`);
    await waitForApp(adminPage);
    await adminPage.waitForLoadState('networkidle');
    const listing = new Set(scripts);
    expect([...listing].some((script) => /ace/i.test(script))).toBe(false);
    await adminPage.getByRole('link', { name: 'notes.md' }).first().dblclick();
    await expect(adminPage.locator('.ace_editor')).toBeVisible();
    await adminPage.waitForLoadState('networkidle');
    const editorChunks = [...new Set(scripts)].filter((script) => !listing.has(script));
    expect(editorChunks.some((script) => /ace/i.test(script))).toBe(true);
    const sum = (list: Iterable<string>) => [...list].reduce((total, script) => total + gzippedSize(script), 0);
    const before = sum(listing);
    const added = sum(editorChunks);
    console.log(`text editor: ${(before / 1000).toFixed(1)} KB gzipped before a text file opens, ${((before + added) / 1000).toFixed(1)} KB with the editor's ${editorChunks.length} chunks (${(added / 1000).toFixed(1)} KB)`);
  });

  test('no built chunk carries the schema runtime', async () => {
    const assets = fs.readdirSync(path.join(webDist, 'assets')).filter((name) => name.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    for (const name of assets) {
      const text = fs.readFileSync(path.join(webDist, 'assets', name), 'utf8');
      expect(text, name).not.toContain('TypeBox.Kind');
    }
  });

  test('the page runs under the strict CSP with no inline script', async ({ page, server }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto('login');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    const html = await response!.text();
    for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
      expect(tag.includes(' src=') || tag.includes('type="application/json"'), tag).toBe(true);
    }
    await waitForApp(page);
    await page.getByLabel('Username').fill('admin');
    expect(violations).toEqual([]);
    // Hashed assets come precompressed and cached for good.
    const entry = /src="([^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(server.origin + entry, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });
});
