import {
  RecoveryCodeCount,
  TwoFactorChallengeSeconds,
  TwoFactorHeaders,
  type TwoFactorEnrolment,
  type TwoFactorLoginState,
  type TwoFactorPolicy,
  type TwoFactorStatus,
  type UserTwoFactor,
} from '@burrow/protocol';
import type { Cluster } from '../../storage/cluster.js';
import type { Db } from '../../storage/db.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { createTwoFactorRepository, type TwoFactorRow } from './two-factor.repository.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UserRecord } from '../users/users.model.js';
import { memoryLimits, type LimitStore } from '../auth/attempt-limiter.js';
import { createPasswordGuard, type GuessPolicy, LoginPolicy } from '../auth/password-guard.js';
import { createChallenges, type Challenges } from './challenges.js';
import { createSecretBox, hashRecoveryCode, matchingStep, newRecoveryCode, newSecret, normaliseRecoveryCode, otpauthUri } from './totp.js';

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/**
 * Guesses of codes, per (account, client) and per client, as for passwords; the account here is
 * the user, whatever name they typed. Whoever guesses already knows the password.
 */
const CodeGuessPolicy: GuessPolicy = { ...LoginPolicy, perAccountClient: 5, perClient: 20, slowAfter: 5 };
/** Wrong codes one account takes in the policy's window from all clients together; then 429. */
const ACCOUNT_CAP = 10;

const POLICY_KEY = 'two_factor_policy';

type Row = TwoFactorRow;

/** The request details the service needs: where it came from, for the guess limits. */
type Client = { client: string };

