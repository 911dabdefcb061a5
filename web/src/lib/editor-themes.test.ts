import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EditorThemes, findEditorTheme, resolveEditorTheme } from './editor-themes';

describe('editor themes', () => {
  it('offers about forty uniquely named themes, both light and dark ones', () => {
    expect(EditorThemes.length).toBeGreaterThanOrEqual(38);
    expect(new Set(EditorThemes.map((theme) => theme.name)).size).toBe(EditorThemes.length);
    expect(new Set(EditorThemes.map((theme) => theme.caption)).size).toBe(EditorThemes.length);
    expect(EditorThemes.some((theme) => theme.isDark)).toBe(true);
    expect(EditorThemes.some((theme) => !theme.isDark)).toBe(true);
  });

  it('names only themes the editor package ships', () => {
    const require = createRequire(import.meta.url);
    const folder = path.dirname(require.resolve('ace-builds/src-noconflict/ace.js'));
    for (const theme of EditorThemes) {
      expect(fs.existsSync(path.join(folder, `theme-${theme.name}.js`)), theme.name).toBe(true);
    }
  });

  it('marks each theme as the package does', () => {
    expect(findEditorTheme('monokai')?.isDark).toBe(true);
    expect(findEditorTheme('solarized_light')?.isDark).toBe(false);
    expect(findEditorTheme('github_dark')?.isDark).toBe(true);
    expect(findEditorTheme('nope')).toBeUndefined();
  });

  it('falls back to twilight on dark pages and chrome on light ones', () => {
    expect(resolveEditorTheme('', 'dark').name).toBe('twilight');
    expect(resolveEditorTheme('', 'light').name).toBe('chrome');
    expect(resolveEditorTheme('no_such_theme', 'dark').name).toBe('twilight');
    expect(resolveEditorTheme('no_such_theme', 'light').name).toBe('chrome');
    expect(resolveEditorTheme('dracula', 'light').name).toBe('dracula');
  });
});
