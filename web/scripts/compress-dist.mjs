#!/usr/bin/env node
// Writes .br and .gz siblings of the built text assets so the server can send them precompressed.
// A sibling is kept only when it is actually smaller than the original.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
const compressible = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.map', '.webmanifest']);
// Too small to be worth a second request-time lookup.
const minimumSize = 512;

async function* walk(folder) {
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

let written = 0;
let originalBytes = 0;
let brotliBytes = 0;
for await (const file of walk(dist)) {
  if (!compressible.has(path.extname(file))) continue;
  const content = await fs.readFile(file);
  if (content.length < minimumSize) continue;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  originalBytes += content.length;
  if (br.length < content.length) {
    await fs.writeFile(`${file}.br`, br);
    brotliBytes += br.length;
    written += 1;
  }
  if (gz.length < content.length) {
    await fs.writeFile(`${file}.gz`, gz);
    written += 1;
  }
}
console.log(`compressed ${written} files in ${path.relative(process.cwd(), dist) || '.'}: ${originalBytes} bytes → ${brotliBytes} bytes with brotli`);
