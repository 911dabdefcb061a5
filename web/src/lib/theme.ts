type ThemeChoice = 'light' | 'dark' | '';
export type AppliedTheme = 'light' | 'dark';

const darkQuery = '(prefers-color-scheme: dark)';
let stopFollowingSystem: (() => void) | undefined;

function normaliseTheme(value: string | undefined): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : '';
}

function setRootTheme(root: HTMLElement, theme: AppliedTheme) {
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
}

/**
 * Puts a `light` or `dark` class on the root element. An unset theme follows the system colour
 * scheme and keeps following it when the system preference changes.
 */
export function applyTheme(choice: string, root: HTMLElement = document.documentElement): AppliedTheme {
  stopFollowingSystem?.();
  stopFollowingSystem = undefined;
  const theme = normaliseTheme(choice);
  if (theme) {
    setRootTheme(root, theme);
    return theme;
  }
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(darkQuery) : undefined;
  const current: AppliedTheme = media?.matches ? 'dark' : 'light';
  setRootTheme(root, current);
  if (media) {
    const handleChange = (event: MediaQueryListEvent) => setRootTheme(root, event.matches ? 'dark' : 'light');
    media.addEventListener('change', handleChange);
    stopFollowingSystem = () => media.removeEventListener('change', handleChange);
  }
  return current;
}
