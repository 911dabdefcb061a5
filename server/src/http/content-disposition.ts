/**
 * Content-Disposition for downloads (RFC 6266). The real name travels in `filename*` as RFC 5987
 * UTF-8 percent-encoding; a plain `filename="…"` fallback carries an ASCII approximation for
 * clients that ignore the extended form.
 *
 * Written here rather than taken from the `content-disposition` package: that package leaves
 * `filename*` out for plain ASCII names, spells the charset `UTF-8` and keeps Latin-1 letters in
 * the quoted fallback, while the filebrowser wire format this server keeps sends
 * `filename*=utf-8''…` on every download (the route tests pin the exact header).
 */

/** Characters RFC 5987 allows unencoded in an ext-value (`attr-char`). */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/** Percent-encodes a name as an RFC 5987 ext-value body (UTF-8, every non attr-char escaped). */
export function encodeRfc5987(name: string): string {
  let out = '';
  for (const char of name) {
    if (ATTR_CHAR.test(char)) {
      out += char;
      continue;
    }
    for (const byte of Buffer.from(char, 'utf8')) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/**
 * An ASCII-only stand-in for the quoted `filename` parameter: control characters, quotes,
 * backslashes, path separators and anything outside printable ASCII become `_`, so the value
 * can never break out of its quotes or name a folder.
 */
export function asciiFallbackName(name: string): string {
  let out = '';
  for (const char of name) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || code > 0x7e || char === '"' || char === '\\' || char === '/' || char === '%' ? '_' : char;
  }
  return out || 'download';
}

export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  return `${kind}; filename="${asciiFallbackName(name)}"; filename*=utf-8''${encodeRfc5987(name)}`;
}
