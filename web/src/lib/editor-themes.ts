/** An editor colour theme: `name` is the stored preference and the ace module `ace/theme/<name>`. */
export type EditorTheme = {
  name: string;
  caption: string;
  isDark: boolean;
};

/** Used when the preference is empty or names a theme that does not exist. */
const DefaultLightEditorTheme = 'chrome';
const DefaultDarkEditorTheme = 'twilight';

/** The themes the editor offers, light ones first. */
export const EditorThemes: readonly EditorTheme[] = [
  { name: 'chrome', caption: 'Chrome', isDark: false },
  { name: 'cloud9_day', caption: 'Cloud9 Day', isDark: false },
  { name: 'cloud_editor', caption: 'CloudEditor', isDark: false },
  { name: 'clouds', caption: 'Clouds', isDark: false },
  { name: 'crimson_editor', caption: 'Crimson Editor', isDark: false },
  { name: 'dawn', caption: 'Dawn', isDark: false },
  { name: 'dreamweaver', caption: 'Dreamweaver', isDark: false },
  { name: 'eclipse', caption: 'Eclipse', isDark: false },
  { name: 'github_light_default', caption: 'GitHub Light Default', isDark: false },
  { name: 'github', caption: 'GitHub (Legacy)', isDark: false },
  { name: 'gruvbox_light_hard', caption: 'Gruvbox Light Hard', isDark: false },
  { name: 'iplastic', caption: 'IPlastic', isDark: false },
  { name: 'katzenmilch', caption: 'KatzenMilch', isDark: false },
  { name: 'kuroir', caption: 'Kuroir', isDark: false },
  { name: 'solarized_light', caption: 'Solarized Light', isDark: false },
  { name: 'sqlserver', caption: 'SQL Server', isDark: false },
  { name: 'textmate', caption: 'TextMate', isDark: false },
  { name: 'tomorrow', caption: 'Tomorrow', isDark: false },
  { name: 'xcode', caption: 'XCode', isDark: false },
  { name: 'ambiance', caption: 'Ambiance', isDark: true },
  { name: 'chaos', caption: 'Chaos', isDark: true },
  { name: 'cloud9_night', caption: 'Cloud9 Night', isDark: true },
  { name: 'cloud9_night_low_color', caption: 'Cloud9 Night Low Color', isDark: true },
  { name: 'cloud_editor_dark', caption: 'CloudEditor Dark', isDark: true },
  { name: 'clouds_midnight', caption: 'Clouds Midnight', isDark: true },
  { name: 'cobalt', caption: 'Cobalt', isDark: true },
  { name: 'dracula', caption: 'Dracula', isDark: true },
  { name: 'github_dark', caption: 'GitHub Dark', isDark: true },
  { name: 'gob', caption: 'Green on Black', isDark: true },
  { name: 'gruvbox', caption: 'Gruvbox', isDark: true },
  { name: 'gruvbox_dark_hard', caption: 'Gruvbox Dark Hard', isDark: true },
  { name: 'idle_fingers', caption: 'idle Fingers', isDark: true },
  { name: 'kr_theme', caption: 'krTheme', isDark: true },
  { name: 'merbivore', caption: 'Merbivore', isDark: true },
  { name: 'merbivore_soft', caption: 'Merbivore Soft', isDark: true },
  { name: 'mono_industrial', caption: 'Mono Industrial', isDark: true },
  { name: 'monokai', caption: 'Monokai', isDark: true },
  { name: 'nord_dark', caption: 'Nord Dark', isDark: true },
  { name: 'one_dark', caption: 'One Dark', isDark: true },
  { name: 'pastel_on_dark', caption: 'Pastel on Dark', isDark: true },
  { name: 'solarized_dark', caption: 'Solarized Dark', isDark: true },
  { name: 'terminal', caption: 'Terminal', isDark: true },
  { name: 'tomorrow_night', caption: 'Tomorrow Night', isDark: true },
  { name: 'tomorrow_night_blue', caption: 'Tomorrow Night Blue', isDark: true },
  { name: 'tomorrow_night_bright', caption: 'Tomorrow Night Bright', isDark: true },
  { name: 'tomorrow_night_eighties', caption: 'Tomorrow Night 80s', isDark: true },
  { name: 'twilight', caption: 'Twilight', isDark: true },
  { name: 'vibrant_ink', caption: 'Vibrant Ink', isDark: true },
];

const byName = new Map(EditorThemes.map((theme) => [theme.name, theme]));

export function findEditorTheme(name: string): EditorTheme | undefined {
  return byName.get(name);
}

/**
 * The theme the editor should load for a stored preference: the named theme when it exists,
 * otherwise twilight on a dark page and chrome on a light one.
 */
export function resolveEditorTheme(preference: string, pageTheme: 'light' | 'dark'): EditorTheme {
  return byName.get(preference) ?? byName.get(pageTheme === 'dark' ? DefaultDarkEditorTheme : DefaultLightEditorTheme)!;
}
