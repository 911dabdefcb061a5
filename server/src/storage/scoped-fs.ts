import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Rule } from '@burrow/protocol';
import { forbidden, notFound } from '../errors.js';
import { createRuleChecker, type RuleChecker } from './rules.js';
import { cleanVirtualPath, isWithin, joinVirtual } from './virtual-path.js';

/** What an operation intends to do with a path; decides how links are treated. */
export type Intent = 'read' | 'write' | 'delete';

export type ResolvedPath = {
  /** Canonical virtual path inside the scope. */
  virtual: string;
  /** Whether the request ended with a slash. */
  trailingSlash: boolean;
  /**
   * Real filesystem path. For reads: the fully resolved target (links followed, confined).
   * For writes and deletes: the resolved parent joined with the final name, which itself is
   * never followed.
   */
  real: string;
  /** For reads, the lstat of the requested entry was a symbolic link. */
  isSymlink: boolean;
  /** Stat of the entry (following links for reads, not following for write/delete), if it exists. */
  stat?: fs.Stats;
};

export type ScopeOptions = {
  /** Absolute real path of the scope root (must exist). */
  root: string;
  /** Rules are tested against `rulePrefix + virtual` (owner-scope paths for shares). */
  rulePrefix?: string;
  globalRules: Rule[];
  userRules: Rule[];
  hideDotfiles: boolean;
  followExternalSymlinks: boolean;
  caseInsensitive: boolean;
};

/**
 * The one gate every file operation passes through: canonicalises a virtual path, applies the
 * rules, and confines the real path to the scope root, following links only while they stay
 * inside it. Writes and deletes never follow a link at the final component.
 */
export class Scope {
  readonly root: string;
  readonly rulePrefix: string;
  readonly hideDotfiles: boolean;
  readonly followExternalSymlinks: boolean;
  private readonly rules: RuleChecker;
  private readonly options: ScopeOptions;

  constructor(options: ScopeOptions) {
    this.options = options;
    this.root = options.root;
    this.rulePrefix = options.rulePrefix && options.rulePrefix !== '/' ? options.rulePrefix : '';
    this.hideDotfiles = options.hideDotfiles;
    this.followExternalSymlinks = options.followExternalSymlinks;
    this.rules = createRuleChecker(options.globalRules, options.userRules, { caseInsensitive: options.caseInsensitive });
  }

  /** True when any rule exists (copy, move and delete then check every descendant). */
  get hasRules(): boolean {
    return this.rules.hasRules;
  }

  /** The path as the rules see it (owner-scope path for share scopes). */
  rulePath(virtual: string): string {
    if (!this.rulePrefix) return virtual;
    return virtual === '/' ? this.rulePrefix : this.rulePrefix + virtual;
  }

  /**
   * May this virtual path be used at all? The rules, and under `hideDotfiles` a denial of any
   * path with a segment starting with `.`: like upstream's rule check, hiding dotfiles refuses
   * them everywhere (a request for `/.env` or `/.git/config` is denied as a rule would deny it),
   * it does not only leave them out of listings. Tested on the rule path, so a share of an
   * owner's dot folder is refused too.
   */
  isAllowed(virtual: string): boolean {
    const rulePath = this.rulePath(virtual);
    if (this.hideDotfiles && hasDotSegment(rulePath)) return false;
    return this.rules.isAllowed(rulePath);
  }

  /**
   * The rules alone, for the descendant checks of copy, move and delete: acting on a folder the
   * user may see carries its dotfiles along, as upstream's descendant walk does.
   */
  rulesAllow(virtual: string): boolean {
    return this.rules.isAllowed(this.rulePath(virtual));
  }

  /** Whether an entry should appear in listings, search results and archives: exactly when it is allowed. */
  isListable(virtual: string): boolean {
    return this.isAllowed(virtual);
  }

  /** Whether any check beyond confinement applies (rules or hidden dotfiles). */
  get hasDenials(): boolean {
    return this.rules.hasRules || this.hideDotfiles;
  }

