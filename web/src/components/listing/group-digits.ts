/**
 * i18next puts a plural's `count` into the text as bare digits ("100000 files"). Large counts
 * read better grouped the locale's way ("100,000 files"), so the bare number is swapped for its
 * localised form wherever it stands on its own.
 */
export function groupDigits(text: string, count: number, locale: string): string {
  if (!Number.isFinite(count)) return text;
  const bare = String(count);
  const localised = count.toLocaleString(locale);
  if (bare === localised) return text;
  return text.replace(new RegExp(`(?<![\\d.,])${bare}(?![\\d.,]?\\d)`, 'g'), localised);
}
