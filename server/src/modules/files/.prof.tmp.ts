import fs from 'node:fs';
import path from 'node:path';
import { Scope } from '../../storage/scoped-fs.js';
import { listFolder } from './listing.js';
const root = '/tmp/files-bench/root';
const big = path.join(root, 'big');
if (!fs.existsSync(big)) {
  fs.mkdirSync(big, { recursive: true });
  for (let i = 0; i < 100_000; i++) fs.writeFileSync(path.join(big, `file-${String(i).padStart(6, '0')}${i % 10 === 0 ? '' : i % 3 === 0 ? '.jpg' : '.txt'}`), 'x');
  for (let i = 0; i < 100; i++) fs.mkdirSync(path.join(big, `dir-${i}`));
  console.log('created');
  process.exit(0);
}
const scope = new Scope({ root, globalRules: [], userRules: [], hideDotfiles: false, followExternalSymlinks: false, caseInsensitive: false });
const resolved = await scope.resolve('/big', 'read');
for (let round = 0; round < 3; round++) {
  let s = performance.now();
  const r = await listFolder(scope, resolved, { by: 'name', asc: false });
  console.log('listFolder', (performance.now() - s).toFixed(0));
  s = performance.now();
  const json = JSON.stringify(r);
  console.log('stringify', (performance.now() - s).toFixed(0), json.length);
}