export function createTwoFactorService(deps: {
  db: Db;
  settings: SettingsService;
  users: UsersRepository;
  /** Issues the session token of a completed login. */
  issue: (user: UserRecord) => Promise<string>;
  /** Other instances are told when the policy changes, and tell this one. */
  cluster?: Cluster;
  /** Where guess counts are kept (this process by default; the database when instances share it). */
  limits?: LimitStore;
  /** Where login challenges are kept (this process by default). */
  challenges?: (lifetimeMs: number, now: () => number) => Challenges;
  now?: () => number;
}) {
  const { db, settings, users, issue } = deps;
  const settingsRows = createSettingsRepository(db);
  const rows = createTwoFactorRepository(db);
  const now = deps.now ?? Date.now;
  const box = createSecretBox(settings.signingKey());
  const limits = deps.limits ?? memoryLimits;
  const guard = createPasswordGuard(CodeGuessPolicy, { now, limits, name: 'two-factor' });
  const accountCap = limits('two-factor.cap', { max: ACCOUNT_CAP, windowMs: CodeGuessPolicy.windowMs, now });
  const challenges = (deps.challenges ?? createChallenges)(TwoFactorChallengeSeconds * 1000, now);
  let policy: TwoFactorPolicy = { requiredForEveryone: false };

  async function loadPolicy(): Promise<void> {
    const row = await settingsRows.get(POLICY_KEY);
    if (row !== undefined) policy = { requiredForEveryone: Boolean((JSON.parse(row) as Partial<TwoFactorPolicy>).requiredForEveryone) };
  }

  deps.cluster?.on(POLICY_KEY, () => void loadPolicy().catch(() => undefined));

  async function rowOf(userId: number): Promise<Row | undefined> {
    return rows.find(userId);
  }

  /** Two-factor is about passwords: under proxy or no authentication Burrow asks none. */
  const applies = () => settings.get().authMethod === 'json';
  const isEnabled = (row: Row | undefined): row is Row & { secret: string } => Boolean(row?.enabled_at && row.secret);
  const isRequired = (row: Row | undefined) => policy.requiredForEveryone || row?.required === 1;

  function issuerName(): string {
    return settings.get().branding.name.trim() || 'Burrow';
  }

  async function countRecoveryCodes(userId: number): Promise<number> {
    return rows.countRecoveryCodes(userId);
  }

  /** Ten fresh codes replace any left; only their hashes are kept. */
  async function newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RecoveryCodeCount }, newRecoveryCode);
    await rows.replaceRecoveryCodes(userId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** A new secret awaiting its first code (replacing one that never got it). */
  async function startEnrolment(user: UserRecord): Promise<TwoFactorEnrolment> {
    const secret = newSecret();
    const sealed = box.seal(secret);
    await rows.startEnrolment(user.id, sealed);
    return { secret, uri: otpauthUri(issuerName(), user.username, secret) };
  }

  /**
   * Checks a code under the guess limits: a TOTP code of the stored secret whose time step is
   * later than the last one used (the step is then claimed in one conditional update, so two
   * requests with the same code cannot both pass), or, when `recovery` allows it, an unused
   * recovery code (deleted as it is accepted).
   */
  async function checkCode(userId: number, code: string, source: Client, options: { recovery: boolean }): Promise<boolean> {
    const typed = typeof code === 'string' ? code.trim() : '';
    if (!typed) throw badRequest('code is empty');
    const account = `two-factor:${userId}`;
    const cap = await accountCap.reserve(account);
    let valid = false;
    try {
      valid = await guard.verify({ account, client: source.client }, async () => {
        const row = await rowOf(userId);
        const secret = row?.secret ? box.open(row.secret) : undefined;
        if (!row || !secret) return false;
        const digits = typed.replace(/\s/g, '');
        if (/^\d{6}$/.test(digits)) {
          const step = await matchingStep(secret, digits, row.last_step === null ? null : Number(row.last_step), now());
          if (step === undefined) return false;
          return rows.claimStep(userId, step);
        }
        if (!options.recovery || normaliseRecoveryCode(typed).length !== 10) return false;
        return rows.useRecoveryCode(userId, hashRecoveryCode(typed));
      });
    } finally {
      if (valid) await cap.release();
      else await cap.fail();
    }
    return valid;
  }

  /** The secret's first code turns two-factor on; answers the recovery codes. */
  async function confirmEnrolment(userId: number, code: string, source: Client): Promise<string[]> {
    const row = await rowOf(userId);
    if (isEnabled(row)) throw conflict('two-factor authentication is already on');
    if (!row?.secret) throw conflict('no enrolment in progress');
    if (!(await checkCode(userId, code, source, { recovery: false }))) throw forbidden('wrong code');
    await rows.markEnabled(userId, now());
    return newRecoveryCodes(userId);
  }

  function loginRefusal(state: TwoFactorLoginState, challenge: string): AppError {
    return new AppError('unauthorized', `two-factor ${state}`, { [TwoFactorHeaders.state]: state, [TwoFactorHeaders.challenge]: challenge });
  }

  async function challengedUser(challenge: string | undefined, kind: 'code' | 'enrol'): Promise<UserRecord> {
    const found = typeof challenge === 'string' && challenge ? await challenges.find(challenge, kind) : undefined;
    const user = found ? await users.findById(found.userId) : undefined;
    // An unknown, expired or used challenge: start again from the password.
    if (!user) throw unauthorized();
    return user;
  }

  return {
    loadPolicy,

    /**
     * Called by the login once the password is right: lets the login through, or refuses it
     * with a challenge to complete with a code (or with an enrolment, when required).
     */
    async afterPassword(user: UserRecord): Promise<void> {
      if (!applies()) return;
      const row = await rowOf(user.id);
      if (isEnabled(row)) throw loginRefusal('required', await challenges.create(user.id, 'code'));
      if (isRequired(row)) throw loginRefusal('enrol', await challenges.create(user.id, 'enrol'));
    },

    /** POST /api/login/two-factor: the challenge and a code (or a recovery code) sign in. */
    async completeLogin(challenge: string | undefined, code: string | undefined, source: Client): Promise<string> {
      const user = await challengedUser(challenge, 'code');
      if (!(await checkCode(user.id, code ?? '', source, { recovery: true }))) {
        await challenges.wrongCode(challenge!);
        throw forbidden('wrong code');
      }
      // Used up at once: the same challenge completed elsewhere meanwhile signs in only there.
      if (!(await challenges.consume(challenge!, 'code'))) throw unauthorized();
      return issue(user);
    },

    /** POST /api/login/two-factor/enrol: what a required user scans before signing in. */
    async loginEnrol(challenge: string | undefined): Promise<TwoFactorEnrolment> {
      const user = await challengedUser(challenge, 'enrol');
      if (isEnabled(await rowOf(user.id))) throw conflict('two-factor authentication is already on');
      return startEnrolment(user);
    },

    /** POST /api/login/two-factor/confirm: its first code turns it on and signs in. */
    async loginConfirm(challenge: string | undefined, code: string | undefined, source: Client): Promise<{ token: string; recoveryCodes: string[] }> {
      const user = await challengedUser(challenge, 'enrol');
      let recoveryCodes: string[];
      try {
        recoveryCodes = await confirmEnrolment(user.id, code ?? '', source);
      } catch (error) {
        if (error instanceof AppError && error.status === 403) await challenges.wrongCode(challenge!);
        throw error;
      }
      if (!(await challenges.consume(challenge!, 'enrol'))) throw unauthorized();
      return { token: await issue(user), recoveryCodes };
    },

    async status(user: UserRecord): Promise<TwoFactorStatus> {
      const row = await rowOf(user.id);
      const enabled = isEnabled(row);
      return { enabled, required: applies() && isRequired(row), recoveryCodesLeft: enabled ? await countRecoveryCodes(user.id) : 0 };
    },

    async enrol(user: UserRecord): Promise<TwoFactorEnrolment> {
      if (isEnabled(await rowOf(user.id))) throw conflict('two-factor authentication is already on');
      return startEnrolment(user);
    },

    confirm(user: UserRecord, code: string | undefined, source: Client): Promise<string[]> {
      return confirmEnrolment(user.id, code ?? '', source);
    },

    /** Off with a code or a recovery code; not while it is required. */
    async disable(user: UserRecord, code: string | undefined, source: Client): Promise<void> {
      const row = await rowOf(user.id);
      if (!isEnabled(row)) throw conflict('two-factor authentication is off');
      if (applies() && isRequired(row)) throw forbidden('two-factor authentication is required for this account');
      if (!(await checkCode(user.id, code ?? '', source, { recovery: true }))) throw forbidden('wrong code');
      await this.reset(user.id);
    },

    /** New recovery codes for a code from the app (not a recovery code). */
    async replaceRecoveryCodes(user: UserRecord, code: string | undefined, source: Client): Promise<string[]> {
      if (!isEnabled(await rowOf(user.id))) throw conflict('two-factor authentication is off');
      if (!(await checkCode(user.id, code ?? '', source, { recovery: false }))) throw forbidden('wrong code');
      return newRecoveryCodes(user.id);
    },

    /** Removes the secret and recovery codes (turning off, admin reset); the requirement stays. */
    async reset(userId: number): Promise<void> {
      await rows.reset(userId);
      await challenges.forgetUser(userId);
    },

    async forUser(userId: number): Promise<UserTwoFactor> {
      if (!(await users.findById(userId))) throw notFound();
      const row = await rowOf(userId);
      return { enabled: isEnabled(row), required: row?.required === 1, requiredGlobally: policy.requiredForEveryone };
    },

    async setRequired(userId: number, required: boolean): Promise<void> {
      if (!(await users.findById(userId))) throw notFound();
      await rows.setRequired(userId, required);
    },

    /** Admin reset: the user signs in with the password alone (or enrols again if required). */
    async resetUser(userId: number): Promise<void> {
      if (!(await users.findById(userId))) throw notFound();
      await this.reset(userId);
    },

    policy(): TwoFactorPolicy {
      return { ...policy };
    },

    async setPolicy(next: TwoFactorPolicy): Promise<TwoFactorPolicy> {
      const value = JSON.stringify({ requiredForEveryone: next.requiredForEveryone });
      await settingsRows.put(POLICY_KEY, value);
      policy = { requiredForEveryone: next.requiredForEveryone };
      await deps.cluster?.publish(POLICY_KEY);
      return { ...policy };
    },

    /** A deleted user's secret, codes and challenges go with them. */
    async forget(userId: number): Promise<void> {
      await rows.removeUser(userId);
      await challenges.forgetUser(userId);
    },
  };
}
