import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const protocolSource = fileURLToPath(new URL('../protocol/src/', import.meta.url));

export default defineConfig({
  base: '/static/',
  plugins: [react()],
  resolve: {
    alias: [
      // Runtime values come from the schema-free protocol files (`@burrow/protocol/errors` …);
      // the package root is for `import type` only.
      { find: /^@burrow\/protocol\/(.+)$/, replacement: `${protocolSource}$1.ts` },
      { find: /^@burrow\/protocol$/, replacement: `${protocolSource}index.ts` },
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
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
