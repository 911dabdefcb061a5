import type { Settings } from '@burrow/protocol';
import { HookEvents } from '@burrow/protocol/hook-events';
import { describe, expect, it } from 'vitest';
import { commandLines, draftFromSettings, HookEventNames, settingsFromDraft } from './settings-draft';

const settings: Settings = {
  signup: false,
  hideLoginButton: true,
  createUserDir: false,
  minimumPasswordLength: 12,
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
  branding: { name: '', disableExternal: false, disableUsedPercentage: false, files: '', theme: '', color: '#123456' },
  tus: { chunkSize: 10485760, retryCount: 5 },
  trash: { enabled: true, retentionDays: 30, maxSize: 0 },
  shell: ['/bin/sh', '-c'],
  commands: { after_copy: ['echo copied'] },
};

describe('global settings draft', () => {
  it('shows the shell as one line and each event as lines', () => {
    const draft = draftFromSettings(settings);
    expect(draft.shellText).toBe('/bin/sh -c');
    expect(draft.commandsText.after_copy).toBe('echo copied');
    expect(draft.commandsText.before_upload).toBe('');
    expect(Object.keys(draft.commandsText).sort()).toEqual([...HookEvents]);
    expect(HookEventNames.slice(0, 2)).toEqual(['before_copy', 'after_copy']);
  });

  it('sends the whole settings object with shell, commands and default commands normalised', () => {
    const draft = draftFromSettings(settings);
    draft.shellText = '  /bin/bash    -c ';
    draft.commandsText.before_copy = '  one  \n\n  \r\ntwo\n';
    draft.defaults.commandsText = ' ls  git ';
    draft.defaults.scope = ' /shared ';
    draft.defaults.perm.delete = false;
    draft.settings.branding.theme = 'dark';
    const update = settingsFromDraft(draft);
    expect(update.shell).toEqual(['/bin/bash', '-c']);
    expect(update.commands).toMatchObject({ before_copy: ['one', 'two'], after_copy: ['echo copied'], after_upload: [] });
    expect(Object.keys(update.commands!)).toHaveLength(10);
    expect(update.defaults).toMatchObject({ scope: '/shared', commands: ['ls', 'git'], viewMode: 'mosaic', perm: { delete: false } });
    // Fields the screen does not edit travel unchanged.
    expect(update.branding).toEqual({ ...settings.branding, theme: 'dark' });
    expect(update.hideLoginButton).toBe(true);
    expect(update.tus).toEqual(settings.tus);
    // The loaded settings were copied, not edited in place.
    expect(settings.branding.theme).toBe('');
  });

  it('trims command lines and drops empty ones', () => {
    expect(commandLines('')).toEqual([]);
    expect(commandLines(' a \n\n b\r\n   ')).toEqual(['a', 'b']);
  });
});
