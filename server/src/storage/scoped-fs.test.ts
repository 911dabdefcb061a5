import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rule } from '@burrow/protocol';
import { AppError } from '../errors.js';
import { Scope, probeCaseInsensitive, type Intent, type ScopeOptions } from './scoped-fs.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-scope-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'docs', 'sub'), { recursive: true });
  fs.mkdirSync(path.join(root, 'private'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'docs', 'a.txt'), 'inside');
  fs.writeFileSync(path.join(root, 'private', 'secret.txt'), 'private');
  fs.writeFileSync(path.join(outside, 'passwd'), 'outside');
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function makeScope(options: Partial<ScopeOptions> = {}): Scope {
  return new Scope({
    root,
    globalRules: [],
    userRules: [],
    hideDotfiles: false,
    followExternalSymlinks: false,
    caseInsensitive: false,
    ...options,
  });
}

/** 'ok', the AppError status, or the system error code of a failed resolve. */
async function statusOf(scope: Scope, virtual: string, intent: Intent): Promise<number | string> {
  try {
    await scope.resolve(virtual, intent);
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.status;
    const code = (error as NodeJS.ErrnoException).code;
    if (code) return code;
    throw error;
  }
}

const deny = (rulePath: string): Rule => ({ regex: false, allow: false, path: rulePath, regexp: { raw: '' } });

describe('Scope.resolve: plain paths', () => {
  it('canonicalises and confines lexical traversal to the root', async () => {
    const scope = makeScope();
    const resolved = await scope.resolve('/../../docs/./sub/../a.txt', 'read');
    expect(resolved.virtual).toBe('/docs/a.txt');
    expect(resolved.real).toBe(path.join(root, 'docs', 'a.txt'));
    expect(resolved.stat?.isFile()).toBe(true);
    const top = await scope.resolve('/../..', 'read');
    expect(top.virtual).toBe('/');
    expect(top.real).toBe(root);
  });

  it('reports the trailing slash and leaves missing entries without a stat', async () => {
    const scope = makeScope();
    const folder = await scope.resolve('/docs/sub/', 'read');
    expect(folder.trailingSlash).toBe(true);
    expect(folder.stat?.isDirectory()).toBe(true);
    const missing = await scope.resolve('/docs/nothing.txt', 'read');
    expect(missing.stat).toBeUndefined();
    expect(missing.real).toBe(path.join(root, 'docs', 'nothing.txt'));
  });

  it('refuses denied paths with 403 for every intent, after canonicalising', async () => {
    const scope = makeScope({ userRules: [deny('/private')] });
    for (const intent of ['read', 'write', 'delete'] as const) {
      expect(await statusOf(scope, '/private/secret.txt', intent)).toBe(403);
      expect(await statusOf(scope, '/docs/../private/secret.txt', intent)).toBe(403);
      expect(await statusOf(scope, '//private//', intent)).toBe(403);
    }
    expect(await statusOf(scope, '/privateer', 'read')).toBe('ok');
  });

  it('refuses case variants of a denied path on a case-insensitive filesystem', async () => {
    const scope = makeScope({ userRules: [deny('/private')], caseInsensitive: true });
    expect(await statusOf(scope, '/PRIVATE/secret.txt', 'read')).toBe(403);
    expect(await statusOf(scope, '/Private', 'write')).toBe(403);
  });

  it('refuses NUL bytes with 400', async () => {
    expect(await statusOf(makeScope(), '/docs/a\0.txt', 'read')).toBe(400);
  });
});

