import fs from 'node:fs';
import path from 'node:path';

/** The repository's fixture folder (media, hostile files, filebrowser databases); tests copy from it, never serve it. */
export const FIXTURES = path.resolve(import.meta.dirname, '../../../../test-fixtures');

/** Copies a fixture (`media/photo.jpg`) into a test root, writable, under `target` (virtual-style). */
export function copyFixture(root: string, fixture: string, target = '/' + path.basename(fixture)): string {
  const destination = path.join(root, ...target.split('/').filter(Boolean));
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, fixture), destination);
  fs.chmodSync(destination, 0o644);
  return destination;
}

/** Writes a file (creating folders) below a test root. */
export function writeFile(root: string, target: string, content: string | Buffer): string {
  const destination = path.join(root, ...target.split('/').filter(Boolean));
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.writeFileSync(destination, content);
  return destination;
}
