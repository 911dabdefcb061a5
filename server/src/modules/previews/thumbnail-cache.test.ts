import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createThumbnailCache, type CacheKey } from './thumbnail-cache.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const quiet = { warn: () => undefined };

describe('thumbnail cache shared by instances', () => {
  it('survives writers of one entry racing through two caches over one folder; readers never see part of a file', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-thumbs-'));
    // Two instances' caches over one shared cache folder.
    const caches = [createThumbnailCache(dir, quiet), createThumbnailCache(dir, quiet)];
    const key: CacheKey = { real: '/srv/photo.jpg', size: 1234, mtimeNs: 5678n, variant: 'thumb', extension: '.jpg' };
    const renderings = Array.from({ length: 6 }, (_, index) => Buffer.alloc(512 * 1024 + index, index + 1));
    const valid = new Set(renderings.map((data) => data.toString('base64')));
    let reading = true;
    const seen: Array<Buffer | undefined> = [];
    const reader = (async () => {
      while (reading) {
        seen.push(await caches[1]!.get(key));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(renderings.flatMap((data, index) => [caches[index % 2]!.put(key, data), caches[(index + 1) % 2]!.put(key, data)]));
    reading = false;
    await reader;
    const final = await caches[0]!.get(key);
    expect(final && valid.has(final.toString('base64'))).toBe(true);
    for (const data of seen) if (data) expect(valid.has(data.toString('base64'))).toBe(true);
    // Nothing is left behind but the entry and the record of its source.
    const folder = path.dirname(path.join(dir, 'thumbs', fs.readdirSync(path.join(dir, 'thumbs'))[0]!, 'x'));
    const [entryFolder] = fs.readdirSync(folder);
    expect(fs.readdirSync(path.join(folder, entryFolder!)).sort()).toEqual(['source', expect.stringMatching(/^thumb-[0-9a-f]{24}\.jpg$/)]);
    expect(fs.readFileSync(path.join(folder, entryFolder!, 'source'), 'utf8')).toBe('/srv/photo.jpg');
  });
});
