/**
 * Content sniffing of a file's first bytes, after the WHATWG MIME sniffing algorithm as Go's
 * `http.DetectContentType` implements it (the subset that matters for choosing a resource type),
 * and the binary test filebrowser applies to decide whether a file opens in the editor.
 */

/** How many leading bytes are examined, as upstream. */
export const SNIFF_LENGTH = 512;

type Signature = { mime: string; test: (sample: Buffer) => boolean };

const startsWith = (sample: Buffer, bytes: number[] | string, offset = 0): boolean => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  if (sample.length < offset + expected.length) return false;
  return sample.subarray(offset, offset + expected.length).equals(expected);
};

/** True for an ISO base media file (`....ftyp<brand>`) whose brands include an MP4 one. */
function isMp4(sample: Buffer): boolean {
  if (sample.length < 12) return false;
  const boxSize = sample.readUInt32BE(0);
  if (boxSize % 4 !== 0 || sample.length < boxSize || boxSize < 12) return false;
  if (!startsWith(sample, 'ftyp', 4)) return false;
  for (let offset = 8; offset < boxSize; offset += 4) {
    if (offset === 12) continue; // minor version, not a brand
    if (startsWith(sample, 'mp4', offset)) return true;
  }
  return false;
}

const SIGNATURES: Signature[] = [
  // Byte-order marks make a text file regardless of what follows (UTF-16 text holds NULs).
  { mime: 'text/plain; charset=utf-16be', test: (s) => startsWith(s, [0xfe, 0xff]) },
  { mime: 'text/plain; charset=utf-16le', test: (s) => startsWith(s, [0xff, 0xfe]) },
  { mime: 'text/plain; charset=utf-8', test: (s) => startsWith(s, [0xef, 0xbb, 0xbf]) },
  { mime: 'application/pdf', test: (s) => startsWith(s, '%PDF-') },
  { mime: 'application/postscript', test: (s) => startsWith(s, '%!PS-Adobe-') },
  { mime: 'image/gif', test: (s) => startsWith(s, 'GIF87a') || startsWith(s, 'GIF89a') },
  { mime: 'image/png', test: (s) => startsWith(s, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', test: (s) => startsWith(s, [0xff, 0xd8, 0xff]) },
  { mime: 'image/bmp', test: (s) => startsWith(s, 'BM') },
  { mime: 'image/x-icon', test: (s) => startsWith(s, [0x00, 0x00, 0x01, 0x00]) || startsWith(s, [0x00, 0x00, 0x02, 0x00]) },
  { mime: 'image/webp', test: (s) => startsWith(s, 'RIFF') && startsWith(s, 'WEBPVP', 8) },
  { mime: 'audio/wave', test: (s) => startsWith(s, 'RIFF') && startsWith(s, 'WAVE', 8) },
  { mime: 'video/avi', test: (s) => startsWith(s, 'RIFF') && startsWith(s, 'AVI ', 8) },
  { mime: 'audio/aiff', test: (s) => startsWith(s, 'FORM') && startsWith(s, 'AIFF', 8) },
  { mime: 'audio/basic', test: (s) => startsWith(s, '.snd') },
  { mime: 'audio/mpeg', test: (s) => startsWith(s, 'ID3') },
  { mime: 'application/ogg', test: (s) => startsWith(s, [0x4f, 0x67, 0x67, 0x53, 0x00]) },
  { mime: 'audio/midi', test: (s) => startsWith(s, [0x4d, 0x54, 0x68, 0x64, 0x00, 0x00, 0x00, 0x06]) },
  { mime: 'video/mp4', test: isMp4 },
  { mime: 'video/webm', test: (s) => startsWith(s, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: 'application/x-gzip', test: (s) => startsWith(s, [0x1f, 0x8b, 0x08]) },
  { mime: 'application/zip', test: (s) => startsWith(s, [0x50, 0x4b, 0x03, 0x04]) },
  { mime: 'application/x-rar-compressed', test: (s) => startsWith(s, 'Rar!\x1a\x07') },
  { mime: 'application/wasm', test: (s) => startsWith(s, [0x00, 0x61, 0x73, 0x6d]) },
];

/** WHATWG "binary data byte": control bytes that never occur in text. */
function hasBinaryDataByte(sample: Buffer): boolean {
  for (const byte of sample) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}

/** MIME type of a sample; `text/plain` or `application/octet-stream` when nothing matches. */
export function sniffMimeType(sample: Buffer): string {
  for (const signature of SIGNATURES) {
    if (signature.test(sample)) return signature.mime;
  }
  return hasBinaryDataByte(sample) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

/**
 * filebrowser's binary test: a code point ≤ 8, or invalid UTF-8 anywhere except a sequence cut
 * off by the end of the sample. Empty samples are text.
 */
export function isBinarySample(sample: Buffer): boolean {
  let index = 0;
  while (index < sample.length) {
    const lead = sample[index]!;
    if (lead < 0x80) {
      if (lead <= 8) return true;
      index += 1;
      continue;
    }
    let length: number;
    let minimum: number;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
      minimum = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      minimum = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      minimum = 0x10000;
    } else {
      return true;
    }
    let codePoint = lead & (0xff >> (length + 1));
    for (let offset = 1; offset < length; offset++) {
      if (index + offset >= sample.length) {
        // The sample ends inside this sequence: a cut, not an encoding error.
        return false;
      }
      const next = sample[index + offset]!;
      if ((next & 0xc0) !== 0x80) return true;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return true;
    index += length;
  }
  return false;
}
