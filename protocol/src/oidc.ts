import { Type, type Static } from '@sinclair/typebox';

// Schema-free, so the web app's login page can import them without the schema library.
export { OidcErrors, OidcPaths, type OidcError } from './oidc-paths.js';

/** Editable settings; the client secret is write-only and never part of an answer. */
export const OidcSettingsFields = {
  enabled: Type.Boolean(),
  /** The issuer URL; its `/.well-known/openid-configuration` is read. */
  issuer: Type.String({ maxLength: 2048 }),
  clientId: Type.String({ maxLength: 1024 }),
  /** Space-separated; `openid` is always asked for. */
  scopes: Type.String({ maxLength: 1024 }),
  /** The claim naming the user; when missing, `email`, then `sub`. */
  usernameClaim: Type.String({ maxLength: 256 }),
  /** The claim listing the user's groups (empty: groups are not read). */
  groupsClaim: Type.String({ maxLength: 256 }),
  /** Members of this group are admins, others are not (empty: sign-in leaves admin rights alone). */
  adminGroup: Type.String({ maxLength: 1024 }),
  /** Text of the login page's button (empty: a translated default). */
  buttonLabel: Type.String({ maxLength: 256 }),
  /** Create unknown users from the new-user defaults on their first sign-in. */
  autoCreate: Type.Boolean(),
  /** Off: while single sign-on is on, only the break-glass admin may sign in with a password. */
  passwordLogin: Type.Boolean(),
  /** The username that may still sign in with a password when password sign-in is off. */
  breakGlassAdmin: Type.String({ maxLength: 255 }),
};

/** `GET /api/oidc/settings`. */
export const OidcSettings = Type.Object({
  ...OidcSettingsFields,
  /** Whether a client secret is stored (the secret itself is never sent). */
  clientSecretSet: Type.Boolean(),
  /** Fields fixed by the server configuration or environment: changes to them are refused. */
  locked: Type.Array(Type.String()),
});
export type OidcSettings = Static<typeof OidcSettings>;

/** `PUT /api/oidc/settings`: a left-out `clientSecret` keeps the stored one, `""` removes it. */
export const OidcSettingsUpdate = Type.Object(
  {
    ...OidcSettingsFields,
    clientSecret: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);
export type OidcSettingsUpdate = Static<typeof OidcSettingsUpdate>;

/** What the login page needs to know, injected with the start-up settings. */
export type OidcStartup = {
  Enabled: boolean;
  ButtonLabel: string;
  /** False when password sign-in is kept for the break-glass admin alone. */
  PasswordLogin: boolean;
};

/** `POST /api/oidc/logout`. */
export type OidcLogoutResponse = { endSessionUrl: string };
