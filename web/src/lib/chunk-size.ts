/** The chunk size used when the typed text is not a size at all. */
export const FallbackChunkSize = 1024 * 1024;

const unitFactors: Record<string, number> = {
  '': 1,
  B: 1,
  K: 1024,
  KB: 1024,
  M: 1024 ** 2,
  MB: 1024 ** 2,
  G: 1024 ** 3,
  GB: 1024 ** 3,
  T: 1024 ** 4,
  TB: 1024 ** 4,
};

const sizePattern = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)$/i;

/**
 * Reads a size such as `10MB`, `1.5 g`, `512k` or `4096` (bytes) in binary multiples. Answers the
 * whole number of bytes, or undefined when the text is not a positive size.
 */
export function parseChunkSize(text: string): number | undefined {
  const match = sizePattern.exec(text.trim());
  if (!match) return undefined;
  const factor = unitFactors[match[2]!.toUpperCase()];
  if (factor === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * factor);
  // A chunk must carry at least one byte, and the server stores a safe integer.
  if (!Number.isSafeInteger(bytes) || bytes < 1) return undefined;
  return bytes;
}

/** Like parseChunkSize, but anything unreadable becomes 1 MB. */
export function chunkSizeOrFallback(text: string): number {
  return parseChunkSize(text) ?? FallbackChunkSize;
}

const displayUnits = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in the largest unit that keeps the number at least 1: `10485760` → `10 MB`. */
export function formatChunkSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < displayUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Three decimals keep odd sizes recognisable without a tail of float noise.
  const shown = Number(value.toFixed(3));
  return `${shown} ${displayUnits[unit]}`;
}