describe('Scope.resolve: symbolic links', () => {
  it('follows links that stay inside the scope', async () => {
    fs.symlinkSync(path.join(root, 'docs', 'a.txt'), path.join(root, 'link.txt'));
    fs.symlinkSync('docs', path.join(root, 'docs-link'));
    const scope = makeScope();
    const file = await scope.resolve('/link.txt', 'read');
    expect(file.isSymlink).toBe(true);
    expect(file.real).toBe(path.join(root, 'docs', 'a.txt'));
    expect(file.stat?.isFile()).toBe(true);
    const throughFolder = await scope.resolve('/docs-link/a.txt', 'read');
    expect(throughFolder.real).toBe(path.join(root, 'docs', 'a.txt'));
    expect(throughFolder.virtual).toBe('/docs-link/a.txt');
  });

  it('refuses reads through a link that escapes the scope (403)', async () => {
    fs.symlinkSync(path.join(outside, 'passwd'), path.join(root, 'escape.txt'));
    fs.symlinkSync('../../outside', path.join(root, 'docs', 'up'));
    const scope = makeScope();
    expect(await statusOf(scope, '/escape.txt', 'read')).toBe(403);
    expect(await statusOf(scope, '/docs/up', 'read')).toBe(403);
  });

  it('follows escaping links only when followExternalSymlinks is on', async () => {
    fs.symlinkSync(path.join(outside, 'passwd'), path.join(root, 'escape.txt'));
    const resolved = await makeScope({ followExternalSymlinks: true }).resolve('/escape.txt', 'read');
    expect(resolved.real).toBe(path.join(outside, 'passwd'));
  });

  it('never writes through a link, even one that stays inside (403)', async () => {
    fs.symlinkSync(path.join(outside, 'passwd'), path.join(root, 'escape.txt'));
    fs.symlinkSync(path.join(root, 'docs', 'a.txt'), path.join(root, 'inner.txt'));
    const scope = makeScope();
    expect(await statusOf(scope, '/escape.txt', 'write')).toBe(403);
    expect(await statusOf(scope, '/inner.txt', 'write')).toBe(403);
    expect(fs.readFileSync(path.join(outside, 'passwd'), 'utf8')).toBe('outside');
  });

  it('resolves a delete of a link to the link itself, not its target', async () => {
    fs.symlinkSync(path.join(outside, 'passwd'), path.join(root, 'escape.txt'));
    fs.symlinkSync(outside, path.join(root, 'escape-dir'));
    const scope = makeScope();
    const file = await scope.resolve('/escape.txt', 'delete');
    expect(file.real).toBe(path.join(root, 'escape.txt'));
    expect(file.isSymlink).toBe(true);
    expect(file.stat?.isSymbolicLink()).toBe(true);
    const folder = await scope.resolve('/escape-dir', 'delete');
    expect(folder.real).toBe(path.join(root, 'escape-dir'));
    expect(folder.stat?.isSymbolicLink()).toBe(true);
  });

  it('reports a dangling link inside the scope as the link itself', async () => {
    fs.symlinkSync(path.join(root, 'docs', 'gone.txt'), path.join(root, 'dangling'));
    const resolved = await makeScope().resolve('/dangling', 'read');
    expect(resolved.isSymlink).toBe(true);
    expect(resolved.real).toBe(path.join(root, 'dangling'));
    expect(resolved.stat?.isSymbolicLink()).toBe(true);
  });

  it('refuses a dangling link whose target lies outside the scope, for every intent', async () => {
    fs.symlinkSync(path.join(outside, 'created-later'), path.join(root, 'dangling-out'));
    fs.symlinkSync(path.join(outside, 'missing', 'deeper'), path.join(root, 'dangling-deep'));
    const scope = makeScope();
    expect(await statusOf(scope, '/dangling-out', 'read')).toBe(403);
    expect(await statusOf(scope, '/dangling-deep', 'read')).toBe(403);
    expect(await statusOf(scope, '/dangling-out', 'write')).toBe(403);
    expect(fs.existsSync(path.join(outside, 'created-later'))).toBe(false);
  });

  it('refuses reads and writes below a symlinked parent folder that escapes (403)', async () => {
    fs.symlinkSync(outside, path.join(root, 'docs', 'out'));
    const scope = makeScope();
    expect(await statusOf(scope, '/docs/out/passwd', 'read')).toBe(403);
    expect(await statusOf(scope, '/docs/out/new.txt', 'write')).toBe(403);
    expect(await statusOf(scope, '/docs/out/passwd', 'delete')).toBe(403);
    expect(await statusOf(scope, '/docs/out/missing/deeper/new.txt', 'write')).toBe(403);
  });

  it('refuses writes below a dangling symlinked folder (403)', async () => {
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(root, 'pending'));
    const scope = makeScope();
    expect(await statusOf(scope, '/pending/new.txt', 'write')).toBe(403);
    expect(await statusOf(scope, '/pending/a/b/new.txt', 'write')).toBe(403);
    expect(fs.existsSync(path.join(outside, 'not-yet'))).toBe(false);
  });

  it('applies the rules to where an inside link points, not only to its own name', async () => {
    fs.symlinkSync(path.join(root, 'private', 'secret.txt'), path.join(root, 'docs', 'peek.txt'));
    fs.symlinkSync(path.join(root, 'private'), path.join(root, 'docs', 'peek-dir'));
    const scope = makeScope({ userRules: [deny('/private')] });
    expect(await statusOf(scope, '/docs/peek.txt', 'read')).toBe(403);
    expect(await statusOf(scope, '/docs/peek-dir', 'read')).toBe(403);
    expect(await statusOf(scope, '/docs/peek-dir/secret.txt', 'read')).toBe(403);
    expect(await statusOf(scope, '/docs/peek-dir/new.txt', 'write')).toBe(403);
    expect(await statusOf(scope, '/docs/a.txt', 'read')).toBe('ok');
  });
});

describe('Scope.resolve: writes to missing places', () => {
  it('resolves a write below missing parents and creates them inside the root', async () => {
    const scope = makeScope();
    const resolved = await scope.resolve('/new/deeper/file.txt', 'write');
    expect(resolved.real).toBe(path.join(root, 'new', 'deeper', 'file.txt'));
    expect(resolved.stat).toBeUndefined();
    await scope.ensureParent(resolved, 0o750);
    expect(fs.statSync(path.join(root, 'new', 'deeper')).isDirectory()).toBe(true);
  });

  it('surfaces ENOTDIR, which the error handler answers with 404, when a parent is a file', async () => {
    expect(await statusOf(makeScope(), '/docs/a.txt/child.txt', 'write')).toBe('ENOTDIR');
  });
});

