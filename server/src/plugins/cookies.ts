/** Reads one cookie from a Cookie header without pulling in a parser for the whole jar. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value.replace(/^"|"$/g, ''));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