  /**
   * Rules guard places, not spellings: whether the place `real` (an entry reached through links,
   * its own or its parents') is allowed. A place outside the root is judged by confinement, not
   * here; a place that is the requested path itself was already checked.
   */
  allowsLanding(real: string, virtual?: string): boolean {
    if (!this.hasDenials) return true;
    const landed = this.toVirtual(real);
    return landed === undefined || landed === virtual || this.isAllowed(landed);
  }

  /** A scope confined to a sub-folder, with rules still evaluated on the full paths. */
  async narrow(virtual: string): Promise<Scope> {
    const resolved = await this.resolve(virtual, 'read');
    if (!resolved.stat) throw notFound();
    return new Scope({ ...this.options, root: resolved.stat.isDirectory() ? resolved.real : path.dirname(resolved.real), rulePrefix: this.rulePath(resolved.virtual) });
  }

  /** Real path → virtual path, or undefined when it lies outside the root. */
  toVirtual(real: string): string | undefined {
    if (real === this.root) return '/';
    const prefix = withTrailingSeparator(this.root);
    if (!real.startsWith(prefix)) return undefined;
    return '/' + real.slice(prefix.length).split(path.sep).join('/');
  }

  /** Joins a canonical virtual path onto the root without touching the filesystem. */
  lexicalReal(virtual: string): string {
    return virtual === '/' ? this.root : path.join(this.root, ...virtual.slice(1).split('/'));
  }

  isInside(real: string): boolean {
    return real === this.root || real.startsWith(withTrailingSeparator(this.root));
  }

  /**
   * Canonicalises, checks the rules (403) and confines. `decoded` must already be
   * percent-decoded. Missing entries are not an error here: `stat` is simply absent.
   */
  async resolve(decoded: string, intent: Intent): Promise<ResolvedPath> {
    const clean = cleanVirtualPath(decoded);
    if (!this.isAllowed(clean.path)) throw forbidden();
    return this.resolveClean(clean.path, clean.trailingSlash, intent);
  }

