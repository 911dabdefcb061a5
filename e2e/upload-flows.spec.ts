import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { action, itemBox, itemLink, openFolder } from './files-helpers';

function tempTree(files: Record<string, string>): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-upload-'));
  for (const [relative, content] of Object.entries(files)) {
    const full = path.join(base, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return base;
}

async function openUploadDialog(page: Page) {
  await action(page, 'Upload').click();
  const dialog = page.getByRole('dialog', { name: 'Upload' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The panel shows the success mark once a batch is done. */
async function expectFinished(page: Page) {
  await expect(page.getByRole('region', { name: 'Upload progress' })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
}

test.describe('uploads', () => {
  let temp: string[] = [];
  test.afterEach(() => {
    for (const folder of temp) fs.rmSync(folder, { recursive: true, force: true });
    temp = [];
  });

  test('files chosen in the dialog land in the folder and the first is preselected', async ({ adminPage: page, root }) => {
    const local = tempTree({ 'one.txt': 'first file', 'two.txt': 'second' });
    temp.push(local);
    await openFolder(page, root.folder);
    await openUploadDialog(page);
    await page.getByTestId('upload-files-input').setInputFiles([path.join(local, 'one.txt'), path.join(local, 'two.txt')]);
    await expectFinished(page);
    await expect(itemLink(page, 'one.txt')).toBeVisible();
    await expect(itemLink(page, 'two.txt')).toBeVisible();
    await expect(itemBox(page, 'one.txt')).toHaveAttribute('aria-selected', 'true');
    expect(root.read(`${root.folder}/one.txt`)).toBe('first file');
    expect(root.read(`${root.folder}/two.txt`)).toBe('second');
  });

  test('a chosen folder keeps its structure', async ({ adminPage: page, root }) => {
    const local = tempTree({ 'album/a.txt': 'A', 'album/deep/b.txt': 'BB', 'album/deep/deeper/c.txt': 'CCC' });
    temp.push(local);
    await openFolder(page, root.folder);
    await openUploadDialog(page);
    await page.getByTestId('upload-folder-input').setInputFiles(path.join(local, 'album'));
    await expectFinished(page);
    await expect(itemLink(page, 'album')).toBeVisible();
    expect(root.read(`${root.folder}/album/a.txt`)).toBe('A');
    expect(root.read(`${root.folder}/album/deep/b.txt`)).toBe('BB');
    expect(root.read(`${root.folder}/album/deep/deeper/c.txt`)).toBe('CCC');
  });

  test('files dropped from the desktop go to the folder on screen, or into the folder dropped on', async ({ adminPage: page, root }) => {
    root.mkdir(`${root.folder}/inbox`);
    root.write(`${root.folder}/keep.txt`, 'k');
    await openFolder(page, root.folder);
    // A real DataTransfer, as a drop of plain files delivers it.
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped body'], 'dropped.txt', { type: 'text/plain' }));
      const target = document.querySelector('#main-content')!;
      target.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
      target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    });
    await expectFinished(page);
    await expect(itemLink(page, 'dropped.txt')).toBeVisible();
    expect(root.read(`${root.folder}/dropped.txt`)).toBe('dropped body');

    // A dropped folder arrives as file-system entries to walk; browsers only build those for a
    // real drag, so the drop carries stand-ins with the same interface.
    await page.evaluate(() => {
      type Entry = { isFile: boolean; isDirectory: boolean; name: string; fullPath: string } & Record<string, unknown>;
      const fileEntry = (name: string, body: string, parent: string): Entry => ({
        isFile: true,
        isDirectory: false,
        name,
        fullPath: `${parent}/${name}`,
        file: (done: (file: File) => void) => done(new File([body], name)),
      });
      const dirEntry = (name: string, parent: string, children: (path: string) => Entry[]): Entry => {
        const fullPath = `${parent}/${name}`;
        return {
          isFile: false,
          isDirectory: true,
          name,
          fullPath,
          createReader: () => {
            let given = false;
            return { readEntries: (done: (entries: Entry[]) => void) => done(given ? [] : ((given = true), children(fullPath))) };
          },
        };
      };
      const tree = dirEntry('photos', '', (parent) => [fileEntry('p1.txt', 'one', parent), dirEntry('raw', parent, (inner) => [fileEntry('p2.txt', 'two', inner)])]);
      const transfer = {
        types: ['Files'],
        files: [],
        dropEffect: 'none',
        items: [{ kind: 'file', webkitGetAsEntry: () => tree, getAsFile: () => null }],
      };
      const target = document.querySelector('[data-path$="/inbox"][data-dir="true"]')!;
      for (const type of ['dragover', 'drop']) {
        const event = new Event(type, { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: transfer });
        target.dispatchEvent(event);
      }
    });
    await expect.poll(() => root.exists(`${root.folder}/inbox/photos/raw/p2.txt`), { timeout: 15_000 }).toBe(true);
    expect(root.read(`${root.folder}/inbox/photos/p1.txt`)).toBe('one');
    expect(root.read(`${root.folder}/inbox/photos/raw/p2.txt`)).toBe('two');
    expect(root.exists(`${root.folder}/photos`)).toBe(false);
  });

  for (const [choice, expected, extra] of [
    ['Cancel', 'old', false],
    ['Continue', 'old', true],
    ['Replace', 'new', true],
  ] as const) {
    test(`a conflict answered with ${choice}`, async ({ adminPage: page, root }) => {
      root.write(`${root.folder}/same.txt`, 'old');
      const local = tempTree({ 'same.txt': 'new', 'other.txt': 'other' });
      temp.push(local);
      await openFolder(page, root.folder);
      await openUploadDialog(page);
      await page.getByTestId('upload-files-input').setInputFiles([path.join(local, 'same.txt'), path.join(local, 'other.txt')]);
      const replace = page.getByRole('dialog', { name: 'Replace files?' });
      await expect(replace).toBeVisible();
      await replace.getByRole('button', { name: choice, exact: true }).click();
      await expect(replace).toBeHidden();
      if (extra) {
        await expectFinished(page);
        await expect(itemLink(page, 'other.txt')).toBeVisible();
      } else {
        // Nothing was sent: give a stray request the time to arrive before looking.
        await page.waitForTimeout(500);
        await expect(page.getByRole('region', { name: 'Upload progress' })).toHaveCount(0);
      }
      expect(root.read(`${root.folder}/same.txt`)).toBe(expected);
      expect(root.exists(`${root.folder}/other.txt`)).toBe(extra);
    });
  }
});
