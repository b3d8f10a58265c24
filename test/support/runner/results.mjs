// jest-circus' run result as the TestResult Jest's reporters read: one assertion result per test, the failures
// formatted as Jest formats them, and errors outside any test (a file that fails to load, a stray rejection) as the
// file's execution error.
import { createEmptyTestResult } from '@jest/test-result';
import { formatExecError, formatResultsErrors } from 'jest-message-util';

const statusOf = (test) => {
  if (test.status === 'skip') return 'pending';
  if (test.status === 'todo') return 'todo';
  return test.errors.length > 0 ? 'failed' : 'passed';
};

function assertionResult(test) {
  const titles = test.testPath.slice(1);
  return {
    ancestorTitles: titles.slice(0, -1),
    duration: test.duration,
    failureDetails: test.errorsDetailed,
    failureMessages: test.errors,
    fullName: titles.join(' '),
    invocations: test.invocations,
    location: test.location,
    numPassingAsserts: test.numPassingAsserts,
    retryReasons: test.retryReasons,
    startAt: test.startedAt,
    status: statusOf(test),
    title: titles.at(-1),
  };
}

export function toTestResult({ path, projectConfig, globalConfig, start, run, loadError }) {
  const result = createEmptyTestResult();
  const end = Date.now();
  result.testFilePath = path;
  result.perfStats = { start, end, runtime: end - start, slow: (end - start) / 1000 > projectConfig.slowTestThreshold };
  const stray = loadError ? [loadError] : (run?.unhandledErrorsDetailed ?? []);
  const tests = (run?.testResults ?? []).map(assertionResult);
  result.numPassingTests = tests.filter((t) => t.status === 'passed').length;
  result.numFailingTests = tests.filter((t) => t.status === 'failed').length;
  result.numPendingTests = tests.filter((t) => t.status === 'pending').length;
  result.numTodoTests = tests.filter((t) => t.status === 'todo').length;
  const messages = [formatResultsErrors(tests, projectConfig, globalConfig, path)];
  if (stray.length > 0) {
    result.testExecError = { message: stray.map((e) => e?.message ?? String(e)).join('\n'), stack: stray[0]?.stack ?? '' };
    messages.push(...stray.map((e) => formatExecError(e, projectConfig, globalConfig, path)));
  }
  result.failureMessage = messages.filter(Boolean).join('\n') || null;
  // Structured-clone safe for the way back to the runner.
  result.testResults = tests.map(({ failureDetails, ...rest }) => ({ ...rest, failureDetails: failureDetails.map(plainError) }));
  return result;
}

function plainError(error) {
  if (!(error instanceof Error)) return error;
  return { message: error.message, stack: error.stack, name: error.name };
}
