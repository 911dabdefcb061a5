/** Who made a change: the acting account, by id and name. */
export type FileEventUser = { id: number; username: string };

/**
 * What changed on disk through Burrow. Paths are real (absolute) paths; `virtual` paths are in
 * the acting user's scope. Listeners keep derived state current: the search index, the thumbnail
 * cache, share links.
 */
export type FileEvent =
  | { kind: 'created'; user: FileEventUser; real: string; virtual: string; isDir: boolean }
  | { kind: 'modified'; user: FileEventUser; real: string; virtual: string }
  | { kind: 'deleted'; user: FileEventUser; real: string; virtual: string; isDir: boolean }
  | { kind: 'moved'; user: FileEventUser; fromReal: string; toReal: string; fromVirtual: string; toVirtual: string; isDir: boolean }
  | { kind: 'copied'; user: FileEventUser; fromReal: string; toReal: string; fromVirtual: string; toVirtual: string; isDir: boolean };

export type FileEventListener = (event: FileEvent) => void | Promise<void>;

export type FileEvents = ReturnType<typeof createFileEvents>;

/** A small typed bus: `emit` awaits every listener; a failing listener is logged, never fatal. */
export function createFileEvents(log: { warn: (object: unknown, message: string) => void }) {
  const listeners = new Set<FileEventListener>();
  return {
    on(listener: FileEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async emit(event: FileEvent): Promise<void> {
      for (const listener of listeners) {
        try {
          await listener(event);
        } catch (error) {
          log.warn({ err: error, kind: event.kind }, 'file event listener failed');
        }
      }
    },
  };
}
