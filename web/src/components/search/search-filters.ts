import type { SearchType } from '@burrow/protocol';
/** The quick filters' `type:` words, as the server understands them (`audio` also covers music). */
const SearchKinds = ['image', 'audio', 'video', 'pdf'] as const satisfies readonly SearchType[];
export type SearchKind = (typeof SearchKinds)[number];

const typeToken = /(^|\s)type:\S*/g;

/**
 * The search text with a quick filter put in front: `type:{kind} ` followed by what was typed,
 * without any earlier `type:` word (one filter at a time, as the buttons suggest).
 */
export function withTypeFilter(text: string, kind: SearchKind): string {
  const rest = text.replace(typeToken, ' ').replace(/\s+/g, ' ').trim();
  return rest ? `type:${kind} ${rest}` : `type:${kind} `;
}

/** The `type:` word currently leading the text, if it is one of the quick filters. */
export function activeTypeFilter(text: string): SearchKind | undefined {
  const match = /^\s*type:(\S+)/.exec(text);
  const word = match?.[1];
  return SearchKinds.find((kind) => kind === word);
}
