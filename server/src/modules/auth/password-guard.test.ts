import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../errors.js';
import { openDatabase, type Db } from '../../storage/db.js';
import { acquireTestCluster, type TestCluster } from '../../test-support/postgres.js';
import { memoryLimits, type LimitStore } from './attempt-limiter.js';
import { createPasswordGuard, type GuessPolicy } from './password-guard.js';
import { clientAddress } from './proxy.js';
import { createSharedLimits, sweepSharedLimits } from './shared-limits.js';

const POLICY: GuessPolicy = {
  windowMs: 60_000,
  perAccountClient: 3,
  perClient: 5,
  slowAfter: 4,
  delayMs: 1_000,
  delayStepMs: 1_000,
  maxDelayMs: 5_000,
  maxWaitMs: 4_000,
  maxWaiting: 2,
};

// The same guard keeps its counts in this process (one instance) or in PostgreSQL (shared).
let postgres: TestCluster | undefined;
let shared: Db | undefined;
beforeAll(async () => {
  postgres = await acquireTestCluster();
  shared = await openDatabase(await postgres.createDatabase('guard'));
}, 120_000);
afterAll(async () => {
  await shared?.destroy();
  await postgres?.release();
});

const stores: Array<[string, () => LimitStore]> = [
  ['in memory', () => memoryLimits],
  ['in a shared database', () => createSharedLimits(shared!)],
];
let guards = 0;

/** A guard on a stopped clock, recording how long each request was made to wait. */
function guardOnClock(policy: GuessPolicy, store: LimitStore) {
  const time = { now: 0, slept: [] as number[] };
  const guard = createPasswordGuard(policy, {
    now: () => time.now,
    sleep: async (ms) => {
      time.slept.push(ms);
    },
    limits: store,
    // Each test's guard counts apart from the others' in the shared table.
    name: `test-${++guards}`,
  });
  return { guard, time };
}

async function statusOf(attempt: Promise<boolean>): Promise<number> {
  try {
    return (await attempt) ? 200 : 403;
  } catch (error) {
    return (error as AppError).status;
  }
}

