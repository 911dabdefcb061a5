import { tooManyRequests } from '../../errors.js';

/** One key's recent failures, its attempts still being verified, and its pacing state. */
type Entry = {
  /** Failure times inside the window, oldest first (at most `keep` of them). */
  failures: number[];
  /** Attempts reserved and not yet settled: parallel requests see them before they finish. */
  inFlight: number;
  /** For paced keys: the earliest time the next verification may start. */
  nextSlot: number;
  /** For paced keys: requests sleeping until their slot. */
  waiting: number;
};

/** An attempt counted as in flight: settle it exactly once (later calls do nothing). */
export type Reservation = {
  /** The secret was wrong: the attempt becomes a recorded failure. */
  fail(): void;
  /** The attempt did not count against the key (right secret, or never verified). */
  release(): void;
};

export type AttemptLimiterOptions = {
  /** Failures plus attempts in flight allowed per key in `windowMs` (`reserve` refuses beyond). */
  max: number;
  windowMs: number;
  /** Failure times kept per key (default `max`); raise it for keys that are counted, not capped. */
  keep?: number;
  /** Keys tracked at most; the least recently used idle keys are dropped first. */
  maxKeys?: number;
  now?: () => number;
};

/**
 * Counts attempts per key in a sliding window. An attempt is reserved before the secret is
 * verified, so a burst of parallel requests sees the ones still being checked and cannot all
 * slip through; then it is settled as a failure or released. Memory stays bounded: past
 * `maxKeys`, the keys untouched the longest (expired ones, in practice) are evicted, never a key
 * with an attempt in flight, and never everything at once.
 */
export function createAttemptLimiter(options: AttemptLimiterOptions) {
  const entries = new Map<string, Entry>();
  const maxKeys = Math.max(1, options.maxKeys ?? 100_000);
  const keep = Math.max(1, Math.min(options.keep ?? options.max, 10_000));
  const now = options.now ?? Date.now;

  /** The live entry of a key, with expired failures dropped; idle empty entries are deleted. */
  function live(key: string, at: number): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const firstLive = entry.failures.findIndex((time) => at - time < options.windowMs);
    if (firstLive !== 0) entry.failures = firstLive < 0 ? [] : entry.failures.slice(firstLive);
    if (entry.failures.length === 0 && entry.inFlight === 0 && entry.nextSlot <= at) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Marks a key as just used (Map order is the eviction order), making room for a new one. */
  function touch(key: string, entry: Entry): void {
    if (entries.has(key)) entries.delete(key);
    else if (entries.size >= maxKeys) evict();
    entries.set(key, entry);
  }

  /** Drops the least recently used idle keys until a tenth of the room is free again. */
  function evict(): void {
    const target = Math.floor(maxKeys * 0.9);
    for (const [key, entry] of entries) {
      if (entries.size <= target) break;
      if (entry.inFlight === 0) entries.delete(key);
    }
  }

  function entryOf(key: string, at: number): Entry {
    const entry = live(key, at) ?? { failures: [], inFlight: 0, nextSlot: 0, waiting: 0 };
    touch(key, entry);
    return entry;
  }

  function reservationOf(key: string, entry: Entry): Reservation {
    let settled = false;
    return {
      fail() {
        if (settled) return;
        settled = true;
        entry.inFlight--;
        entry.failures.push(now());
        if (entry.failures.length > keep) entry.failures.splice(0, entry.failures.length - keep);
        // The entry may have been evicted while idle siblings were dropped: keep counting it.
        if (!entries.has(key)) touch(key, entry);
      },
      release() {
        if (settled) return;
        settled = true;
        entry.inFlight--;
      },
    };
  }

  return {
    /**
     * Reserves an attempt for `key`, or throws 429 with Retry-After when its failures and the
     * attempts in flight already fill the budget.
     */
    reserve(key: string): Reservation {
      const at = now();
      const entry = live(key, at);
      if (entry && entry.failures.length + entry.inFlight >= options.max) {
        // Only recorded failures have a known expiry; attempts in flight settle within moments.
        const oldestCounted = entry.failures.length >= options.max ? entry.failures[entry.failures.length - options.max]! : undefined;
        throw tooManyRequests(oldestCounted === undefined ? 1 : (oldestCounted + options.windowMs - at) / 1000);
      }
      const held = entryOf(key, at);
      held.inFlight++;
      return reservationOf(key, held);
    },

    /** Reserves an attempt without any budget: for keys that are slowed down, never refused. */
    track(key: string): Reservation {
      const held = entryOf(key, now());
      held.inFlight++;
      return reservationOf(key, held);
    },

    /** Recent failures of a key (attempts in flight excluded). */
    failures(key: string): number {
      return live(key, now())?.failures.length ?? 0;
    },

    /** Recent failures plus attempts in flight. */
    load(key: string): number {
      const entry = live(key, now());
      return entry ? entry.failures.length + entry.inFlight : 0;
    },

    /**
     * Pacing for a key whose verifications must be `spacingMs` apart: how long until the next
     * free turn, and a function that takes that turn. Nothing changes until `take` is called.
     */
    turn(key: string, spacingMs: number): { waitMs: number; waiting: number; take(): void; done(): void } {
      const at = now();
      const entry = entryOf(key, at);
      const slot = Math.max(at, entry.nextSlot);
      return {
        waitMs: slot - at,
        waiting: entry.waiting,
        take() {
          entry.nextSlot = slot + spacingMs;
          if (slot > at) entry.waiting++;
        },
        done() {
          if (slot > at) entry.waiting--;
        },
      };
    },

    /** Forgets a key's failures (a proven secret). */
    clear(key: string): void {
      const entry = entries.get(key);
      if (entry) entry.failures = [];
    },

    /** Keys currently tracked (for tests of the memory bound). */
    get size(): number {
      return entries.size;
    },
  };
}

