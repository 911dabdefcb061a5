const divisions: Array<{ amount: number; unit: Intl.RelativeTimeFormatUnit }> = [
  { amount: 60, unit: 'second' },
  { amount: 60, unit: 'minute' },
  { amount: 24, unit: 'hour' },
  { amount: 7, unit: 'day' },
  { amount: 4.34524, unit: 'week' },
  { amount: 12, unit: 'month' },
  { amount: Number.POSITIVE_INFINITY, unit: 'year' },
];

/** "3 minutes ago", "in 2 days", in the given locale. */
export function formatRelative(date: Date, locale?: string, now: Date = new Date()): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let duration = (date.getTime() - now.getTime()) / 1000;
  for (const division of divisions) {
    if (Math.abs(duration) < division.amount) return format.format(Math.round(duration), division.unit);
    duration /= division.amount;
  }
  return format.format(Math.round(duration), 'year');
}

/** Date and time in the locale's medium form. */
export function formatAbsolute(date: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * A modification time as the user prefers: absolute when their `dateFormat` preference is on,
 * otherwise relative to now. Unparsable input is returned unchanged.
 */
export function formatModified(value: string | Date, options: { absolute: boolean; locale?: string; now?: Date }): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return options.absolute ? formatAbsolute(date, options.locale) : formatRelative(date, options.locale, options.now);
}
