const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** Formats a byte count in binary units (1 KiB = 1024 B) with the locale's number format. */
export function formatSize(bytes: number, locale?: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Whole bytes never get decimals; larger units keep one unless that would round to 1024.
  let digits = unit === 0 ? 0 : value < 10 ? 2 : value < 100 ? 1 : 0;
  if (unit > 0 && Number(value.toFixed(digits)) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
    digits = 2;
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
  return `${number} ${units[unit]}`;
}

/** Percentage of `used` in `total`, rounded, between 0 and 100; 0 when the total is unknown. */
export function usagePercent(used: number, total: number): number {
  if (!(total > 0) || !(used > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((used / total) * 100)));
}
