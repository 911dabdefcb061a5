/**
 * The file operations that run command hooks, and their events. Schema-free, so the web app can
 * import it without the TypeBox runtime.
 */
export const HookActions = ['copy', 'delete', 'rename', 'save', 'upload'] as const;
export type HookAction = (typeof HookActions)[number];

/** Every hook event, sorted by name (the order stored settings keep). */
export const HookEvents = [
  'after_copy',
  'after_delete',
  'after_rename',
  'after_save',
  'after_upload',
  'before_copy',
  'before_delete',
  'before_rename',
  'before_save',
  'before_upload',
] as const satisfies ReadonlyArray<`${'before' | 'after'}_${HookAction}`>;
export type HookEvent = (typeof HookEvents)[number];
