/**
 * Splits the decoded remainder of a public URL into the link hash and the sub-path. Decoding
 * comes first because filebrowser's client appends an encoded `/sub/path` straight after the
 * hash (`/api/public/dl/<hash>%2Fsub%2Fa.txt`); hashes never contain `/` or `%`.
 */
export function splitHashAndPath(decoded: string): { hash: string; subPath: string } {
  const trimmed = decoded.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  if (slash === -1) return { hash: trimmed, subPath: '/' };
  return { hash: trimmed.slice(0, slash), subPath: trimmed.slice(slash) || '/' };
}
