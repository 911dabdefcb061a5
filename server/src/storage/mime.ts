/**
 * MIME types by lower-case extension (with the dot). Data, not logic: extend freely.
 * Covers what the previews, the type detection and inline serving need to know.
 */
export const MimeTypes: Record<string, string> = {
  // text and code
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.markdown': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.ini': 'text/plain; charset=utf-8',
  '.conf': 'text/plain; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'text/xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.tsx': 'text/plain; charset=utf-8',
  '.jsx': 'text/plain; charset=utf-8',
  '.sh': 'text/x-sh; charset=utf-8',
  '.py': 'text/x-python; charset=utf-8',
  '.go': 'text/plain; charset=utf-8',
  '.rs': 'text/plain; charset=utf-8',
  '.c': 'text/x-c; charset=utf-8',
  '.h': 'text/x-c; charset=utf-8',
  '.cpp': 'text/x-c++; charset=utf-8',
  '.java': 'text/x-java; charset=utf-8',
  '.srt': 'application/x-subrip',
  '.vtt': 'text/vtt; charset=utf-8',
  '.ass': 'text/plain; charset=utf-8',
  '.ssa': 'text/plain; charset=utf-8',
  // images
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  // audio
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'video/ogg',
  '.weba': 'audio/webm',
  '.mid': 'audio/midi',
  // video
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.mov': 'video/quicktime',
  '.avi': 'video/x-msvideo',
  '.ogv': 'video/ogg',
  '.mpeg': 'video/mpeg',
  '.mpg': 'video/mpeg',
  '.3gp': 'video/3gpp',
  '.wmv': 'video/x-ms-wmv',
  '.flv': 'video/x-flv',
  // documents and archives
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.bz2': 'application/x-bzip2',
  '.xz': 'application/x-xz',
  '.zst': 'application/zstd',
  '.7z': 'application/x-7z-compressed',
  '.rar': 'application/vnd.rar',
  '.epub': 'application/epub+zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.wasm': 'application/wasm',
  '.exe': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.iso': 'application/octet-stream',
};

/** MIME type from a file name's extension, or undefined when unknown. */
export function mimeTypeOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 && !name.startsWith('.')) return undefined;
  return MimeTypes[name.slice(dot).toLowerCase()];
}

/**
 * The JavaScript MIME type essences of the WHATWG MIME Sniffing standard: a `<script>`, a module
 * import, a worker or a service worker runs a response labelled with any of them.
 */
const SCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/**
 * Types a browser runs as a script or applies as a style sheet when a page includes them
 * (`<script src>`, `import`, `new Worker`, `navigator.serviceWorker.register`, `<link
 * rel=stylesheet>`, `@import`), whatever the response's own CSP says: such a response must never
 * carry its real type when user bytes are shown inline, or any page of Burrow's origin could be
 * made to run them (the app's `script-src 'self'` allows it). With `nosniff`, browsers refuse a
 * script or style sheet labelled `text/plain`.
 */
export function isScriptOrStyle(mime: string | undefined): boolean {
  if (!mime) return false;
  const base = mime.split(';')[0]!.trim().toLowerCase();
  return SCRIPT_TYPES.has(base) || base === 'text/css';
}

/**
 * Types a browser could execute or render as a document in our origin. Served inline only with
 * `Content-Security-Policy: sandbox` (see the raw download route).
 */
export function isActiveContent(mime: string | undefined): boolean {
  if (!mime) return false;
  const base = mime.split(';')[0]!.trim().toLowerCase();
  return (
    base === 'text/html' ||
    base === 'application/xhtml+xml' ||
    base === 'image/svg+xml' ||
    base === 'text/xml' ||
    base === 'application/xml' ||
    base.endsWith('+xml') ||
    base === 'text/javascript' ||
    base === 'application/javascript' ||
    base === 'application/pdf'
  );
}