  /** As `resolve`, for a path that is already canonical and rule-checked. */
  async resolveClean(virtual: string, trailingSlash: boolean, intent: Intent): Promise<ResolvedPath> {
    const lexical = this.lexicalReal(virtual);
    if (virtual === '/') {
      const stat = await fsp.stat(this.root);
      return { virtual, trailingSlash, real: this.root, isSymlink: false, stat };
    }
    const parentReal = await this.realParent(path.dirname(lexical));
    const name = path.basename(lexical);
    const candidate = path.join(parentReal, name);
    let lstat: fs.Stats | undefined;
    try {
      lstat = await fsp.lstat(candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (intent !== 'read') {
      // Writes and deletes act on the entry itself: a link is replaced or removed, never followed.
      if (intent === 'write' && lstat?.isSymbolicLink()) throw forbidden();
      this.assertRealAllowed(candidate, virtual);
      return { virtual, trailingSlash, real: candidate, isSymlink: Boolean(lstat?.isSymbolicLink()), stat: lstat };
    }
    if (!lstat) {
      this.assertRealAllowed(candidate, virtual);
      return { virtual, trailingSlash, real: candidate, isSymlink: false };
    }
    if (!lstat.isSymbolicLink()) {
      this.assertRealAllowed(candidate, virtual);
      return { virtual, trailingSlash, real: candidate, isSymlink: false, stat: lstat };
    }
    let target: string;
    try {
      target = await fsp.realpath(candidate);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') {
        // A dangling link that points outside would start leaking the moment its target appears
        // (or be written through by a careless caller), so it is judged by where it points.
        if (!this.followExternalSymlinks) {
          const pointsTo = await this.danglingTarget(candidate);
          if (pointsTo === undefined || !this.isInside(pointsTo)) throw forbidden();
        }
        // Dangling link: report it as the link itself; nothing behind it can be read.
        return { virtual, trailingSlash, real: candidate, isSymlink: true, stat: lstat };
      }
      throw error;
    }
    if (!this.isInside(target) && !this.followExternalSymlinks) throw forbidden();
    this.assertRealAllowed(target, virtual);
    const stat = await fsp.stat(target);
    return { virtual, trailingSlash, real: target, isSymlink: true, stat };
  }

  /**
   * When links make a virtual path land somewhere else inside the scope, that place must be
   * allowed too: a link to a denied folder, or to a dotfile under `hideDotfiles`, is refused
   * exactly as its target would be (403), never followed.
   */
  private assertRealAllowed(real: string, virtual: string): void {
    if (!this.allowsLanding(real, virtual)) throw forbidden();
  }

  /**
   * Where a dangling link would lead, following chains of links; undefined when that cannot be
   * told (a dangling link in the middle of the target path).
   */
  private async danglingTarget(link: string): Promise<string | undefined> {
    let current = link;
    for (let hop = 0; hop < 32; hop++) {
      const target = path.resolve(path.dirname(current), await fsp.readlink(current));
      const parent = await realpathOfExisting(path.dirname(target));
      if (parent === undefined) return undefined;
      const next = path.join(parent, path.basename(target));
      const lstat = await fsp.lstat(next).catch(() => undefined);
      if (!lstat?.isSymbolicLink()) return next;
      current = next;
    }
    // A loop of links: nothing can be reached through it.
    return current;
  }

  /** Resolves a folder path (the parent of an entry) through links, confined to the root. */
  private async realParent(lexicalDir: string): Promise<string> {
    let real: string;
    try {
      real = await fsp.realpath(lexicalDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // Part of the parent chain does not exist yet: resolve the deepest existing ancestor.
      const parent = path.dirname(lexicalDir);
      if (parent === lexicalDir || !this.isInside(lexicalDir)) throw notFound();
      const realAncestor = await this.realParent(parent);
      real = path.join(realAncestor, path.basename(lexicalDir));
      try {
        const lstat = await fsp.lstat(real);
        if (lstat.isSymbolicLink()) throw forbidden();
      } catch (inner) {
        if ((inner as NodeJS.ErrnoException).code !== 'ENOENT') throw inner;
      }
      return real;
    }
    if (!this.isInside(real) && !this.followExternalSymlinks) throw forbidden();
    return real;
  }

  /** Creates missing parent folders of a resolved write target, each checked against the root. */
  async ensureParent(resolved: ResolvedPath, dirMode: number): Promise<void> {
    const parent = path.dirname(resolved.real);
    if (!this.isInside(parent) && !this.followExternalSymlinks) throw forbidden();
    await fsp.mkdir(parent, { recursive: true, mode: dirMode });
    const real = await fsp.realpath(parent);
    if (!this.isInside(real) && !this.followExternalSymlinks) throw forbidden();
  }

  /** Lists a folder's entries with virtual paths, skipping what the rules deny or hide. */
  childVirtual(parentVirtual: string, name: string): string {
    return joinVirtual(parentVirtual, name);
  }

  isWithinVirtual(parent: string, child: string): boolean {
    return isWithin(parent, child);
  }
}

/** Whether any segment of a virtual path starts with `.` (`/a/.git/config`, `/.env`). */
export function hasDotSegment(virtual: string): boolean {
  return virtual.includes('/.');
}

/** `dir` ending in exactly one separator, so a root of `/` (serving everything) works too. */
function withTrailingSeparator(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** The real path of `target`, resolving its deepest existing ancestor when it does not exist. */
async function realpathOfExisting(target: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
  }
  const parent = path.dirname(target);
  if (parent === target) return undefined;
  const realParent = await realpathOfExisting(parent);
  if (realParent === undefined) return undefined;
  const joined = path.join(realParent, path.basename(target));
  const lstat = await fsp.lstat(joined).catch(() => undefined);
  return lstat?.isSymbolicLink() ? undefined : joined;
}

/** Probes whether the filesystem holding `dir` compares names case-insensitively. */
export function probeCaseInsensitive(dir: string): boolean {
  const probe = path.join(dir, `.burrow-case-probe-${process.pid}-${Date.now()}`);
  try {
    fs.writeFileSync(probe, '');
    return fs.existsSync(probe.toUpperCase().replace(path.dirname(probe).toUpperCase(), path.dirname(probe)));
  } catch {
    return false;
  } finally {
    try {
      fs.unlinkSync(probe);
    } catch {
      // nothing to clean
    }
  }
}
