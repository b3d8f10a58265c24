// The test runner (test/support/runner/) against files made to break it: a failure of each kind is reported as one,
// and a file that runs after another in the same process sees neither its environment nor its database.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string }> }>;
}

/** Jest on the fixtures, one test process, on this file's own servers; the JSON report. */
async function runFixtures(env: Record<string, string> = {}): Promise<JestJson> {
  const dir = await mkdtemp(join(tmpdir(), 'runner-fixtures-'));
  const out = join(dir, 'report.json');
  try {
    const args = ['node_modules/jest/bin/jest.js', '--rootDir', root, '--maxWorkers=1', '--json', `--outputFile=${out}`];
    args.push('--testMatch', '<rootDir>/test/runner/fixtures/*.fixture.ts', '--testSequencer', join(root, 'test/runner/by-name.mjs'));
    await run(process.execPath, args, { cwd: root, env: { ...process.env, ...env } }).catch((err: { code?: number }) => {
      if (err.code !== 1) throw err;
    });
    return JSON.parse(await readFile(out, 'utf8')) as JestJson;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const statuses = (report: JestJson, file: string) =>
  Object.fromEntries(report.testResults.find((r) => r.name.endsWith(file))!.assertionResults.map((a) => [a.title, a.status]));

test('each kind of failure fails its test; a later file in the same process starts clean', async () => {
  const report = await runFixtures();
  expect(statuses(report, 'failures.fixture.ts')).toEqual({
    'a failed expectation': 'failed',
    'a timeout': 'failed',
    'a rejection nobody handles': 'failed',
    'fewer assertions than declared': 'failed',
    'a rejection handled before the test ends is no failure': 'passed',
  });
  expect(statuses(report, 'leaves-state.fixture.ts')).toEqual({ 'writes to its own database and sets an environment variable': 'passed' });
  expect(statuses(report, 'sees-no-state.fixture.ts')).toEqual({ 'its database and environment are fresh': 'passed' });
}, 120_000);

test('a process replaced after every file, the last one included: the run ends with every file reported', async () => {
  // A limit of 1 MB wears out every process: each file after the first runs in a fresh one.
  const report = await runFixtures({ TEST_PROCESS_RSS_LIMIT_MB: '1' });
  expect(report.testResults.map((r) => r.name.split('/').pop())).toEqual([
    'failures.fixture.ts',
    'leaves-state.fixture.ts',
    'sees-no-state.fixture.ts',
  ]);
  expect(statuses(report, 'sees-no-state.fixture.ts')).toEqual({ 'its database and environment are fresh': 'passed' });
}, 120_000);
