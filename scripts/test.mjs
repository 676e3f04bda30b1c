#!/usr/bin/env node
// `npm test`: every suite, always. The product built once, then Vitest (projects 'server', 'web'
// and 'repository'), then Playwright (e2e).
// Each runner writes a JSON report besides its usual output; the counts of both are added up
// into one closing line, `N passed, N failed` (`, N skipped` when some were skipped), printed
// last, after one line per failed test: the end of a CI log alone says what failed. Exits non-zero when any test failed or a runner crashed or left no report: a missing
// browser or database is a failure, never a skip. TEST_DATABASE_URL and CHROME_PATH pass through.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kanak-test-'));
// One runner may not take longer than this (CI stops everything at 90 minutes).
const runnerTimeoutMs = (Number(process.env.TEST_RUNNER_TIMEOUT_MIN) || 40) * 60_000;

/** Runs a command with inherited output; resolves to its exit code (or a description). */
function run(label, command, args, env) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n=== ${label}: ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => {
      console.error(
        `\n${label}: still running after ${runnerTimeoutMs / 60_000} min, stopping it.`,
      );
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    }, runnerTimeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, problem: `could not start: ${error.message}`, seconds: 0 });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      resolve({ code, problem: signal ? `killed by ${signal}` : null, seconds });
    });
  });
}

/** The first non-empty line of a message, without terminal colours. */
function firstLine(text) {
  // eslint-disable-next-line no-control-regex -- terminal colour codes
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '(no message)'
  );
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Vitest's JSON report (Jest-compatible). A file that failed before its tests ran counts as one failure. */
function countVitest(report) {
  const counts = { passed: 0, failed: 0, skipped: 0, notes: [] };
  for (const file of report.testResults ?? []) {
    const results = file.assertionResults ?? [];
    for (const test of results) {
      if (test.status === 'passed') counts.passed += 1;
      else if (test.status === 'failed') {
        counts.failed += 1;
        counts.notes.push(
          `failed: ${path.relative(root, file.name ?? '?')} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
        );
      } else counts.skipped += 1; // skipped, pending, todo, disabled
    }
    if (file.status === 'failed' && !results.some((test) => test.status === 'failed')) {
      counts.failed += 1;
      const name = path.relative(root, file.name ?? '?');
      counts.notes.push(`${name}: failed outside a test: ${firstLine(file.message)}`);
    }
  }
  return counts;
}

/** The slowest test files of Vitest's report: what to look at first when the run grows long. */
function slowestVitest(report, count = 8) {
  return (report.testResults ?? [])
    .map((file) => ({
      name: path.relative(root, file.name ?? '?'),
      seconds: ((file.endTime ?? 0) - (file.startTime ?? 0)) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ name, seconds }) => `slow: ${name} ${seconds.toFixed(1)} s`);
}

/** The slowest tests of Playwright's report (each test's last try). */
function slowestPlaywright(report, count = 8) {
  const tests = [];
  const walk = (suites) => {
    for (const suite of suites) {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          const seconds = (test.results?.at(-1)?.duration ?? 0) / 1000;
          tests.push({ name: `${spec.file} › ${spec.title}`, seconds });
        }
      }
      walk(suite.suites ?? []);
    }
  };
  walk(report.suites ?? []);
  return tests
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ name, seconds }) => `slow: ${name} ${seconds.toFixed(1)} s`);
}

/** Playwright's JSON report. Errors outside tests (global setup or teardown) count as failures. */
function countPlaywright(report) {
  const stats = report.stats ?? {};
  const counts = {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: stats.unexpected ?? 0,
    skipped: stats.skipped ?? 0,
    notes: [],
  };
  if (stats.flaky) counts.notes.push(`${stats.flaky} flaky (passed on a retry)`);
  for (const failed of failedPlaywrightTests(report.suites ?? [], [])) counts.notes.push(failed);
  for (const error of report.errors ?? []) {
    counts.failed += 1;
    counts.notes.push(`error outside a test: ${firstLine(error.message ?? String(error))}`);
  }
  return counts;
}

/** `failed: file › describe › title: first line of its error` for each test that failed every try. */
function failedPlaywrightTests(suites, titles) {
  return suites.flatMap((suite) => {
    // A file's own suite is titled with its name, which the line already starts with.
    const within = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    const own = (suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((test) => test.status === 'unexpected')
        .map((test) => {
          const error = test.results?.at(-1)?.error?.message;
          return `failed: ${spec.file} › ${[...within, spec.title].join(' › ')}: ${firstLine(error)}`;
        }),
    );
    return [...own, ...failedPlaywrightTests(suite.suites ?? [], within)];
  });
}

const env = { ...process.env };
// One build of the product for both runners: the sign-in page's size check measures it and
// the e2e suite starts it, instead of each building its own.
const built = await run('build', 'npm', ['run', 'build'], env);
if (built.code !== 0) {
  console.error(`\nnpm run build failed (${built.problem ?? `exit ${built.code}`}).`);
  process.exit(1);
}
env.KANAK_WEB_BUILT = path.join(root, 'apps/web/dist');
env.E2E_SKIP_BUILD = '1';
const suites = [
  {
    label: 'vitest (server, web, repository)',
    report: path.join(reportDir, 'vitest.json'),
    command: 'npx',
    args: (report) => [
      '--no-install',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env: () => env,
    count: countVitest,
    slowest: slowestVitest,
  },
  {
    label: 'playwright (e2e)',
    report: path.join(reportDir, 'playwright.json'),
    command: 'npx',
    args: () => ['--no-install', 'playwright', 'test', '--reporter=list,json'],
    env: (report) => ({ ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report }),
    count: countPlaywright,
    slowest: slowestPlaywright,
  },
];

const total = { passed: 0, failed: 0, skipped: 0 };
const summary = [];
for (const suite of suites) {
  const result = await run(
    suite.label,
    suite.command,
    suite.args(suite.report),
    suite.env(suite.report),
  );
  const report = readJson(suite.report);
  const counts = report ? suite.count(report) : { passed: 0, failed: 0, skipped: 0, notes: [] };
  if (!report) {
    counts.failed += 1;
    counts.notes.push('the runner left no report (counted as 1 failure)');
  }
  if (result.problem) counts.notes.push(result.problem);
  if (report) counts.notes.push(...suite.slowest(report));
  if (report && result.code !== 0 && counts.failed === 0) {
    counts.failed += 1;
    counts.notes.push(
      `the runner exited ${result.code ?? result.problem} with no failed test (counted as 1 failure)`,
    );
  }
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  summary.push(
    `${suite.label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped ` +
      `in ${result.seconds.toFixed(1)} s`,
    ...counts.notes.map((note) => `  - ${note}`),
  );
}

fs.rmSync(reportDir, { recursive: true, force: true });
console.log('\n=== summary');
for (const line of summary) console.log(line);
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ''}`,
);
process.exitCode = total.failed > 0 || total.passed === 0 ? 1 : 0;
