import { createTestApp } from '../../test-support/app.js';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
const t = await createTestApp();
const big = path.join(t.root, 'big');
fs.mkdirSync(big);
for (let i = 0; i < 100_000; i++) fs.writeFileSync(path.join(big, `file-${String(i).padStart(6, '0')}${i % 10 === 0 ? '' : i % 3 === 0 ? '.jpg' : '.txt'}`), 'x');
for (let i = 0; i < 100; i++) fs.mkdirSync(path.join(big, `dir-${i}`));
const token = await t.login();
await t.app.listen({ host: '127.0.0.1', port: 0 });
const port = (t.app.server.address() as AddressInfo).port;
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  const { status, bytes } = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/api/resources/big/', headers: { 'x-auth': token } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
    }).on('error', reject);
  });
  console.log(`round ${round}: ${status} ${(bytes / 1e6).toFixed(1)} MB over HTTP in ${(performance.now() - started).toFixed(0)} ms`);
}
await t.close();