describe.each(stores)('password guard, counts kept %s', (where, storeOf) => {
  it('refuses past the budget per (account, client) and per client, never checking the secret', async () => {
    const { guard } = guardOnClock(POLICY, storeOf());
    let checks = 0;
    const wrong = async () => {
      checks++;
      return false;
    };
    const from = (account: string, client: string) => statusOf(guard.verify({ account, client }, wrong));
    expect([await from('a', 'c1'), await from('a', 'c1'), await from('a', 'c1'), await from('a', 'c1')]).toEqual([403, 403, 403, 429]);
    // The same client on other accounts, up to its own budget.
    expect([await from('b', 'c1'), await from('b', 'c1'), await from('b', 'c1')]).toEqual([403, 403, 429]);
    expect(checks).toBe(5);
    // Another client is untouched.
    expect(await statusOf(guard.verify({ account: 'a', client: 'c2' }, async () => true))).toBe(200);
  });

  it('forgets the (account, client) failures after a right secret, not the client ones', async () => {
    const { guard } = guardOnClock(POLICY, storeOf());
    const source = { account: 'a', client: 'c' };
    await statusOf(guard.verify(source, async () => false));
    await statusOf(guard.verify(source, async () => false));
    expect(await statusOf(guard.verify(source, async () => true))).toBe(200);
    expect([await statusOf(guard.verify(source, async () => false)), await statusOf(guard.verify(source, async () => false))]).toEqual([403, 403]);
    // Four failures from `c` so far; the client budget is five.
    expect(await statusOf(guard.verify({ account: 'b', client: 'c' }, async () => false))).toBe(403);
    expect(await statusOf(guard.verify({ account: 'x', client: 'c' }, async () => true))).toBe(429);
  });

  it('spaces out an account under guessing from many clients: fresh clients wait, failed ones are told when', async () => {
    const { guard, time } = guardOnClock(POLICY, storeOf());
    for (let index = 0; index < 4; index++) expect(await statusOf(guard.verify({ account: 'a', client: `c${index}` }, async () => false))).toBe(403);
    // The fifth attempt is past `slowAfter`: it runs now and sets the pace.
    expect(await statusOf(guard.verify({ account: 'a', client: 'c4' }, async () => false))).toBe(403);
    expect(time.slept).toEqual([]);
    // A client that failed on this account before is refused until its turn…
    expect(await statusOf(guard.verify({ account: 'a', client: 'c0' }, async () => true))).toBe(429);
    // …a fresh one waits for it.
    expect(await statusOf(guard.verify({ account: 'a', client: 'owner' }, async () => true))).toBe(200);
    expect(time.slept).toEqual([1_000]);
    // Other accounts keep full speed.
    expect(await statusOf(guard.verify({ account: 'b', client: 'c9' }, async () => true))).toBe(200);
    expect(time.slept).toEqual([1_000]);
  });

  it('lets only a few fresh clients wait for one account, and not for long', async () => {
    const { guard } = guardOnClock({ ...POLICY, slowAfter: 0 }, storeOf());
    const checks: string[] = [];
    const attempts = ['c1', 'c2', 'c3', 'c4', 'c5'].map((client) =>
      statusOf(
        guard.verify({ account: 'a', client }, async () => {
          checks.push(client);
          return false;
        }),
      ),
    );
    // The first runs at once; the next two wait (two may); the last two are refused. In memory
    // they come in the order sent; through a shared database, in the order their counts land.
    const statuses = await Promise.all(attempts);
    expect([...statuses].sort()).toEqual([403, 403, 403, 429, 429]);
    expect([...checks].sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5'].filter((_, index) => statuses[index] === 403));
    if (where === 'in memory') expect(checks).toEqual(['c1', 'c2', 'c3']);
  });
});

describe('guess counts in a shared database', () => {
  it('forget failures after their window, and attempts whose instance never settled them', async () => {
    const time = { now: 1_000_000 };
    const store = createSharedLimits(shared!);
    const limiter = store(`test-${++guards}`, { max: 2, windowMs: 60_000, now: () => time.now });
    await (await limiter.reserve('k')).fail();
    await (await limiter.reserve('k')).fail();
    await expect(limiter.reserve('k')).rejects.toMatchObject({ status: 429 });
    // An instance that stopped between reserving and settling: its attempt counts for a while only.
    const other = store(`test-${++guards}`, { max: 1, windowMs: 60_000, now: () => time.now });
    await other.reserve('k');
    await expect(other.reserve('k')).rejects.toMatchObject({ status: 429 });
    time.now += 60_000;
    expect((await limiter.reserve('k')).failures).toBe(0);
    await expect(other.reserve('k')).rejects.toMatchObject({ status: 429 });
    time.now += 2 * 60_000;
    const held = await other.reserve('k');
    expect(held.load).toBe(1);
    await held.release();
    // Rows whose counts all expired are swept.
    const before = await shared!.selectFrom('sign_in_limits').select('key').execute();
    expect(before.length).toBeGreaterThan(0);
    await sweepSharedLimits(shared!, time.now + 5 * 60_000);
    expect(await shared!.selectFrom('sign_in_limits').select('key').execute()).toEqual([]);
  });
});

describe('client address', () => {
  it('is the peer unless the peer is a trusted proxy', () => {
    expect(clientAddress('203.0.113.5', '10.0.0.1', [])).toBe('203.0.113.5');
    expect(clientAddress('203.0.113.5', '10.0.0.1', ['127.0.0.1'])).toBe('203.0.113.5');
    expect(clientAddress('::ffff:127.0.0.1', undefined, ['127.0.0.1'])).toBe('127.0.0.1');
  });

  it('behind trusted proxies, is the right-most address that is not one of them', () => {
    const trusted = ['127.0.0.1', '10.0.0.0/8'];
    expect(clientAddress('127.0.0.1', '198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', 'spoofed, 1.2.3.4, 198.51.100.7, 10.1.2.3', trusted)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', ['1.2.3.4', '198.51.100.7'], trusted)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', '198.51.100.7:4711', trusted)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', '[2001:db8::1]:4711', trusted)).toBe('2001:db8::1');
    // Only proxies named: the left-most one is the client; garbage leaves the proxy itself.
    expect(clientAddress('127.0.0.1', '10.0.0.2, 10.0.0.3', trusted)).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', 'unknown', trusted)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '', trusted)).toBe('127.0.0.1');
  });
});
