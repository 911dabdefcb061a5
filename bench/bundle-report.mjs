#!/usr/bin/env node
// Bundle report of the built web app: which chunks and style sheets the login page and the files
// screen load at start, with their size and gzipped size (level 9), the total against the
// start-up budget, and the largest modules of each chunk and package.
//
//   node bench/bundle-report.mjs [--dist web/dist] [--modules 8] [--json]
//
// Needs a web build (`npm run build -w protocol && npm run build -w web`). Module sizes are the
// minified bytes each module takes when the build has source maps (`npx vite build --sourcemap
// hidden --outDir <folder>` in web/, then `--dist <folder>`); otherwise the bundler's
// pre-minification module lengths, scaled to the chunk (marked ≈).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuild, startupPayload, StartupBudget } from '../web/scripts/startup-payload.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 && argv[index + 1] !== undefined ? argv[index + 1] : fallback;
};
const dist = path.resolve(option('dist', path.join(repo, 'web/dist')));
const moduleCount = Number(option('modules', 8));

const Base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Values = new Map([...Base64].map((char, index) => [char, index]));

/** Decodes one segment of a source map's `mappings` (base64 VLQ numbers). */
function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = base64Values.get(char);
    if (digit === undefined) throw new Error(`bad source map character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/**
 * Bytes of the generated code per source file: each mapped segment owns the text up to the next
 * segment on its line. Unmapped text (the bundler's glue) is counted as `(unmapped)`.
 */
function bytesBySource(code, map) {
  const lines = code.split('\n');
  const sizes = new Map();
  const addTo = (name, bytes) => sizes.set(name, (sizes.get(name) ?? 0) + bytes);
  const mapDir = path.dirname(map.file ?? '');
  const names = map.sources.map((source) => {
    const absolute = path.resolve(dist, 'assets', mapDir, source);
    const relative = path.relative(repo, absolute);
    return relative.startsWith('..') ? source : relative;
  });
  let sourceIndex = 0;
  map.mappings.split(';').forEach((line, lineIndex) => {
    const text = lines[lineIndex] ?? '';
    let column = 0;
    let owner = '(unmapped)';
    let start = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const [columnDelta, sourceDelta] = decodeSegment(segment);
      column += columnDelta;
      addTo(owner, Buffer.byteLength(text.slice(start, column)));
      start = column;
      if (sourceDelta !== undefined) {
        sourceIndex += sourceDelta;
        owner = names[sourceIndex] ?? '(unmapped)';
      } else {
        owner = '(unmapped)';
      }
    }
    addTo(owner, Buffer.byteLength(text.slice(start)) + 1);
  });
  return sizes;
}

/** Module sizes of one chunk: exact from its source map when there is one, else scaled estimates. */
function moduleSizes(build, file, raw) {
  const mapFile = path.join(dist, `${file}.map`);
  if (fs.existsSync(mapFile)) {
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    return { exact: true, sizes: bytesBySource(code, JSON.parse(fs.readFileSync(mapFile, 'utf8'))) };
  }
  const modules = build.chunks[file]?.modules ?? {};
  const rendered = Object.values(modules).reduce((sum, bytes) => sum + bytes, 0);
  const sizes = new Map(Object.entries(modules).map(([id, bytes]) => [id, rendered ? Math.round((bytes / rendered) * raw) : 0]));
  return { exact: false, sizes };
}

function packageOf(moduleId) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleId);
  if (match) return match[1];
  if (moduleId.startsWith('translation:')) return 'translations';
  if (moduleId.startsWith('web/src/')) return `web/src/${moduleId.split('/')[2]}`;
  return moduleId.split('/')[0];
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const pad = (text, width) => String(text).padEnd(width);
const padLeft = (text, width) => String(text).padStart(width);

let build;
try {
  build = readBuild(dist);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const payload = startupPayload(build);

const packages = new Map();
let anyEstimate = false;
const details = payload.files.map((entry) => {
  if (entry.kind !== 'js') return { ...entry, modules: [] };
  const { exact, sizes } = moduleSizes(build, entry.file, entry.raw);
  anyEstimate ||= !exact;
  // Gzip shares follow the raw shares: a module's compressed size is not separable.
  const ratio = entry.raw ? entry.gzip / entry.raw : 0;
  const modules = [...sizes]
    .map(([id, bytes]) => ({ id, raw: bytes, gzip: Math.round(bytes * ratio), exact }))
    .sort((a, b) => b.raw - a.raw);
  for (const module of modules) {
    const name = packageOf(module.id);
    const total = packages.get(name) ?? { raw: 0, gzip: 0 };
    packages.set(name, { raw: total.raw + module.raw, gzip: total.gzip + module.gzip });
  }
  return { ...entry, modules };
});

if (argv.includes('--json')) {
  console.log(JSON.stringify({ budget: StartupBudget, ...payload, files: details, packages: Object.fromEntries(packages) }, null, 2));
  process.exit(0);
}

console.log(`Start-up payload of ${path.relative(process.cwd(), dist) || '.'} (login page and files screen)\n`);
const shown = details.flatMap((entry) => [entry.file, ...entry.modules.slice(0, moduleCount).map((module) => `    ${module.id}`)]);
const width = Math.min(Math.max(...shown.map((name) => name.length)), 72) + 2;
console.log(`${pad('file', width)}${padLeft('raw', 11)}${padLeft('gzip', 11)}  loaded as`);
for (const entry of details) {
  console.log(`${pad(entry.file, width)}${padLeft(kb(entry.raw), 11)}${padLeft(kb(entry.gzip), 11)}  ${entry.reason}`);
  for (const module of entry.modules.slice(0, moduleCount)) {
    const mark = module.exact ? ' ' : '≈';
    console.log(`    ${pad(module.id.length > width - 6 ? `…${module.id.slice(-(width - 7))}` : module.id, width - 4)}${padLeft(kb(module.raw), 11)}${mark}${padLeft(kb(module.gzip), 10)}${mark}`);
  }
}
const js = payload.files.filter((entry) => entry.kind === 'js');
const css = payload.files.filter((entry) => entry.kind === 'css');
const sum = (list, key) => list.reduce((total, entry) => total + entry[key], 0);
console.log('');
console.log(`${pad(`JavaScript (${js.length} files)`, width)}${padLeft(kb(sum(js, 'raw')), 11)}${padLeft(kb(sum(js, 'gzip')), 11)}`);
console.log(`${pad(`CSS (${css.length} files)`, width)}${padLeft(kb(sum(css, 'raw')), 11)}${padLeft(kb(sum(css, 'gzip')), 11)}`);
console.log(`${pad('total', width)}${padLeft(kb(payload.raw), 11)}${padLeft(kb(payload.gzip), 11)}  (${payload.gzip} bytes gzipped; budget ${StartupBudget})`);

console.log(`\nBy package or source folder${anyEstimate ? ' (≈: estimated from pre-minification lengths)' : ''}:`);
for (const [name, size] of [...packages].sort(([, a], [, b]) => b.raw - a.raw).slice(0, Math.max(moduleCount, 12))) {
  console.log(`    ${pad(name, width - 4)}${padLeft(kb(size.raw), 11)}${padLeft(kb(size.gzip), 11)}`);
}
console.log(payload.gzip <= StartupBudget ? `\nwithin the budget by ${StartupBudget - payload.gzip} bytes` : `\nover the budget by ${payload.gzip - StartupBudget} bytes`);
