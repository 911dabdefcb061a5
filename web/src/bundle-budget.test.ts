// @vitest-environment node
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkOf, defaultDist, readBuild, startupPayload, StartupBudget, StartupScreens } from '../scripts/startup-payload.mjs';

/**
 * The start-up payload budget, checked on the built app in `web/dist`: `npm test` builds the web
 * app before this suite (scripts/run-tests.mjs), so it always sees the build of the code under
 * test. Without a build (a lone `vitest run`) there is nothing to measure and the checks skip.
 * `node bench/bundle-report.mjs` shows where the bytes go.
 */
const built = fs.existsSync(path.join(defaultDist, '.vite', 'manifest.json'));

describe.skipIf(!built)('start-up payload of the built web app', () => {
  it('finds the chunk of every start-up screen and translation', () => {
    const build = readBuild();
    for (const { modules } of StartupScreens) for (const moduleId of modules) expect(fs.existsSync(path.join(defaultDist, chunkOf(build, moduleId))), moduleId).toBe(true);
  });

  it(`the login page and the files screen load at most ${StartupBudget} bytes of JavaScript and CSS, gzipped`, () => {
    const payload = startupPayload(readBuild());
    const listing = payload.files.map((file) => `${file.file} ${file.gzip} (${file.reason})`).join('\n');
    expect(payload.files.filter((file) => file.kind === 'css').length, listing).toBeGreaterThan(0);
    expect(payload.gzip, `over the start-up budget:\n${listing}`).toBeLessThanOrEqual(StartupBudget);
  });

  it('keeps the editor, the PDF viewer, uploads, markdown, QR codes and toasts out of the start-up payload', () => {
    const build = readBuild();
    const payload = startupPayload(build);
    const modules = payload.files.flatMap((file) => Object.keys(build.chunks[file.file]?.modules ?? {}));
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((id) => /node_modules\/(ace-builds|pdfjs-dist|tus-js-client|marked|qrcode\.react|dompurify|sonner|i18next|react-i18next)\//.test(id))).toEqual([]);
  });
});
