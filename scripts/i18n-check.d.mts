export function flattenKeys(tree: object, prefix?: string, into?: Map<string, unknown>): Map<string, unknown>;
export function findUsedKeys(sourceRoot: string): Set<string>;
export function supportedLocales(webRoot: string): string[];
export function checkTranslations(webRoot?: string): string[];
