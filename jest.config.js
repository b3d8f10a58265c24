/** Jest runs the TypeScript sources as native ES modules, compiled by SWC, in long-lived test processes. */
export default {
  // Long-lived test processes, each file on a database and a redis-server of its own, TypeScript compiled by SWC
  // (test/support/runner/).
  runner: '<rootDir>/test/support/runner/index.mjs',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts', '<rootDir>/sdk/*/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // Generous: a test file starts whole platforms (listeners, Ajv compilation) in beforeAll, slow on a busy machine.
  testTimeout: 120000,
  // Three on two cores: a file spends part of its time waiting on servers (start-up, timers, child processes), and
  // a third worker fills those waits.
  maxWorkers: 3,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.mjs'],
};
