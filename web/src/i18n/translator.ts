/**
 * The part of i18next the app uses, small enough for the start-up bundle (i18next itself is about
 * 14 KB gzipped, most of it backends, formatters and options the app never sets). The build and
 * the tests resolve `i18next` to this module (see the aliases in vite.config.ts); the package
 * stays for its types, which check every key against the English file.
 *
 * Behaves as i18next does with the options `i18n.ts` passes: one namespace (`translation`),
 * lower-cased locale codes, no fallback language, `{{name}}` interpolation without escaping
 * (a variable not given stays as written, a null one becomes empty), plural keys chosen by `Intl.PluralRules`
 * (`key_zero` for a count of 0 when the language has it, else `key_one`, `key_other` …), and the
 * key itself for a text that is missing.
 */

type Tree = { [name: string]: unknown };
type Listener = (...args: unknown[]) => void;
type TranslateOptions = { count?: unknown; lng?: string; [name: string]: unknown };
type InitOptions = { lng?: string; resources?: Record<string, Record<string, Tree>> };
type Plugin = { type?: string; init?: (instance: Translator) => void };

function child(tree: unknown, name: string): unknown {
  return tree !== null && typeof tree === 'object' ? (tree as Tree)[name] : undefined;
}

function lookup(tree: unknown, key: string): unknown {
  if (child(tree, key) !== undefined) return child(tree, key);
  return key.split('.').reduce<unknown>(child, tree);
}

function merge(target: Tree, source: Tree, overwrite: boolean): Tree {
  for (const [name, value] of Object.entries(source)) {
    const current = target[name];
    if (value !== null && typeof value === 'object' && current !== null && typeof current === 'object') {
      merge(current as Tree, value as Tree, overwrite);
    } else if (overwrite || current === undefined) {
      target[name] = value !== null && typeof value === 'object' ? merge({}, value as Tree, true) : value;
    }
  }
  return target;
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralCategory(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(language.replace(/_/g, '-'));
    } catch {
      rules = new Intl.PluralRules('en');
    }
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

class Translator {
  language = '';
  languages: string[] = [];
  isInitialized = false;
  private readonly bundles = new Map<string, Tree>();
  private readonly listeners = new Map<string, Set<Listener>>();

  use(plugin: Plugin): this {
    if (plugin.type === '3rdParty') plugin.init?.(this);
    return this;
  }

  /** Starts over, as i18next does: the resources given replace any loaded before. */
  async init(options: InitOptions = {}): Promise<Translator['t']> {
    this.bundles.clear();
    for (const [language, namespaces] of Object.entries(options.resources ?? {})) {
      this.addResourceBundle(language, 'translation', namespaces.translation ?? {}, true, true);
    }
    this.setLanguage(options.lng ?? 'en');
    this.isInitialized = true;
    this.emit('initialized', options);
    this.emit('languageChanged', this.language);
    return this.t;
  }

  async changeLanguage(language: string): Promise<Translator['t']> {
    this.setLanguage(language);
    this.emit('languageChanged', this.language);
    return this.t;
  }

  addResourceBundle(language: string, _namespace: string, resources: Tree, _deep = true, overwrite = true): this {
    const code = language.toLowerCase();
    this.bundles.set(code, merge(this.bundles.get(code) ?? {}, resources, overwrite));
    this.emit('added', code, 'translation');
    return this;
  }

  getResourceBundle(language: string, _namespace = 'translation'): Tree | undefined {
    const bundle = this.bundles.get(language.toLowerCase());
    return bundle && merge({}, bundle, true);
  }

  hasResourceBundle(language: string, _namespace = 'translation'): boolean {
    return this.bundles.has(language.toLowerCase());
  }

  exists(key: string, options: TranslateOptions = {}): boolean {
    return this.find(key, options) !== undefined;
  }

  /** The text of `key` in the active language (or `options.lng`), with `{{name}}` filled in from `options`. */
  t = (key: string | readonly string[], options: TranslateOptions = {}): string => {
    const keys = typeof key === 'string' ? [key] : key;
    for (const candidate of keys) {
      const text = this.find(candidate, options);
      if (text !== undefined) return this.interpolate(text, options);
    }
    return keys[keys.length - 1] ?? '';
  };

  on(event: string, listener: Listener): this {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off(event: string, listener?: Listener): this {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  private emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }

  private setLanguage(language: string) {
    this.language = language.toLowerCase();
    this.languages = [this.language];
  }

  private find(key: string, options: TranslateOptions): string | undefined {
    const language = (options.lng ?? this.language).toLowerCase();
    const bundle = this.bundles.get(language);
    if (!bundle) return undefined;
    const candidates = [key];
    if (typeof options.count === 'number') {
      candidates.unshift(`${key}_${pluralCategory(language, options.count)}`);
      if (options.count === 0) candidates.unshift(`${key}_zero`);
    }
    for (const candidate of candidates) {
      const value = lookup(bundle, candidate);
      if (typeof value === 'string') return value;
    }
    return undefined;
  }

  private interpolate(text: string, options: TranslateOptions): string {
    if (!text.includes('{{')) return text;
    return text.replace(/\{\{(.+?)\}\}/g, (placeholder, name: string) => {
      const value = lookup(options, name.trim());
      if (value === undefined) return placeholder;
      return value === null ? '' : String(value);
    });
  }
}

const i18next = new Translator();
export type { Translator };
export default i18next;
