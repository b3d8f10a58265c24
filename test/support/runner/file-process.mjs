// One test process of the runner (test/support/runner/index.mjs): it runs the files the runner sends it one at a time,
// each on infrastructure of its own (test/support/runner/file-infra.mjs), with jest-circus and Jest's expect. The
// platform's modules load once per process, not once per file: what a file must not inherit from the one before it
// lives in the database, Redis and environment that each file gets afresh.
import { jestExpect } from '@jest/expect';
import * as circus from 'jest-circus';
import { pathToFileURL } from 'node:url';
import { withFileInfra } from './file-infra.mjs';
import { toTestResult } from './results.mjs';

process.setSourceMapsEnabled(true);

for (const name of ['describe', 'test', 'it', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']) globalThis[name] = circus[name];
globalThis.xdescribe = circus.describe.skip;
globalThis.xtest = globalThis.xit = circus.test.skip;
globalThis.fdescribe = circus.describe.only;
globalThis.fit = circus.test.only;
globalThis.expect = jestExpect;

// Expect's bookkeeping per test: its name for messages, and the checks of expect.assertions()/hasAssertions().
circus.addEventHandler((event) => {
  if (event.name === 'test_start') {
    jestExpect.setState({
      assertionCalls: 0,
      currentTestName: event.test.name,
      expectedAssertionsNumber: null,
      isExpectingAssertions: false,
      suppressedErrors: [],
    });
  }
  if (event.name === 'test_fn_success' || event.name === 'test_fn_failure') {
    const { assertionCalls, suppressedErrors } = jestExpect.getState();
    event.test.numPassingAsserts = assertionCalls;
    for (const error of [...suppressedErrors, ...jestExpect.extractExpectedAssertionsErrors().map((e) => e.error)]) {
      event.test.errors.push(error);
    }
  }
});

// An exception no test caught fails the running test, or the file when none runs, as Jest's own runner does. So does
// a rejection nobody handled by the end of the test that was running (or of the file): one handled later, as a test
// that awaits its requests after the server went away does, is no failure.
const unhandled = new Map();

function failRunning(error) {
  const state = circus.getState();
  if (state.currentlyRunningTest) state.currentlyRunningTest.errors.push(error);
  else state.unhandledErrors.push(error);
}

function takeUnhandled(test) {
  const errors = [];
  for (const [promise, entry] of unhandled) {
    if (entry.test !== test) continue;
    unhandled.delete(promise);
    errors.push(entry.error);
  }
  return errors;
}

process.on('uncaughtException', failRunning);
process.on('unhandledRejection', (error, promise) => unhandled.set(promise, { error, test: circus.getState().currentlyRunningTest }));
process.on('rejectionHandled', (promise) => unhandled.delete(promise));
circus.addEventHandler(async (event) => {
  if (event.name !== 'test_done') return;
  // Node reports a rejection as handled after the microtasks of the turn that handled it: wait for that turn to end.
  await new Promise((resolve) => setImmediate(resolve));
  event.test.errors.push(...takeUnhandled(event.test));
});

async function runFile({ path, projectConfig, globalConfig }) {
  const started = { wall: performance.now(), cpu: process.cpuUsage() };
  return withFileInfra(path, started, async () => {
    circus.resetState();
    const state = circus.getState();
    state.testTimeout = projectConfig.testTimeout ?? globalConfig.testTimeout ?? 5000;
    if (globalConfig.testNamePattern) state.testNamePattern = new RegExp(globalConfig.testNamePattern, 'i');
    jestExpect.setState({ testPath: path, expand: globalConfig.expand });
    const start = Date.now();
    try {
      await import(pathToFileURL(path).href);
    } catch (error) {
      return toTestResult({ path, projectConfig, globalConfig, start, loadError: error });
    }
    const run = await circus.run();
    run.unhandledErrorsDetailed.push(...takeUnhandled(null));
    return toTestResult({ path, projectConfig, globalConfig, start, run });
  });
}

process.on('message', async (message) => {
  if (message.type !== 'run') return;
  let result;
  try {
    result = await runFile(message);
  } catch (error) {
    process.send({ type: 'error', id: message.id, error: { message: String(error?.message ?? error), stack: error?.stack } });
    return;
  }
  process.send({ type: 'result', id: message.id, result, rss: process.memoryUsage().rss });
});
process.send({ type: 'ready' });
