import { DefaultMinimumPasswordLength, DefaultTrash, DefaultTus, HookEvents, type Settings } from '@burrow/protocol';

/** Values of a fresh install (wire protocol section 8). */
export function freshSettings(): Settings {
  return {
    signup: false,
    hideLoginButton: true,
    createUserDir: false,
    minimumPasswordLength: DefaultMinimumPasswordLength,
    userHomeBasePath: '/users',
    defaults: {
      scope: '.',
      locale: 'en',
      viewMode: 'mosaic',
      singleClick: false,
      redirectAfterCopyMove: true,
      sorting: { by: '', asc: false },
      perm: { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true },
      commands: [],
      hideDotfiles: false,
      dateFormat: false,
      aceEditorTheme: '',
    },
    authMethod: 'json',
    rules: [],
    branding: { name: '', disableExternal: false, disableUsedPercentage: false, files: '', theme: '', color: '' },
    tus: { ...DefaultTus },
    shell: [],
    commands: Object.fromEntries(HookEvents.map((event) => [event, [] as string[]])),
    trash: { ...DefaultTrash },
  };
}
