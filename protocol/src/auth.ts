import { Type, type Static } from '@sinclair/typebox';

export const LoginRequest = Type.Object({
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  recaptcha: Type.Optional(Type.String()),
});
export type LoginRequest = Static<typeof LoginRequest>;

export const SignupRequest = Type.Object({
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
});
export type SignupRequest = Static<typeof SignupRequest>;

export const AuthMethods = ['json', 'proxy', 'noauth'] as const;
export type AuthMethod = (typeof AuthMethods)[number];

/** Maximum size of login and signup bodies. */
export const AuthBodyLimit = 1024 * 1024;

/** Pattern the login page uses to read the minimum password length from a 400 text. */
export { MinimumLengthPattern } from './constants.js';
