import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const protocolSource = fileURLToPath(new URL('../protocol/src/', import.meta.url));
const sourceRoot = fileURLToPath(new URL('./src/', import.meta.url));
/** The PDF viewer page: an entry of its own, with nothing shared with the app's start-up. */
const pdfViewerPage = fileURLToPath(new URL('./pdf-viewer.html', import.meta.url));
const pdfViewerRoot = `${sourceRoot}pdf-viewer/`;
const isPdfViewerModule = (id: string) => id === pdfViewerPage || id.startsWith(pdfViewerRoot);
const pdfjsRoot = path.dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')));

/**
 * Vite gives every page its module preload polyfill. The PDF viewer page does without: pdf.js needs
 * newer browsers than the polyfill is for, and the polyfill would be a chunk shared with the app's
 * start-up, one more request for every first paint.
 */
const pdfViewerWithoutPreloadPolyfill: Plugin = {
  name: 'pdf-viewer-without-preload-polyfill',
  apply: 'build',
  enforce: 'post',
  transform(code, id) {
    if (id !== pdfViewerPage) return null;
    const stripped = code.replace(/import\s*["']vite\/modulepreload-polyfill(?:\.js)?["'];?/, '');
    return stripped === code ? null : { code: stripped, map: null };
  },
};

/**
 * Rewrites `import { House, X } from 'lucide-react'` into one import per icon module. The output
 * is the same after tree-shaking, but the module graph then says which icon each screen uses,
 * instead of every screen reaching every icon through the package's index.
 */
function lucideIconImports(): Plugin {
  let iconFiles: Map<string, string> | undefined;
  const readIndex = () => {
    // The package's ES module index; its `node` export condition names the CommonJS build.
    const index = fs.readFileSync(fileURLToPath(new URL('../lucide-react.mjs', import.meta.resolve('lucide-react/icons/x'))), 'utf8');
    const files = new Map<string, string>();
    for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs';/g)) {
      for (const [, name] of names!.matchAll(/default as (\w+)/g)) files.set(name!, file!);
    }
    return files;
  };
  return {
    name: 'lucide-icon-imports',
    apply: 'build',
    transform(code, id) {
      if (!id.startsWith(sourceRoot) || !code.includes('lucide-react')) return null;
      iconFiles ??= readIndex();
      const files = iconFiles;
      const rewritten = code.replace(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g, (_statement, list: string) => {
        const rest: string[] = [];
        const icons: string[] = [];
        for (const specifier of list.split(',').map((part) => part.trim()).filter(Boolean)) {
          const [imported, local = imported] = specifier.split(/\s+as\s+/) as [string, string?];
          const file = files.get(imported);
          if (file) icons.push(`import ${local} from "lucide-react/icons/${file}";`);
          else rest.push(specifier);
        }
        return [...icons, rest.length ? `import { ${rest.join(', ')} } from "lucide-react";` : ''].join(' ');
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

/**
 * `locales/<code>.json?split` is a translation split for loading: the module's default export is
 * what the start-up screens say, and `areas` has a loader per area of `translation-areas.json`
 * for the sections only lazily loaded screens use (`?area=<name>`, a chunk of its own).
 */
const translationAreasFile = fileURLToPath(new URL('./src/i18n/translation-areas.json', import.meta.url));
const translationSections: Plugin = {
  name: 'translation-sections',
  enforce: 'pre',
  async resolveId(source, importer) {
    const match = /^(.+\/locales\/[\w-]+\.json)\?(split|area=\w+)$/.exec(source);
    if (!match || !importer) return null;
    const file = await this.resolve(match[1]!, importer, { skipSelf: true });
    // A module id of its own without the `.json` ending: it is code made by `load`, not JSON.
    return file ? `\0translation:${match[2]}:${file.id.replace(/\.json$/, '')}` : null;
  },
  load(id) {
    const match = /^\0translation:(split|area=(\w+)):(.+)$/.exec(id);
    if (!match) return null;
    const [, , area, locale] = match as unknown as [string, string, string | undefined, string];
    const file = `${locale}.json`;
    const areas = JSON.parse(fs.readFileSync(translationAreasFile, 'utf8')) as Record<string, string[]>;
    const translation = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    this.addWatchFile(file);
    this.addWatchFile(translationAreasFile);
    if (area !== undefined) {
      const sections = areas[area];
      if (!sections) this.error(`no translation area ${area} in translation-areas.json`);
      return `export default ${JSON.stringify(Object.fromEntries(sections.map((name) => [name, translation[name]])))};`;
    }
    const lazy = new Set(Object.values(areas).flat());
    const core = Object.fromEntries(Object.entries(translation).filter(([name]) => !lazy.has(name)));
    const loaders = Object.keys(areas).map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(`${file}?area=${name}`)})`);
    return `export default ${JSON.stringify(core)};\nexport const areas = { ${loaders.join(', ')} };`;
  },
};

/**
 * Chunks by screen. Left alone, the bundler puts each set of modules that lazy chunks share into
 * a file of its own: the files screen fetched some forty small scripts, each compressed on its
 * own. Instead:
 * - `startup`: what the first paint needs, plus what the login screen shares with the others;
 * - `layout`: the signed-in layout, plus what the files screen shares with the other screens;
 * - `files`: the rest of the files screen (listing, selection, actions).
 * Everything else (login, dialogs, editor, previews, settings, share page) keeps its own lazy
 * chunks. Static import closures decide; they are exact because icons are imported one by one.
 */
function screenChunks(screens: { layout: string; files: string; guest: string[]; routeTable: string }) {
  const plan = { startup: new Set<string>(), layout: new Set<string>(), files: new Set<string>(), shared: new Set<string>() };
  const plugin: Plugin = {
    name: 'screen-chunks',
    apply: 'build',
    buildEnd() {
      const closure = (roots: Iterable<string>) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      // The PDF viewer page is an entry too, but the app never loads it: pdf.js stays out of the start-up chunk.
      const initial = closure(ids.filter((id) => this.getModuleInfo(id)?.isEntry && !isPdfViewerModule(id)));
      // What the PDF viewer page shares with the app (Vite's module preload polyfill) gets a chunk
      // of its own: in the app's start-up chunk, the viewer would load and run all of that.
      const viewer = closure(ids.filter((id) => this.getModuleInfo(id)?.isEntry && isPdfViewerModule(id)));
      plan.shared = new Set([...viewer].filter((id) => initial.has(id)));
      for (const id of plan.shared) initial.delete(id);
      const layout = closure([screens.layout]);
      const files = closure([screens.files]);
      // What the login screen shares with the signed-in screens joins the start-up chunk.
      const shared = [...closure(screens.guest)].filter((id) => layout.has(id) || files.has(id));
      plan.startup = new Set([...initial, ...shared]);
      const others = closure((this.getModuleInfo(screens.routeTable)?.dynamicallyImportedIds ?? []).filter((id) => id !== screens.layout && id !== screens.files && !screens.guest.includes(id)));
      plan.layout = new Set([...layout].filter((id) => !plan.startup.has(id)));
      plan.files = new Set();
      for (const id of files) {
        if (plan.startup.has(id) || plan.layout.has(id)) continue;
        (others.has(id) ? plan.layout : plan.files).add(id);
      }
    },
  };
  const groups = [
    { name: 'shared', test: (id: string) => plan.shared.has(id), priority: 4 },
    { name: 'startup', test: (id: string) => plan.startup.has(id), priority: 3 },
    { name: 'layout', test: (id: string) => plan.layout.has(id), priority: 2 },
    { name: 'files', test: (id: string) => plan.files.has(id), priority: 1 },
  ];
  return { plugin, groups };
}

/**
 * Writes `.vite/modules.json` next to Vite's manifest: for every chunk, the modules it holds with
 * their size in the output. The bundle report and the start-up size budget read it to tell which
 * chunk carries a screen and what takes the room.
 */
const chunkModules: Plugin = {
  name: 'chunk-modules',
  apply: 'build',
  generateBundle(_options, bundle) {
    // Module ids relative to the repository (`web/src/…`, `node_modules/…`), the same on every machine.
    const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
    const name = (id: string) => id.replace(/^\0/, '').split(repositoryRoot).join('');
    const chunks: Record<string, { name: string; modules: Record<string, number> }> = {};
    for (const output of Object.values(bundle)) {
      if (output.type !== 'chunk') continue;
      const modules = Object.entries(output.modules)
        .filter(([, module]) => module.renderedLength > 0)
        .sort(([, a], [, b]) => b.renderedLength - a.renderedLength);
      chunks[output.fileName] = { name: output.name, modules: Object.fromEntries(modules.map(([id, module]) => [name(id), module.renderedLength])) };
    }
    this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: `${JSON.stringify(chunks, null, 1)}\n` });
  },
};

const chunks = screenChunks({
  layout: `${sourceRoot}routes/layout/app-layout.tsx`,
  files: `${sourceRoot}routes/files/files-screen.tsx`,
  guest: [`${sourceRoot}routes/login/login-screen.tsx`],
  routeTable: `${sourceRoot}routes/route-table.tsx`,
});

export default defineConfig({
  base: '/static/',
  plugins: [react(), translationSections, lucideIconImports(), pdfViewerWithoutPreloadPolyfill, chunks.plugin, chunkModules],
  resolve: {
    alias: [
      // pdf.js's data files (character maps, fonts), found by glob in the PDF viewer.
      { find: /^pdfjs-dist-files\/(.*)$/, replacement: `${pdfjsRoot}/$1` },
      // Runtime values come from the schema-free protocol files (`@burrow/protocol/errors` …);
      // the package root is for `import type` only.
      { find: /^@burrow\/protocol\/(.+)$/, replacement: `${protocolSource}$1.ts` },
      { find: /^@burrow\/protocol$/, replacement: `${protocolSource}index.ts` },
      // i18next and react-i18next at run time are the app's own small versions of the parts it
      // uses (src/i18n/translator.ts, react-binding.ts): about 14 KB less at start-up. The
      // packages still give the types, so keys stay checked against the English file.
      { find: /^i18next$/, replacement: `${sourceRoot}i18n/translator.ts` },
      { find: /^react-i18next$/, replacement: `${sourceRoot}i18n/react-binding.ts` },
    ],
  },
  experimental: {
    // The server may sit below a base URL it only knows at run time. Chunk and asset URLs that
    // scripts build are therefore made relative to the importing chunk, never to `/static/`.
    renderBuiltUrl(_filename, { hostType }) {
      return hostType === 'js' ? { relative: true } : undefined;
    },
  },
  build: {
    outDir: 'dist',
    // `.vite/manifest.json`: the chunk graph the bundle report and the start-up size budget follow.
    manifest: true,
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), 'pdf-viewer': pdfViewerPage },
      output: { codeSplitting: { groups: chunks.groups } },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
