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
import type { Db } from '../../storage/db.js';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { UserRecord } from '../users/users.model.js';
import { createAttemptLimiter } from '../auth/attempt-limiter.js';
import { createPasswordGuard, type GuessPolicy, LoginPolicy } from '../auth/password-guard.js';
import { createChallenges } from './challenges.js';
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

type Row = { secret: string | null; enabled_at: number | null; required: number; last_step: number | null };

/** The request details the service needs: where it came from, for the guess limits. */
type Client = { client: string };

export function createTwoFactorService(deps: {
  db: Db;
  settings: SettingsService;
  users: UsersRepository;
  /** Issues the session token of a completed login. */
  issue: (user: UserRecord) => Promise<string>;
  now?: () => number;
}) {
  const { db, settings, users, issue } = deps;
  const now = deps.now ?? Date.now;
  const box = createSecretBox(settings.signingKey());
  const guard = createPasswordGuard(CodeGuessPolicy, { now });
  const accountCap = createAttemptLimiter({ max: ACCOUNT_CAP, windowMs: CodeGuessPolicy.windowMs, now });
  const challenges = createChallenges(TwoFactorChallengeSeconds * 1000, now);
  let policy: TwoFactorPolicy = { requiredForEveryone: false };

  async function loadPolicy(): Promise<void> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', POLICY_KEY).executeTakeFirst();
    if (row) policy = { requiredForEveryone: Boolean((JSON.parse(row.value) as Partial<TwoFactorPolicy>).requiredForEveryone) };
  }

  async function rowOf(userId: number): Promise<Row | undefined> {
    return db.selectFrom('two_factor').select(['secret', 'enabled_at', 'required', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Two-factor is about passwords: under proxy or no authentication Burrow asks none. */
  const applies = () => settings.get().authMethod === 'json';
  const isEnabled = (row: Row | undefined): row is Row & { secret: string } => Boolean(row?.enabled_at && row.secret);
  const isRequired = (row: Row | undefined) => policy.requiredForEveryone || row?.required === 1;

  function issuerName(): string {
    return settings.get().branding.name.trim() || 'Burrow';
  }

  async function countRecoveryCodes(userId: number): Promise<number> {
    const row = await db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Ten fresh codes replace any left; only their hashes are kept. */
  async function newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RecoveryCodeCount }, newRecoveryCode);
    await db.transaction().execute(async (tx) => {
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx
        .insertInto('recovery_codes')
        .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code) })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    });
    return codes;
  }

  /** A new secret awaiting its first code (replacing one that never got it). */
  async function startEnrolment(user: UserRecord): Promise<TwoFactorEnrolment> {
    const secret = newSecret();
    const sealed = box.seal(secret);
    await db
      .insertInto('two_factor')
      .values({ user_id: user.id, secret: sealed, enabled_at: null, required: 0, last_step: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: sealed, enabled_at: null, last_step: null }))
      .execute();
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
    const cap = accountCap.reserve(account);
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
          const claimed = await db
            .updateTable('two_factor')
            .set({ last_step: step })
            .where('user_id', '=', userId)
            .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
            .executeTakeFirst();
          return Number(claimed.numUpdatedRows) === 1;
        }
        if (!options.recovery || normaliseRecoveryCode(typed).length !== 10) return false;
        const used = await db
          .deleteFrom('recovery_codes')
          .where('user_id', '=', userId)
          .where('code_hash', '=', hashRecoveryCode(typed))
          .executeTakeFirst();
        return Number(used.numDeletedRows) === 1;
      });
    } finally {
      if (valid) cap.release();
      else cap.fail();
    }
    return valid;
  }

  /** The secret's first code turns two-factor on; answers the recovery codes. */
  async function confirmEnrolment(userId: number, code: string, source: Client): Promise<string[]> {
    const row = await rowOf(userId);
    if (isEnabled(row)) throw conflict('two-factor authentication is already on');
    if (!row?.secret) throw conflict('no enrolment in progress');
    if (!(await checkCode(userId, code, source, { recovery: false }))) throw forbidden('wrong code');
    await db.updateTable('two_factor').set({ enabled_at: now() }).where('user_id', '=', userId).execute();
    return newRecoveryCodes(userId);
  }

  function loginRefusal(state: TwoFactorLoginState, challenge: string): AppError {
    return new AppError('unauthorized', `two-factor ${state}`, { [TwoFactorHeaders.state]: state, [TwoFactorHeaders.challenge]: challenge });
  }

  async function challengedUser(challenge: string | undefined, kind: 'code' | 'enrol'): Promise<UserRecord> {
    const found = typeof challenge === 'string' && challenge ? challenges.find(challenge, kind) : undefined;
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
      if (isEnabled(row)) throw loginRefusal('required', challenges.create(user.id, 'code'));
      if (isRequired(row)) throw loginRefusal('enrol', challenges.create(user.id, 'enrol'));
    },

    /** POST /api/login/two-factor: the challenge and a code (or a recovery code) sign in. */
    async completeLogin(challenge: string | undefined, code: string | undefined, source: Client): Promise<string> {
      const user = await challengedUser(challenge, 'code');
      if (!(await checkCode(user.id, code ?? '', source, { recovery: true }))) {
        challenges.wrongCode(challenge!);
        throw forbidden('wrong code');
      }
      challenges.consume(challenge!);
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
        if (error instanceof AppError && error.status === 403) challenges.wrongCode(challenge!);
        throw error;
      }
      challenges.consume(challenge!);
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
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('two_factor').set({ secret: null, enabled_at: null, last_step: null }).where('user_id', '=', userId).execute();
        await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
      challenges.forgetUser(userId);
    },

    async forUser(userId: number): Promise<UserTwoFactor> {
      if (!(await users.findById(userId))) throw notFound();
      const row = await rowOf(userId);
      return { enabled: isEnabled(row), required: row?.required === 1, requiredGlobally: policy.requiredForEveryone };
    },

    async setRequired(userId: number, required: boolean): Promise<void> {
      if (!(await users.findById(userId))) throw notFound();
      const value = required ? 1 : 0;
      await db
        .insertInto('two_factor')
        .values({ user_id: userId, secret: null, enabled_at: null, required: value, last_step: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ required: value }))
        .execute();
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
      await db
        .insertInto('settings')
        .values({ key: POLICY_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      policy = { requiredForEveryone: next.requiredForEveryone };
      return { ...policy };
    },

    /** A deleted user's secret, codes and challenges go with them. */
    async forget(userId: number): Promise<void> {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      challenges.forgetUser(userId);
    },
  };
}
