import { describe, expect, it, vi } from 'vitest';
import { createFileEvents, type FileEvent } from './file-events.js';
import type { FileEventUser } from './file-events.js';

describe('file events', () => {
  const user = { id: 1, username: 'admin' } as FileEventUser;
  const created: FileEvent = { kind: 'created', user, real: '/srv/a', virtual: '/a', isDir: false };

  it('awaits every listener in order and stops calling removed ones', async () => {
    const events = createFileEvents({ warn: () => undefined });
    const seen: string[] = [];
    events.on(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`slow ${event.kind}`);
    });
    const off = events.on((event) => void seen.push(`fast ${event.kind}`));
    await events.emit(created);
    expect(seen).toEqual(['slow created', 'fast created']);
    off();
    await events.emit({ kind: 'modified', user, real: '/srv/a', virtual: '/a' });
    expect(seen).toEqual(['slow created', 'fast created', 'slow modified']);
  });

  it('logs a failing listener and still calls the others', async () => {
    const warn = vi.fn();
    const events = createFileEvents({ warn });
    const later = vi.fn();
    events.on(() => {
      throw new Error('index unavailable');
    });
    events.on(later);
    await expect(events.emit(created)).resolves.toBeUndefined();
    expect(later).toHaveBeenCalledWith(created);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ kind: 'created' });
  });
});
