import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorLoginEnrolled, TwoFactorPolicy, TwoFactorStatus, UserTwoFactor } from '@burrow/protocol';
import { TwoFactorPaths, TwoFactorPolicyPath, userTwoFactorPath } from '@burrow/protocol/two-factor-constants';
import { request, requestJson, requestText } from './http-client';

export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatus> {
  return requestJson(TwoFactorPaths.status, { signal });
}

export function startTwoFactor(): Promise<TwoFactorEnrolment> {
  return requestJson(TwoFactorPaths.enrol, { method: 'POST' });
}

export async function confirmTwoFactor(code: string): Promise<string[]> {
  return (await requestJson<RecoveryCodes>(TwoFactorPaths.confirm, { method: 'POST', body: { code } })).recoveryCodes;
}

export async function disableTwoFactor(code: string): Promise<void> {
  await request(TwoFactorPaths.disable, { method: 'POST', body: { code } });
}

/** Completes a login that answered with a challenge: the session token. */
export function completeTwoFactorLogin(challenge: string, code: string): Promise<string> {
  return requestText(TwoFactorPaths.login, { method: 'POST', body: { challenge, code }, auth: false });
}

/** For a user who must enrol before signing in. */
export function startLoginEnrolment(challenge: string): Promise<TwoFactorEnrolment> {
  return requestJson(TwoFactorPaths.loginEnrol, { method: 'POST', body: { challenge }, auth: false });
}

export function confirmLoginEnrolment(challenge: string, code: string): Promise<TwoFactorLoginEnrolled> {
  return requestJson(TwoFactorPaths.loginConfirm, { method: 'POST', body: { challenge, code }, auth: false });
}

export function getUserTwoFactor(id: number, signal?: AbortSignal): Promise<UserTwoFactor> {
  return requestJson(userTwoFactorPath(id), { signal });
}

export async function setUserTwoFactorRequired(id: number, required: boolean): Promise<void> {
  await request(userTwoFactorPath(id), { method: 'PUT', body: { required } });
}

export async function resetUserTwoFactor(id: number): Promise<void> {
  await request(userTwoFactorPath(id), { method: 'DELETE' });
}

export function getTwoFactorPolicy(signal?: AbortSignal): Promise<TwoFactorPolicy> {
  return requestJson(TwoFactorPolicyPath, { signal });
}

export function setTwoFactorPolicy(policy: TwoFactorPolicy): Promise<TwoFactorPolicy> {
  return requestJson(TwoFactorPolicyPath, { method: 'PUT', body: policy });
}
