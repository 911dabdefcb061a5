import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('editor accessibility (axe: no serious or critical violation)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`text and Markdown editor, discard dialog and too-large card, ${scheme}`, async ({ adminPage, root }) => {
      test.setTimeout(60_000);
      root.write(`${root.folder}/app.ts`, 'export const answer: number = 42;\n');
      root.write(`${root.folder}/readme.md`, '# Read me\n\nSome **bold** text and a [link](https://example.org).\n');
      root.write(`${root.folder}/huge.log`, Buffer.alloc(10 * 1024 * 1024 + 1, 'b'));
      await adminPage.emulateMedia({ colorScheme: scheme });

      await adminPage.goto(`files/${root.folder}/app.ts`);
      await waitForApp(adminPage);
      await expect(adminPage.locator('.ace_editor .ace_content')).toBeVisible();
      expect(await seriousViolations(adminPage)).toEqual([]);

      await adminPage.goto(`files/${root.folder}/readme.md`);
      await expect(adminPage.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Read me' })).toBeVisible();
      expect(await seriousViolations(adminPage)).toEqual([]);

      await adminPage.locator('.ace_text-input').focus();
      await adminPage.keyboard.type('x');
      await expect(adminPage.getByText('Unsaved changes')).toBeVisible();
      await adminPage.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My files' }).click();
      await expect(adminPage.getByRole('alertdialog', { name: 'Discard changes?' })).toBeVisible();
      expect(await seriousViolations(adminPage)).toEqual([]);
      await adminPage.getByRole('button', { name: 'Discard changes' }).click();

      await adminPage.goto(`files/${root.folder}/huge.log`);
      await expect(adminPage.getByText('This file is too large to open in the editor.')).toBeVisible();
      expect(await seriousViolations(adminPage)).toEqual([]);
    });
  }
});
