import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps paths inside the app', () => {
    expect(safeRedirect('/files/a/b/?x=1')).toBe('/files/a/b/?x=1');
    expect(safeRedirect('/settings/profile')).toBe('/settings/profile');
  });

  it('refuses other sites, the login page itself and empty values', () => {
    for (const value of ['//evil.example/x', 'https://evil.example', '/\\evil.example', '/login', '/login?redirect=/files/', '', null, undefined]) {
      expect(safeRedirect(value)).toBe('/files/');
    }
  });
});
