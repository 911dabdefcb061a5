import { describe, expect, it } from 'vitest';
import { createSandbox, sandboxPathOf, SandboxUnavailable } from './sandbox.js';

describe('sandboxPathOf', () => {
  it('maps the scope and what lies below it to /scope, and nothing else', () => {
    expect(sandboxPathOf('/srv/data/alice', '/srv/data/alice')).toBe('/scope');
    expect(sandboxPathOf('/srv/data/alice', '/srv/data/alice/docs/a b.txt')).toBe('/scope/docs/a b.txt');
    expect(sandboxPathOf('/srv/data/alice', '/srv/data/alice/..x')).toBe('/scope/..x');
    for (const outside of ['/srv/data/alicex', '/srv/data', '/etc/passwd', '/srv/data/bob/a']) expect(sandboxPathOf('/srv/data/alice', outside), outside).toBeUndefined();
  });
});

describe('the start-up probe', () => {
  it('finds a working bubblewrap', async () => {
    expect(await createSandbox({ enableExec: true, bwrap: '/usr/bin/bwrap', commandUser: '' }).ready).toEqual({ available: true });
  });

  it('says why the sandbox is off, and then starts nothing', async () => {
    const off = createSandbox({ enableExec: false, bwrap: '/usr/bin/bwrap', commandUser: '' });
    expect(await off.ready).toMatchObject({ available: false, state: 'off' });
    const missing = createSandbox({ enableExec: true, bwrap: '/nonexistent/bwrap', commandUser: '' });
    expect(await missing.ready).toEqual({
      available: false,
      state: 'sandbox-missing',
      reason: 'bubblewrap was not found at /nonexistent/bwrap (install the bubblewrap package or set bwrap)',
    });
    expect(() => missing.spawn({ scopeRoot: '/', cwd: '/scope', argv: ['true'], stdout: 'ignore' })).toThrow(SandboxUnavailable);
    // A program that is not bubblewrap cannot start the sandbox.
    const broken = createSandbox({ enableExec: true, bwrap: '/bin/false', commandUser: '' });
    expect(await broken.ready).toMatchObject({ available: false, state: 'sandbox-unusable', reason: expect.stringMatching(/^bubblewrap at \/bin\/false cannot start a sandbox: exit status 1$/) });
  });
});
