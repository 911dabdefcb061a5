import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Rule } from '@burrow/protocol';
import type { Config } from '../config.js';
import { forbidden } from '../errors.js';
import { Scope, probeCaseInsensitive } from './scoped-fs.js';
import { cleanVirtualPath } from './virtual-path.js';

export type Scopes = ReturnType<typeof createScopes>;

/** The server-wide rules every scope applies (the settings service provides them). */
export type GlobalRules = { get(): { rules: Rule[] } };

/** What a scope is built from: the owner's folder, rules and dotfile choice. */
export type ScopeOwner = { scope: string; rules: Rule[]; hideDotfiles: boolean };

/** Builds the confined filesystem view (Scope) of each user from the server root and settings. */
export function createScopes(config: Config, settings: GlobalRules) {
  const caseInsensitive = probeCaseInsensitive(config.root);
  let rootReal: string | undefined;

  async function serverRoot(): Promise<string> {
    if (!rootReal) rootReal = await fsp.realpath(config.root);
    return rootReal;
  }

  /** Real folder of a user scope (server root + scope), created when missing. */
  async function scopeRoot(scope: string): Promise<string> {
    const root = await serverRoot();
    const clean = cleanVirtualPath(scope || '/').path;
    const lexical = clean === '/' ? root : path.join(root, ...clean.slice(1).split('/'));
    await fsp.mkdir(lexical, { recursive: true, mode: config.dirMode });
    const real = await fsp.realpath(lexical);
    // `root` may be `/` itself, which already ends in a separator.
    if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) throw forbidden();
    return real;
  }

  return {
    caseInsensitive,
    serverRoot,
    scopeRoot,
    async forUser(user: ScopeOwner): Promise<Scope> {
      return new Scope({
        root: await scopeRoot(user.scope),
        globalRules: settings.get().rules,
        userRules: user.rules,
        hideDotfiles: user.hideDotfiles,
        followExternalSymlinks: config.followExternalSymlinks,
        caseInsensitive,
      });
    },
  };
}
