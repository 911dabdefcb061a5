import type { Ace } from 'ace-builds';

type AceModule = typeof import('ace-builds');

export type LoadedAce = {
  ace: AceModule;
  /** ace's mode name for a file name (`notes.md` → `markdown`), `text` when none fits. */
  modeNameFor: (fileName: string) => string;
};

let loading: Promise<LoadedAce> | undefined;

/**
 * Fetches the editor core once, then teaches ace where its modes, themes and the search box
 * live: each is a chunk of its own, fetched only when ace asks for it. Nothing is ever loaded
 * from a script URL; the syntax-checking workers stay off in the editor's options (the editor
 * shows text, it does not lint it).
 */
export function loadAce(): Promise<LoadedAce> {
  loading ??= (async () => {
    // The loader tables are fetched with the core, not with the editor's screen.
    const [{ default: ace }, { aceModeLoaders }, { aceThemeLoaders }] = await Promise.all([
      import('ace-builds') as unknown as Promise<{ default: AceModule }>,
      import('./ace-modes'),
      import('./ace-themes'),
    ]);
    for (const [name, load] of Object.entries(aceModeLoaders)) ace.config.setModuleLoader(`ace/mode/${name}`, load);
    for (const [name, load] of Object.entries(aceThemeLoaders)) ace.config.setModuleLoader(`ace/theme/${name}`, load);
    ace.config.setModuleLoader('ace/ext/searchbox', () => import('ace-builds/src-noconflict/ext-searchbox'));
    // The mode list is small and needed at once to pick the mode for the file on screen.
    await import('ace-builds/src-noconflict/ext-modelist');
    const modelist = ace.require('ace/ext/modelist') as { getModeForPath: (path: string) => { name: string } };
    return {
      ace,
      modeNameFor: (fileName) => {
        const name = modelist.getModeForPath(fileName).name;
        return name in aceModeLoaders ? name : 'text';
      },
    };
  })();
  loading.catch(() => {
    // A failed fetch (offline for a moment) may be retried by the next editor that opens.
    loading = undefined;
  });
  return loading;
}

export type AceEditor = Ace.Editor;
