// The start-up payload of the built web app: the JavaScript and CSS a browser fetches to show the
// login page and the files screen. Read from Vite's manifest (`.vite/manifest.json`, the chunk
// graph) and `.vite/modules.json` (which modules each chunk holds, written by the build).
// The bundle report prints it; the size budget test holds it under its limit.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/**
 * Start-up payload limit, gzipped at level 9, in bytes: 100 KB for the login page and the files
 * screen together. It weighs 96.4 KB today, of which React 18 and react-dom take 43.7 KB (React
 * 19's react-dom alone took 65.7 KB: it adds stylesheet and metadata hoisting, form actions,
 * Activity, view transitions and fragment refs, none of which the app uses). Lower it as the payload shrinks.
 */
export const StartupBudget = 100_000;

export const defaultDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/**
 * What the two first screens load besides the entry chunk: the modules the route table loads for
 * them (each with its chunk's static imports and CSS) and the translation they show, in the
 * language measured (English; every locale is split the same way).
 */
export const StartupScreens = [
  {
    screen: 'login page',
    modules: ['web/src/routes/login/login-screen.tsx', 'translation:split:web/src/i18n/locales/en', 'translation:area=login:web/src/i18n/locales/en'],
  },
  {
    screen: 'files screen',
    modules: ['web/src/routes/layout/app-layout.tsx', 'web/src/routes/files/files-screen.tsx', 'translation:split:web/src/i18n/locales/en'],
  },
];

export function gzipSize(content) {
  return zlib.gzipSync(content, { level: 9 }).length;
}

/** Reads the build's chunk graph; throws with a plain message when `dist` holds no build. */
export function readBuild(dist = defaultDist) {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  const modulesFile = path.join(dist, '.vite', 'modules.json');
  for (const file of [manifestFile, modulesFile]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the web app first (npm run build -w web)`);
  }
  /** @type {Record<string, { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] }>} */
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  /** @type {Record<string, { name: string; modules: Record<string, number> }>} */
  const chunks = JSON.parse(fs.readFileSync(modulesFile, 'utf8'));
  return { dist, manifest, chunks };
}

/** The chunk file that holds a module (an id as `.vite/modules.json` names it). */
export function chunkOf(build, moduleId) {
  for (const [file, chunk] of Object.entries(build.chunks)) if (moduleId in chunk.modules) return file;
  throw new Error(`no chunk of the build holds ${moduleId}`);
}

/**
 * The files of the start-up payload, each with why it loads, its size and its gzipped size.
 * Chunks come first in load order (entry, its static imports, then each screen's chunks), then CSS.
 */
export function startupPayload(build) {
  const { dist, manifest } = build;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) throw new Error('the manifest has no entry for index.html');
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  /** @type {Map<string, string>} file → reason */
  const files = new Map();
  const add = (file, reason) => {
    const stack = [[file, reason]];
    while (stack.length > 0) {
      const [next, why] = stack.pop();
      if (files.has(next)) continue;
      files.set(next, why);
      const chunk = byFile.get(next);
      for (const css of chunk?.css ?? []) if (!files.has(css)) files.set(css, `style of ${path.basename(next)}`);
      for (const key of chunk?.imports ?? []) stack.push([manifest[key].file, `imported by ${path.basename(next)}`]);
    }
  };
  add(entry.file, 'entry');
  for (const { screen, modules } of StartupScreens) {
    for (const moduleId of modules) add(chunkOf(build, moduleId), `${screen}: ${path.basename(moduleId)}`);
  }
  const list = [...files].map(([file, reason]) => {
    const content = fs.readFileSync(path.join(dist, file));
    return { file, kind: file.endsWith('.css') ? 'css' : 'js', reason, raw: content.length, gzip: gzipSize(content) };
  });
  list.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'js' ? -1 : 1));
  return {
    files: list,
    raw: list.reduce((sum, file) => sum + file.raw, 0),
    gzip: list.reduce((sum, file) => sum + file.gzip, 0),
  };
}
