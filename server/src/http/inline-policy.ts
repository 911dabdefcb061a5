import { isActiveContent, isScriptOrStyle, mimeTypeOf } from '../storage/mime.js';

/**
 * Policy for active content shown inline: the document is sandboxed into an opaque origin with
 * no script at all, so an uploaded HTML or SVG page can never act as Burrow.
 */
export const SANDBOX_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** Policy for every other raw response: no script, framed only by Burrow's own pages. */
export const RAW_CSP = "script-src 'none'; frame-ancestors 'self'";

export type InlinePolicy = { contentType: string; sandbox: boolean };

function isBinary(sample: Buffer): boolean {
  for (const byte of sample) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}

/** What scripts and style sheets are served as inline: readable, never runnable. */
const INERT_TEXT = 'text/plain; charset=utf-8';

/**
 * Type and sandboxing of a file shown inline. The type comes from the extension; without one,
 * text-looking content is shown as plain text and anything else as opaque bytes, and both are
 * sandboxed because nothing vouches for them. Scripts and style sheets (`.js`, `.mjs`, `.css`)
 * are shown as plain text: a sandbox policy on the response does not stop another page of the
 * origin from including it with `<script src>` or `<link rel=stylesheet>`, but the type, with
 * `nosniff`, does. PDF is not sandboxed even though it is active: browsers run a PDF's scripts
 * inside their viewer, outside the page's origin, and refuse to render PDFs in sandboxed
 * documents at all.
 */
export async function inlinePolicy(name: string, sample: () => Promise<Buffer>): Promise<InlinePolicy> {
  const mime = mimeTypeOf(name);
  if (isScriptOrStyle(mime)) return { contentType: INERT_TEXT, sandbox: true };
  if (!mime) {
    const bytes = await sample();
    return { contentType: isBinary(bytes) ? 'application/octet-stream' : 'text/plain; charset=utf-8', sandbox: true };
  }
  const base = mime.split(';')[0]!.trim().toLowerCase();
  return { contentType: mime, sandbox: isActiveContent(mime) && base !== 'application/pdf' };
}
