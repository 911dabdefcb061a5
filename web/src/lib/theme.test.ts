import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme } from './theme';

type Listener = (event: MediaQueryListEvent) => void;

function mockSystemScheme(initiallyDark: boolean) {
  const listeners = new Set<Listener>();
  const media = {
    matches: initiallyDark,
    addEventListener: (_type: string, listener: Listener) => listeners.add(listener),
    removeEventListener: (_type: string, listener: Listener) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', vi.fn(() => media));
  return {
    change(dark: boolean) {
      media.matches = dark;
      for (const listener of listeners) listener({ matches: dark } as MediaQueryListEvent);
    },
    listenerCount: () => listeners.size,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('applyTheme', () => {
  it('uses the configured theme whatever the system prefers', () => {
    mockSystemScheme(true);
    const root = document.createElement('html');
    expect(applyTheme('light', root)).toBe('light');
    expect(root.className).toBe('light');
    expect(applyTheme('dark', root)).toBe('dark');
    expect(root.className).toBe('dark');
  });

  it('follows the system scheme, live, when no theme is set', () => {
    const system = mockSystemScheme(false);
    const root = document.createElement('html');
    expect(applyTheme('', root)).toBe('light');
    system.change(true);
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.classList.contains('light')).toBe(false);
    // Choosing a theme stops following the system.
    applyTheme('light', root);
    expect(system.listenerCount()).toBe(0);
    system.change(true);
    expect(root.className).toBe('light');
  });
});
