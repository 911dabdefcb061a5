import type { Sharp } from 'sharp';
import { payloadTooLarge } from '../../errors.js';
import type { ImageKind } from './image-kind.js';

export type PreviewSize = 'thumb' | 'big';
export type OutputFormat = 'jpeg' | 'png' | 'webp';

/** Images wider or taller than this are refused (413), as upstream. */
const MAX_DIMENSION = 10_000;
/** Never decode more pixels than a 10,000 × 10,000 image, whatever the header claims. */
const LIMIT_INPUT_PIXELS = MAX_DIMENSION * MAX_DIMENSION;
const THUMB_SIZE = 256;
const BIG_SIZE = 1080;

export const OUTPUT_TYPES: Record<OutputFormat, { mime: string; extension: string }> = {
  jpeg: { mime: 'image/jpeg', extension: '.jpg' },
  png: { mime: 'image/png', extension: '.png' },
  webp: { mime: 'image/webp', extension: '.webp' },
};

/**
 * The format a preview is written in. Thumbnails are always JPEG; big previews keep JPEG, PNG
 * and WebP, while TIFF and HEIF/AVIF become JPEG so every browser can show them.
 */
export function outputFormat(size: PreviewSize, kind: ImageKind): OutputFormat {
  if (size === 'thumb') return 'jpeg';
  return kind === 'png' || kind === 'webp' ? kind : 'jpeg';
}

let library: Promise<typeof import('sharp')> | undefined;

/**
 * The image library loads on first use (it is the largest part of the server's memory), with
 * its operation cache off: rendered results live in our own disk cache.
 */
async function open(input: string | Buffer): Promise<Sharp> {
  library ??= import('sharp').then((module) => {
    module.default.cache(false);
    return module;
  });
  const { default: sharp } = await library;
  return sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: 'error', sequentialRead: true });
}

/** Reads the header only; 413 when the image is larger than upstream allows. */
export async function checkDimensions(real: string): Promise<void> {
  const metadata = await (await open(real)).metadata();
  const width = metadata.autoOrient?.width ?? metadata.width ?? 0;
  const height = metadata.autoOrient?.height ?? metadata.height ?? 0;
  if (width > MAX_DIMENSION || height > MAX_DIMENSION) throw payloadTooLarge('image too large');
}

/**
 * Renders a preview: EXIF orientation applied, then a 256 × 256 centre crop (thumb) or a fit
 * within 1080 × 1080 that never enlarges (big). Transparent areas become white in JPEG output.
 */
export async function renderImage(input: string | Buffer, size: PreviewSize, format: OutputFormat): Promise<Buffer> {
  let pipeline = (await open(input)).rotate();
  pipeline =
    size === 'thumb'
      ? pipeline.resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover', position: 'centre', kernel: 'cubic' })
      : pipeline.resize(BIG_SIZE, BIG_SIZE, { fit: 'inside', withoutEnlargement: true });
  switch (format) {
    case 'jpeg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: size === 'thumb' ? 75 : 80, mozjpeg: false }).toBuffer();
    case 'png':
      return pipeline.png({ compressionLevel: 6 }).toBuffer();
    case 'webp':
      return pipeline.webp({ quality: 80 }).toBuffer();
  }
}
