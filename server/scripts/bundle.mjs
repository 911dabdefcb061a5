#!/usr/bin/env node
// Builds the server into dist/: the TypeScript sources and the JavaScript packages they import,
// bundled and minified into a few ES modules (one entry, the stat worker, and chunks for what
// loads on demand). Loading ~800 separate modules, most of them kysely's and TypeBox's, cost
// start-up time and about 10 MB of an idle server's heap. Packages with native code or files of
// their own (addons, WebAssembly) stay in node_modules and are imported from there at run time.
// Source maps go beside the modules; `node --enable-source-maps dist/main.js` uses them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(server, 'dist');

/** Loaded by their own loaders (native addons, WebAssembly) or absent (pg's optional native client). */
const EXTERNAL = ['better-sqlite3', 'sharp', 'lzma-native', 'node-bzip2', 'zstd-napi', 'snappy', '@node-rs/argon2', 'koffi', 'lz4-wasm-nodejs', 'pg-native'];

fs.rmSync(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: server,
  // The stat worker is started by its URL next to the module that starts it (a chunk in dist/).
  entryPoints: { main: 'src/main.ts', 'entry-stats.worker': 'src/modules/files/entry-stats.worker.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  // Class and function names stay as written: error names and logs show them.
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  external: EXTERNAL,
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: { js: "import { createRequire as __burrowCreateRequire } from 'node:module'; const require = __burrowCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});
fs.chmodSync(path.join(outdir, 'main.js'), 0o755);
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .reduce((sum, [, output]) => sum + output.bytes, 0);
process.stdout.write(`server bundled into ${path.relative(process.cwd(), outdir) || '.'}: ${Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')).length} modules, ${(bytes / 1024).toFixed(0)} KiB\n`);
