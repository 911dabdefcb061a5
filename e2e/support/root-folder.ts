import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's test fixtures, in `test-fixtures/` at its root. */
export const fixturesFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-fixtures');

/**
 * Files in the server's root folder, addressed by paths relative to it ("docs/a.txt").
 * Helpers refuse paths that would leave the root.
 */
export class RootFolder {
  constructor(readonly path: string) {}

  resolve(relative: string): string {
    const full = path.resolve(this.path, relative.replace(/^\/+/, ''));
    if (full !== this.path && !full.startsWith(this.path + path.sep)) throw new Error(`${relative} is outside the root`);
    return full;
  }

  write(relative: string, content: string | Buffer = ''): string {
    const full = this.resolve(relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    return full;
  }

  mkdir(relative: string): string {
    const full = this.resolve(relative);
    fs.mkdirSync(full, { recursive: true });
    return full;
  }

  read(relative: string): string {
    return fs.readFileSync(this.resolve(relative), 'utf8');
  }

  exists(relative: string): boolean {
    return fs.existsSync(this.resolve(relative));
  }

  isDirectory(relative: string): boolean {
    return fs.statSync(this.resolve(relative), { throwIfNoEntry: false })?.isDirectory() ?? false;
  }

  /** Copies a file from the shared test media (`media/photo.jpg`, `hostile/script.svg` …). */
  copyFixture(fixture: string, relative = path.basename(fixture)): string {
    const full = this.resolve(relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.copyFileSync(path.join(fixturesFolder, fixture), full);
    return full;
  }
}
