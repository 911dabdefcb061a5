import type { MaxShareDuration, Share, ShareUnit } from '@burrow/protocol';

/** Longest duration the server accepts, in any unit (the protocol's limit, typed against it). */
export const MaxDuration: typeof MaxShareDuration = 2147483647;

/** Units in the order the form offers them; hours is the default. */
export const ShareUnitChoices = ['seconds', 'minutes', 'hours', 'days'] as const satisfies readonly ShareUnit[];
export const DefaultShareUnit: ShareUnit = 'hours';

/** Permanent links first, then the soonest to expire; ties keep a stable order by hash. */
export function sortLinks(links: readonly Share[]): Share[] {
  return [...links].sort((a, b) => {
    if (a.expire === 0 || b.expire === 0) {
      if (a.expire !== b.expire) return a.expire === 0 ? -1 : 1;
    } else if (a.expire !== b.expire) {
      return a.expire - b.expire;
    }
    return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
  });
}

/**
 * The duration typed into the form: empty means 0 (a permanent link); otherwise a whole number
 * from 0 to the maximum. Anything else (negative, decimal, exponent, too large) is undefined.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= MaxDuration ? value : undefined;
}