describe('Scope helpers', () => {
  it('maps real paths back to virtual ones, refusing anything outside', () => {
    const scope = makeScope();
    expect(scope.toVirtual(root)).toBe('/');
    expect(scope.toVirtual(path.join(root, 'docs', 'a.txt'))).toBe('/docs/a.txt');
    expect(scope.toVirtual(root + '-sibling')).toBeUndefined();
    expect(scope.toVirtual(outside)).toBeUndefined();
  });

  it('works with the filesystem root itself as the scope root', async () => {
    const scope = makeScope({ root: '/' });
    expect(scope.toVirtual('/')).toBe('/');
    expect(scope.toVirtual(path.join(root, 'docs'))).toBe(`${root}/docs`);
    expect(scope.isInside(outside)).toBe(true);
    const file = await scope.resolve(`${root}/docs/a.txt`, 'read');
    expect(file.real).toBe(path.join(root, 'docs', 'a.txt'));
    expect(file.stat?.isFile()).toBe(true);
    const target = await scope.resolve(`${root}/docs/new/file.txt`, 'write');
    expect(target.real).toBe(path.join(root, 'docs', 'new', 'file.txt'));
  });

  it('denies every path with a dot segment under hideDotfiles, as a rule would', async () => {
    const scope = makeScope({ hideDotfiles: true, userRules: [deny('/private')] });
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), 'dot');
    fs.writeFileSync(path.join(root, 'docs', '.env'), 'dot');
    for (const virtual of ['/docs/.env', '/.git', '/.git/config', '/.git/missing/deeper']) {
      expect(scope.isAllowed(virtual), virtual).toBe(false);
      expect(scope.isListable(virtual), virtual).toBe(false);
      for (const intent of ['read', 'write', 'delete'] as const) expect(await statusOf(scope, virtual, intent), `${intent} ${virtual}`).toBe(403);
    }
    // Names that merely contain a dot, and the rules' own view for descendant checks.
    expect(scope.isAllowed('/docs/a.txt')).toBe(true);
    expect(scope.isAllowed('/docs/a..b')).toBe(true);
    expect(scope.rulesAllow('/docs/.env')).toBe(true);
    expect(scope.isListable('/private')).toBe(false);
    // Without hideDotfiles nothing changes.
    expect(await statusOf(makeScope(), '/.git/config', 'read')).toBe('ok');
  });

  it('refuses links that land on a denied place or a hidden dotfile, whatever their own name', async () => {
    fs.mkdirSync(path.join(root, '.ssh'));
    fs.writeFileSync(path.join(root, '.ssh', 'id_rsa'), 'KEY');
    fs.symlinkSync(path.join(root, '.ssh', 'id_rsa'), path.join(root, 'docs', 'key.txt'));
    fs.symlinkSync(path.join(root, '.ssh'), path.join(root, 'docs', 'keys'));
    fs.symlinkSync(path.join(root, 'private', 'secret.txt'), path.join(root, 'docs', 'open.txt'));
    const hiding = makeScope({ hideDotfiles: true });
    for (const virtual of ['/docs/key.txt', '/docs/keys', '/docs/keys/id_rsa']) expect(await statusOf(hiding, virtual, 'read'), virtual).toBe(403);
    expect(await statusOf(makeScope(), '/docs/key.txt', 'read')).toBe('ok');
    const ruled = makeScope({ userRules: [deny('/private')] });
    expect(await statusOf(ruled, '/docs/open.txt', 'read')).toBe(403);
    expect(hiding.allowsLanding(path.join(root, '.ssh', 'id_rsa'))).toBe(false);
    expect(hiding.allowsLanding(path.join(root, 'docs', 'a.txt'))).toBe(true);
    expect(hiding.allowsLanding(path.join(outside, '.x'))).toBe(true);
  });

  it('refuses a share scope below an owner dot folder', async () => {
    fs.mkdirSync(path.join(root, '.config', 'app'), { recursive: true });
    const owner = makeScope({ hideDotfiles: true });
    expect(await statusOf(owner, '/.config/app', 'read')).toBe(403);
    const narrowed = await makeScope().narrow('/.config');
    const hidden = new Scope({ root: narrowed.root, rulePrefix: '/.config', globalRules: [], userRules: [], hideDotfiles: true, followExternalSymlinks: false, caseInsensitive: false });
    expect(await statusOf(hidden, '/app', 'read')).toBe(403);
  });

  it('narrows to a sub-folder while rules keep seeing owner paths', async () => {
    const scope = makeScope({ userRules: [deny('/docs/sub')] });
    const share = await scope.narrow('/docs');
    expect(share.root).toBe(path.join(root, 'docs'));
    expect(share.rulePath('/sub')).toBe('/docs/sub');
    expect(await statusOf(share, '/sub', 'read')).toBe(403);
    const file = await share.resolve('/../../a.txt', 'read');
    expect(file.real).toBe(path.join(root, 'docs', 'a.txt'));
  });

  it('probes the filesystem for case sensitivity without leaving files behind', () => {
    const before = fs.readdirSync(root);
    expect(typeof probeCaseInsensitive(root)).toBe('boolean');
    expect(fs.readdirSync(root)).toEqual(before);
  });
});
