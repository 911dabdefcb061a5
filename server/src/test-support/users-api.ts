import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

/** Every password the users tests ever send; none may come back in a response. */
const knownPasswords = new Set<string>();

export function rememberPassword(password: string): string {
  knownPasswords.add(password);
  return password;
}

/** Fails when a response body carries a password hash or any password the tests used. */
function expectNoSecrets(response: LightMyRequestResponse): void {
  const body = response.body;
  expect(body).not.toMatch(/\$argon2/);
  expect(body).not.toMatch(/\$2[abxy]\$/);
  expect(body).not.toMatch(/password_?hash/i);
  for (const password of knownPasswords) expect(body.includes(password), `response leaks ${password}`).toBe(false);
  if (response.headers['content-type']?.toString().startsWith('application/json')) {
    const parsed = JSON.parse(body) as unknown;
    for (const user of Array.isArray(parsed) ? parsed : [parsed]) {
      if (user && typeof user === 'object' && 'password' in user) expect((user as { password: string }).password).toBe('');
    }
  }
}

/** t.request that also checks the answer for leaked secrets. */
export async function call(t: TestApp, token: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await t.request(token, options);
  expectNoSecrets(response);
  return response;
}

export type WriteBody = { what?: string; which: string[]; current_password?: string; data: Record<string, unknown> };

export function putUser(t: TestApp, token: string, id: number, body: WriteBody) {
  return call(t, token, { method: 'PUT', url: `/api/users/${id}`, payload: { what: 'user', ...body } });
}

export function postUser(t: TestApp, token: string, body: WriteBody) {
  return call(t, token, { method: 'POST', url: '/api/users', payload: { what: 'user', ...body } });
}
