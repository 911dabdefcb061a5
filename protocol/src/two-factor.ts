import { Type, type Static } from '@sinclair/typebox';

export * from './two-factor-constants.js';

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  /** Whether the user must use it (the global setting or their own account's). */
  required: Type.Boolean(),
  /** Unused recovery codes left. */
  recoveryCodesLeft: Type.Integer(),
});
export type TwoFactorStatus = Static<typeof TwoFactorStatus>;

/** The secret of a new enrolment: shown once, as text and as an otpauth URI for a QR code. */
export const TwoFactorEnrolment = Type.Object({
  secret: Type.String(),
  uri: Type.String(),
});
export type TwoFactorEnrolment = Static<typeof TwoFactorEnrolment>;

export const TwoFactorCodeRequest = Type.Object({ code: Type.String({ maxLength: 64 }) });
export type TwoFactorCodeRequest = Static<typeof TwoFactorCodeRequest>;

export const TwoFactorChallengeRequest = Type.Object({
  challenge: Type.String({ maxLength: 256 }),
  code: Type.Optional(Type.String({ maxLength: 64 })),
});
export type TwoFactorChallengeRequest = Static<typeof TwoFactorChallengeRequest>;

/** Ten one-time codes, shown once. */
export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** Answer of the enrolment that completes a login: the JWT and the recovery codes. */
export const TwoFactorLoginEnrolled = Type.Object({ token: Type.String(), recoveryCodes: Type.Array(Type.String()) });
export type TwoFactorLoginEnrolled = Static<typeof TwoFactorLoginEnrolled>;

/** What an admin sees and sets for one user. */
export const UserTwoFactor = Type.Object({
  enabled: Type.Boolean(),
  /** Required for this user in particular. */
  required: Type.Boolean(),
  /** Required for everyone by the global setting. */
  requiredGlobally: Type.Boolean(),
});
export type UserTwoFactor = Static<typeof UserTwoFactor>;
export const UserTwoFactorUpdate = Type.Object({ required: Type.Boolean() });
export type UserTwoFactorUpdate = Static<typeof UserTwoFactorUpdate>;

export const TwoFactorPolicy = Type.Object({ requiredForEveryone: Type.Boolean() });
export type TwoFactorPolicy = Static<typeof TwoFactorPolicy>;
