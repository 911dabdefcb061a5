import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Download } from '@playwright/test';
import { expect, test } from './fixtures';
import { action, dialog, filesUser, itemLink, openFolder } from './files-helpers';

/** Every file below a folder by its relative path (with `/`), and its bytes in hex. */
function treeOf(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else files[child] = fs.readFileSync(path.join(folder, child)).toString('hex');
    }
  };
  walk('');
  return files;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

async function saved(download: Download, target: string): Promise<string> {
  await download.saveAs(target);
  expect(await download.failure()).toBeNull();
  return target;
}

test.describe('files screen: downloads', () => {
  test('one file downloads as it is; several items and the folder come as zip and tar.gz archives with the same contents', async ({ server, makeUser, pageAs, root }, testInfo) => {
    const here = `${root.folder}/pack`;
    const binary = randomBytes(96 * 1024);
    root.write(`${here}/a.txt`, 'alpha\n');
    root.write(`${here}/data.bin`, binary);
    root.write(`${here}/odd #%, name ✓.txt`, 'odd\n');
    root.write(`${here}/sub/c.txt`, 'gamma\n');
    root.write(`${here}/sub/deeper/d.txt`, 'delta\n');
    const page = await pageAs(await filesUser(server, makeUser));
    await openFolder(page, here);
    const formats = dialog(page, 'Download');

    // One file: no question, the file itself.
    await itemLink(page, 'data.bin').click();
    let download = page.waitForEvent('download');
    await action(page, 'Download').click();
    expect((await download).suggestedFilename()).toBe('data.bin');
    expect(fs.readFileSync(await saved(await download, testInfo.outputPath('data.bin'))).equals(binary)).toBe(true);
    await expect(formats).toHaveCount(0);

    // Several items, a folder and an awkward name among them, as a zip.
    await itemLink(page, 'sub').click();
    await itemLink(page, 'a.txt').click({ modifiers: ['ControlOrMeta'] });
    await itemLink(page, 'odd #%, name ✓.txt').click({ modifiers: ['ControlOrMeta'] });
    await expect(action(page, 'Download')).toContainText('3');
    await action(page, 'Download').click();
    await expect(formats.getByRole('group', { name: 'Archive formats' }).getByRole('button')).toHaveText(['zip', 'tar', 'tar.gz', 'tar.bz2', 'tar.xz', 'tar.lz4', 'tar.sz', 'tar.br', 'tar.zst']);
    download = page.waitForEvent('download');
    await formats.getByRole('button', { name: 'zip', exact: true }).click();
    await expect(formats).toHaveCount(0);
    expect((await download).suggestedFilename()).toMatch(/\.zip$/);
    const zip = await saved(await download, testInfo.outputPath('selection.zip'));
    const unzipped = testInfo.outputPath('unzipped');
    fs.mkdirSync(unzipped);
    run('unzip', ['-q', zip, '-d', unzipped]);
    expect(treeOf(unzipped)).toEqual({
      'a.txt': Buffer.from('alpha\n').toString('hex'),
      'odd #%, name ✓.txt': Buffer.from('odd\n').toString('hex'),
      'sub/c.txt': Buffer.from('gamma\n').toString('hex'),
      'sub/deeper/d.txt': Buffer.from('delta\n').toString('hex'),
    });

    // Nothing selected: Ctrl+S offers the whole folder; as tar.gz this time.
    await page.keyboard.press('Escape');
    await page.keyboard.press('ControlOrMeta+s');
    download = page.waitForEvent('download');
    await formats.getByRole('button', { name: 'tar.gz', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/\.tar\.gz$/);
    const tarball = await saved(await download, testInfo.outputPath('folder.tar.gz'));
    const untarred = testInfo.outputPath('untarred');
    fs.mkdirSync(untarred);
    run('tar', ['-xzf', tarball, '-C', untarred]);
    expect(treeOf(untarred)).toEqual(treeOf(root.resolve(here)));
  });
});
