import { expect, test, waitForApp } from './fixtures';
import { seriousViolations } from './support/axe';

test.describe('preview accessibility (axe: no serious or critical violation)', () => {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 375],
  ] as const) {
    test(`image, video, audio, PDF and card previews, ${scheme}, ${width} px`, async ({ adminPage, root }) => {
      test.setTimeout(90_000);
      for (const name of ['photo.jpg', 'clip.mp4', 'clip.vtt', 'tone.mp3', 'doc.pdf']) root.copyFixture(`media/${name}`, `${root.folder}/${name}`);
      root.write(`${root.folder}/data.bin`, Buffer.from([0, 1, 2, 3, 0, 0]));
      await adminPage.emulateMedia({ colorScheme: scheme });
      await adminPage.setViewportSize({ width, height: 760 });
      const ready: Record<string, string> = {
        'photo.jpg': '.image-viewer[data-loaded="true"]',
        'clip.mp4': 'video',
        'tone.mp3': 'audio',
        // The viewer in the frame has the document open (axe checks inside the frame too).
        'doc.pdf': '.media-player--pdf[data-status="shown"] iframe',
        'data.bin': '.file-card',
      };
      for (const [name, selector] of Object.entries(ready)) {
        await adminPage.goto(`files/${root.folder}/${name}`);
        await waitForApp(adminPage);
        await expect(adminPage.locator(`.preview ${selector}`)).toBeVisible();
        expect(await seriousViolations(adminPage), name).toEqual([]);
      }
      await adminPage.goto(`files/${root.folder}/photo.jpg`);
      await adminPage.getByRole('button', { name: 'Delete' }).click();
      await expect(adminPage.getByRole('alertdialog')).toBeVisible();
      expect(await seriousViolations(adminPage)).toEqual([]);
    });
  }
});
