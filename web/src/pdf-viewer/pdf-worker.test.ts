import fs from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { asClassicWorker } from './pdf-worker';

const require = createRequire(import.meta.url);

describe('asClassicWorker', () => {
  it("turns pdf.js's shipped worker module into a script that parses as a classic one", () => {
    const module = fs.readFileSync(require.resolve('pdfjs-dist/build/pdf.worker.min.mjs'), 'utf8');
    expect(() => new vm.Script(module)).toThrow(SyntaxError);
    const script = asClassicWorker(module);
    expect(() => new vm.Script(script)).not.toThrow();
    expect(script).toContain('self.location.href');
    expect(script).toContain('globalThis.pdfjsWorker');
  });

  it('refuses a module it cannot turn into a classic script', () => {
    expect(() => asClassicWorker('import { a } from "./b.js";\nexport { WorkerMessageHandler };')).toThrow();
    expect(() => asClassicWorker('export { other };')).toThrow();
    expect(() => asClassicWorker('const x = import.meta.resolve("y");')).toThrow();
    expect(asClassicWorker('const u = import.meta.url; class WorkerMessageHandler {}\nexport{WorkerMessageHandler};')).toBe('const u = self.location.href; class WorkerMessageHandler {}\n');
  });
});
