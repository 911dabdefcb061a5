import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDavHarness, passwordOf, requireTool, type DavHarness } from './webdav.test-support.js';

/** Runs litmus against a real listening server and returns its output. */
function runLitmus(binary: string, url: string, username: string, password: string, suites: string): Promise<{ code: number | null; output: string }> {
  // litmus writes debug.log and child.log where it runs: a folder of its own, removed afterwards.
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-litmus-'));
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(binary, ['--keep-going', url, username, password], { cwd, env: { ...process.env, TESTS: suites }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  }).finally(() => fs.rmSync(cwd, { recursive: true, force: true }));
}

/** Each suite's summary line: `<- summary for `basic': of 16 tests run: 16 passed, 0 failed. 100.0%`. */
function summaries(output: string): Array<{ suite: string; run: number; passed: number; failed: number; warnings: number }> {
  const results = [];
  for (const match of output.matchAll(/<- summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed\.[^\n]*(?:\n-> (\d+) warnings? (?:was|were) issued\.)?/g)) {
    results.push({ suite: match[1]!, run: Number(match[2]), passed: Number(match[3]), failed: Number(match[4]), warnings: Number(match[5] ?? 0) });
  }
  return results;
}

let h: DavHarness;
let port: number;
beforeAll(async () => {
  h = await createDavHarness();
  await h.user('litmus', { scope: '/litmus-home' });
  port = await h.listen();
});
afterAll(async () => {
  await h.close();
});

describe('litmus', () => {
  it('passes the basic, copymove, props, locks and http suites with no failure', async () => {
    const litmus = requireTool('litmus', 'litmus');
    const suites = ['basic', 'copymove', 'props', 'locks', 'http'];
    const { output } = await runLitmus(litmus, `http://127.0.0.1:${port}/dav/`, 'litmus', passwordOf('litmus'), suites.join(' '));
    const results = summaries(output);
    expect(results.map((result) => result.suite), output).toEqual(suites);
    for (const result of results) {
      expect(result.failed, `${result.suite} failed:\n${output}`).toBe(0);
      expect(result.passed).toBe(result.run);
    }
    // Every warning is one the README explains; anything new shows up here.
    const warnings = [...output.matchAll(/WARNING: ([^\n]+)/g)].map((match) => match[1]!.trim());
    expect(warnings, output).toEqual([]);
  }, 120_000);
});
