/**
 * The in-app path to go to after logging in. Only paths inside the app are accepted, so a
 * crafted link cannot send a user to another site (`//evil.example`, `https://…`).
 */
export function safeRedirect(value: string | null | undefined, fallback = '/files/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (value === '/login' || value.startsWith('/login?') || value.startsWith('/login/')) return fallback;
  return value;
}
