/**
 * The command history walked with the arrow keys: `entries` oldest first, `position` the entry
 * shown (`entries.length` means the fresh line being typed).
 */
export type ShellHistory = { entries: readonly string[]; position: number };

export const emptyHistory: ShellHistory = { entries: [], position: 0 };

/** Adds a command that ran (a repeat of the last one is kept once) and returns to a fresh line. */
export function remember(history: ShellHistory, command: string): ShellHistory {
  const entries = history.entries[history.entries.length - 1] === command ? history.entries : [...history.entries, command];
  return { entries, position: entries.length };
}

/**
 * One step back (`up`) or forward (`down`); the text to show is the entry reached, or an empty
 * line past the newest one. Stepping beyond either end stays where it is.
 */
export function step(history: ShellHistory, direction: 'up' | 'down'): { history: ShellHistory; text: string } | undefined {
  const position = direction === 'up' ? history.position - 1 : history.position + 1;
  if (position < 0 || position > history.entries.length) return undefined;
  return { history: { ...history, position }, text: history.entries[position] ?? '' };
}
