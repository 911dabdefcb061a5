/**
 * Which decoder a file needs, judged from its first bytes rather than its name, so only formats
 * we mean to decode ever reach the image library (never SVG, whose renderer can fetch other
 * files, nor the library's own formats).
 */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'tiff' | 'heif' | 'gif';

/** How many leading bytes `imageKind` needs. */
export const IMAGE_MAGIC_LENGTH = 32;

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

export function imageKind(sample: Buffer): ImageKind | undefined {
  const ascii = (start: number, end: number) => sample.subarray(start, end).toString('latin1');
  if (sample.length >= 3 && sample[0] === 0xff && sample[1] === 0xd8 && sample[2] === 0xff) return 'jpeg';
  if (sample.length >= 8 && sample.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (sample.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (sample.length >= 4 && (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*')) return 'tiff';
  if (sample.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif';
  if (sample.length >= 12 && ascii(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(8, 12))) return 'heif';
  return undefined;
}
