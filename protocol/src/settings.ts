import { Type, type Static } from '@sinclair/typebox';
import { Rule, UserDefaults } from './users.js';
import { TrashSettings } from './trash.js';

export { HookActions, HookEvents, type HookAction, type HookEvent } from './hook-events.js';

export const Branding = Type.Object({
  name: Type.String(),
  disableExternal: Type.Boolean(),
  disableUsedPercentage: Type.Boolean(),
  files: Type.String(),
  theme: Type.String(),
  color: Type.String(),
});
export type Branding = Static<typeof Branding>;

export const TusSettings = Type.Object({
  chunkSize: Type.Integer({ minimum: 0 }),
  retryCount: Type.Integer({ minimum: 0 }),
});
export type TusSettings = Static<typeof TusSettings>;

export const Settings = Type.Object({
  signup: Type.Boolean(),
  hideLoginButton: Type.Boolean(),
  createUserDir: Type.Boolean(),
  minimumPasswordLength: Type.Integer({ minimum: 1 }),
  userHomeBasePath: Type.String(),
  defaults: UserDefaults,
  authMethod: Type.String(),
  rules: Type.Array(Rule),
  branding: Branding,
  tus: TusSettings,
  shell: Type.Array(Type.String()),
  commands: Type.Record(Type.String(), Type.Array(Type.String())),
  trash: TrashSettings,
});
export type Settings = Static<typeof Settings>;

/** PUT /api/settings accepts the same shape; optional fields fall back to the stored value. */
export const SettingsUpdate = Type.Object({
  signup: Type.Boolean(),
  hideLoginButton: Type.Optional(Type.Boolean()),
  createUserDir: Type.Boolean(),
  minimumPasswordLength: Type.Integer({ minimum: 1 }),
  userHomeBasePath: Type.String(),
  defaults: UserDefaults,
  authMethod: Type.Optional(Type.String()),
  rules: Type.Union([Type.Array(Rule), Type.Null()]),
  branding: Branding,
  tus: TusSettings,
  shell: Type.Union([Type.Array(Type.String()), Type.Null()]),
  commands: Type.Union([Type.Record(Type.String(), Type.Union([Type.Array(Type.String()), Type.Null()])), Type.Null()]),
  /** Absent from filebrowser's clients: the stored trash settings are kept. */
  trash: Type.Optional(TrashSettings),
});
export type SettingsUpdate = Static<typeof SettingsUpdate>;

export const DefaultTus: TusSettings = { chunkSize: 10 * 1024 * 1024, retryCount: 5 };
export const DefaultMinimumPasswordLength = 12;
