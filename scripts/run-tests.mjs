#!/usr/bin/env node
// Runs the lint checks (ESLint, dependency-cruiser's cycle and layer rules, knip), then every test
// suite (server and web with Vitest, browser flows with Playwright; the app is built before the
// web suite, whose size budget measures the build), then prints one closing line
// "N passed, N failed, N skipped" summed from their JSON reports, each lint check counting as one
// test. Exits non-zero when any check or test fails or a suite could not report. Arguments pick
// parts: `lint`, `server` (both engines), `server-postgres`, `web`, `e2e`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = path.join(root, 'reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

/**
 * Runs a command with its output passed on line by line, each line marked with `label` (two
 * suites may run side by side); resolves to the exit status.
 */
function runLabelled(label, command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    for (const [stream, sink] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop();
        for (const line of lines) sink.write(`[${label}] ${line}\n`);
      });
      stream.on('end', () => {
        if (partial) sink.write(`[${label}] ${partial}\n`);
      });
    }
    child.on('error', () => resolve(1));
    child.on('close', (status) => resolve(status ?? 1));
  });
}

async function vitestSuite(workspace, { label = workspace, env = {} } = {}) {
  const report = path.join(reports, `${label}.json`);
  const status = await runLabelled(label, 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: path.join(root, workspace),
    env: { ...process.env, ...env },
  });
  if (!fs.existsSync(report)) {
    problems.push(`${label}: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  totals.passed += json.numPassedTests ?? 0;
  totals.failed += json.numFailedTests ?? 0;
  totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  if (status !== 0 && !json.numFailedTests) {
    problems.push(`${label}: exited ${status}`);
    totals.failed += 1;
  }
}

function* flakyTitles(suites, prefix = []) {
  for (const suite of suites) {
    const trail = suite.title ? [...prefix, suite.title] : prefix;
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((test) => test.status === 'flaky')) yield [...trail, spec.title].join(' › ');
    }
    yield* flakyTitles(suite.suites ?? [], trail);
  }
}

function playwrightSuite() {
  const report = path.join(reports, 'e2e.json');
  const status = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    cwd: path.join(root, 'e2e'),
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  if (!fs.existsSync(report)) {
    problems.push(`e2e: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  const stats = json.stats ?? {};
  // A test that failed once and passed on its retry still counts as passed, but is named here.
  for (const title of flakyTitles(json.suites ?? [])) console.warn(`flaky (passed on retry): ${title}`);
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
  if (status !== 0 && !stats.unexpected) {
    problems.push(`e2e: exited ${status}`);
    totals.failed += 1;
  }
}

/**
 * The lint checks, each one test: ESLint (with its cache), dependency-cruiser over every
 * workspace's sources, and knip. Each runs to the end, so that one run names every problem.
 */
function lintChecks() {
  const cache = path.join(root, 'node_modules', '.cache');
  const checks = [
    ['eslint', ['eslint', '--cache', '--cache-strategy', 'content', '--cache-location', path.join(cache, 'eslint') + path.sep, '--max-warnings', '0', '.']],
    ['dependency-cruiser', ['depcruise', '--output-type', 'err', 'protocol/src', 'server/src', 'web/src', 'web/scripts', 'e2e', 'bench', 'scripts']],
    ['knip', ['knip', '--no-progress']],
  ];
  for (const [name, args] of checks) {
    const started = Date.now();
    const status = run('npx', args);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (status === 0) {
      console.log(`lint: ${name} passed (${seconds} s)`);
      totals.passed += 1;
    } else {
      problems.push(`lint: ${name} failed (exit ${status})`);
      totals.failed += 1;
    }
  }
}

const wants = (name) => only.length === 0 || only.includes(name);
if (wants('lint')) lintChecks();
const webSuite = wants('web') && fs.existsSync(path.join(root, 'web/vitest.config.ts'));
const browserSuite = wants('e2e') && fs.existsSync(path.join(root, 'e2e/playwright.config.ts'));
// The server suite runs twice, side by side: on SQLite, and on a private PostgreSQL cluster that
// the suite starts itself (every database of every test there; without PostgreSQL installed that
// run fails, it is never skipped). The PostgreSQL run takes the test files that open a test
// database; the others do the same in either run. Each run keeps one test file at a time; much
// of a server test is waiting on sockets, child processes and the disk, so two runs share two
// cores well.
const serverRuns = [];
if (wants('server')) serverRuns.push(vitestSuite('server'));
if (wants('server') || only.includes('server-postgres')) {
  serverRuns.push(vitestSuite('server', { label: 'server-postgres', env: { BURROW_TEST_DATABASE: 'postgres' } }));
}
await Promise.all(serverRuns);
// The build comes before the web suite, whose start-up size budget measures web/dist, and is
// the one the browser tests then run against (the whole app for them, only the web app otherwise).
let built = true;
if (webSuite || browserSuite) {
  built = browserSuite ? run('npm', ['run', 'build']) === 0 : run('npm', ['run', 'build', '-w', 'protocol']) === 0 && run('npm', ['run', 'build', '-w', 'web']) === 0;
  if (!built) {
    problems.push('build failed before the web and browser tests');
    totals.failed += 1;
  }
}
if (webSuite) await vitestSuite('web');
if (browserSuite && built) playwrightSuite();

for (const problem of problems) console.error(`test run problem: ${problem}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
