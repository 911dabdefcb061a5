import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/app.js';
import { createDownloadsService } from '../downloads/downloads.service.js';
import { copyFixture } from '../downloads/test-fixtures.js';
import { createPreviewsService } from './previews.service.js';
import { createThumbnailCache } from './thumbnail-cache.js';
import { createVideoFrames, type VideoFrames } from './video-frame.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  copyFixture(t.root, 'media/clip.mp4');
  copyFixture(t.root, 'media/photo.jpg');
});
afterEach(async () => {
  await t.close();
});

function service(videoFrames: VideoFrames) {
  const log = { warn: () => undefined };
  return createPreviewsService({
    config: { enableThumbs: true, resizePreview: true },
    downloads: createDownloadsService({ scopes: t.app.services.scopes }),
    cache: createThumbnailCache(t.config.cacheDir, log),
    videoFrames,
  });
}

const admin = async () => (await t.app.services.usersRepository.findByUsername('admin'))!;

describe('previews service', () => {
  it('answers 501 for video thumbnails when ffmpeg is not installed', async () => {
    const previews = service(createVideoFrames('/nonexistent/ffmpeg'));
    await expect(previews.preview(await admin(), 'thumb', '/clip.mp4')).rejects.toMatchObject({ status: 501 });
  });

  it('renders a frame once for concurrent requests and caches it', async () => {
    let extractions = 0;
    const frames: VideoFrames = {
      available: async () => true,
      async extract() {
        extractions++;
        // A still stands in for the frame, so this runs without ffmpeg too.
        const sharp = (await import('sharp')).default;
        return sharp({ create: { width: 640, height: 360, channels: 3, background: '#204060' } }).png().toBuffer();
      },
    };
    const previews = service(frames);
    const user = await admin();
    const results = await Promise.all([1, 2, 3].map(() => previews.preview(user, 'thumb', '/clip.mp4')));
    expect(extractions).toBe(1);
    for (const result of results) expect(result).toMatchObject({ kind: 'rendered', contentType: 'image/jpeg', name: 'clip.jpg' });
    await previews.preview(user, 'thumb', '/clip.mp4');
    expect(extractions).toBe(1);
  });
});
