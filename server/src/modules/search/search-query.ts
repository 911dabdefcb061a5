import { MimeTypes, mimeTypeOf } from '../../storage/mime.js';

/** One `type:` condition: a MIME family, or an exact (case-sensitive) extension. */
type TypeCondition = { family: 'image' | 'audio' | 'video' } | { extension: string };

export type SearchQuery = {
  caseSensitive: boolean;
  /** Lower-cased unless case-sensitive. ANY must occur in the base name; '' matches everything. */
  terms: string[];
  /** ANY must hold, when there are some. */
  conditions: TypeCondition[];
};

const TYPE_PATTERN = /type:(\w+)/g;

/**
 * Parses a search box value exactly as the wire protocol describes (filebrowser's parser):
 * `case:sensitive` anywhere switches case-sensitivity on and both `case:` tokens are removed; every
 * `type:<word>` adds a condition and is removed; the rest, trimmed (and lower-cased unless
 * case-sensitive), is one literal term when wrapped in double quotes, otherwise split on single
 * spaces, so a double space yields an empty term that matches everything.
 */
export function parseSearchQuery(raw: string): SearchQuery {
  const caseSensitive = raw.includes('case:sensitive');
  let value = raw.split('case:insensitive').join('').split('case:sensitive').join('').trim();
  const conditions: TypeCondition[] = [];
  let found = false;
  for (const match of value.matchAll(TYPE_PATTERN)) {
    found = true;
    const word = match[1]!;
    if (word === 'image') conditions.push({ family: 'image' });
    else if (word === 'audio' || word === 'music') conditions.push({ family: 'audio' });
    else if (word === 'video') conditions.push({ family: 'video' });
    else conditions.push({ extension: `.${word}` });
  }
  if (found) value = value.replace(TYPE_PATTERN, '');
  if (!caseSensitive) value = value.toLowerCase();
  value = value.trim();
  if (value === '') return { caseSensitive, terms: [], conditions };
  if (value.startsWith('"') && value.endsWith('"')) {
    // A lone `"` both opens and closes: the term is then empty, as upstream.
    const literal = value.length === 1 ? '' : value.slice(1, -1);
    return { caseSensitive, terms: [literal], conditions };
  }
  return { caseSensitive, terms: value.split(' '), conditions };
}

/** The extension of a base name from its last dot, as is ('' when there is none). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot);
}

function conditionHolds(condition: TypeCondition, name: string): boolean {
  if ('extension' in condition) return extensionOf(name) === condition.extension;
  return mimeTypeOf(name)?.startsWith(condition.family) ?? false;
}

/** The exact match of one base name against a parsed query (files and folders alike). */
export function matchesName(name: string, query: SearchQuery): boolean {
  if (query.conditions.length > 0 && !query.conditions.some((condition) => conditionHolds(condition, name))) return false;
  if (query.terms.length === 0) return true;
  const subject = query.caseSensitive ? name : name.toLowerCase();
  return query.terms.some((term) => subject.includes(term));
}

/**
 * The lower-case extensions that can satisfy the conditions (a superset for exact extensions,
 * which are rechecked case-sensitively), or undefined when there are no conditions.
 */
export function candidateExtensions(query: SearchQuery): string[] | undefined {
  if (query.conditions.length === 0) return undefined;
  const extensions = new Set<string>();
  for (const condition of query.conditions) {
    if ('extension' in condition) extensions.add(condition.extension.toLowerCase());
    else for (const [extension, mime] of Object.entries(MimeTypes)) if (mime.startsWith(condition.family)) extensions.add(extension);
  }
  return [...extensions];
}

/** Name terms worth filtering on: none when any term is empty (it matches every name). */
export function effectiveTerms(query: SearchQuery): string[] {
  return query.terms.includes('') ? [] : query.terms;
}