/** An attempt counted as in flight, settled once, wherever the counts are kept. */
export type HeldAttempt = {
  /** The key's recent failures when the attempt was reserved. */
  failures: number;
  /** Its recent failures plus the attempts in flight, this one included, at that moment. */
  load: number;
  fail(): Promise<void>;
  release(): Promise<void>;
  /** The verification turn taken with the attempt, when it was paced. */
  turn?: Turn;
};

/** A verification turn taken: how long to wait for it, and `done` once waited. */
export type Turn = { waitMs: number; done(): void };

/**
 * Pacing of a key's verifications: the spacing its load calls for (0 for none), and whether an
 * attempt whose turn must wait may take it (else it is refused with 429).
 */
export type Pace = { spacingFor(load: number): number; admit(waitMs: number, waiting: number): boolean };

/**
 * Attempt counts as the guards use them, kept in this process (one instance) or in the database
 * (several instances sharing it): the same operations, each atomic for its key.
 */
export type Limiter = {
  /** Reserves an attempt, or throws 429 with Retry-After when the budget is full. */
  reserve(key: string): Promise<HeldAttempt>;
  /**
   * Reserves an attempt without any budget (counted, not refused for its number). With `pace`,
   * takes the key's next verification turn in the same step, spaced after the one before as the
   * load (this attempt included) calls for; a turn that must wait and is not admitted throws 429,
   * and the attempt is not counted.
   */
  track(key: string, pace?: Pace): Promise<HeldAttempt>;
  /** Forgets a key's failures (a proven secret). */
  clear(key: string): Promise<void>;
};

/**
 * Where the guards keep their counts: `name` sets the limiter apart from the others sharing the
 * store (the same client address is a different key for logins and for share links).
 */
export type LimitStore = (name: string, options: AttemptLimiterOptions) => Limiter;

/** Counts kept in this process, as `createAttemptLimiter` keeps them: the single-instance store. */
export const memoryLimits: LimitStore = (_name, options) => {
  const limiter = createAttemptLimiter(options);
  const held = (key: string, reservation: Reservation, turn?: Turn): HeldAttempt => ({
    failures: limiter.failures(key),
    load: limiter.load(key),
    turn,
    async fail() {
      reservation.fail();
    },
    async release() {
      reservation.release();
    },
  });
  return {
    async reserve(key) {
      return held(key, limiter.reserve(key));
    },
    async track(key, pace) {
      const reservation = limiter.track(key);
      const spacing = pace ? pace.spacingFor(limiter.load(key)) : 0;
      if (!pace || spacing === 0) return held(key, reservation);
      const turn = limiter.turn(key, spacing);
      if (turn.waitMs > 0 && !pace.admit(turn.waitMs, turn.waiting)) {
        reservation.release();
        throw tooManyRequests(turn.waitMs / 1000);
      }
      turn.take();
      return held(key, reservation, { waitMs: turn.waitMs, done: turn.done });
    },
    async clear(key) {
      limiter.clear(key);
    },
  };
};
