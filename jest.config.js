/** Jest runs the TypeScript sources as native ES modules, transformed by SWC. */
export default {
  // Every file runs on a database and a redis-server of its own (test/support/isolated-environment.mjs).
  testEnvironment: '<rootDir>/test/support/isolated-environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'es6' } }],
  },
  // The SDKs' shared core from its sources, so the tests need no build of it.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^@chat-platform/sdk-core$': '<rootDir>/sdk/core/src/index.ts' },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts', '<rootDir>/sdk/*/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // Generous: a test file starts whole platforms (listeners, Ajv compilation) in beforeAll, slow on a busy machine.
  testTimeout: 120000,
  // Three on two cores: a file spends part of its time waiting on servers (start-up, timers, child processes), and
  // a third worker fills those waits.
  maxWorkers: 3,
  // Each test file loads the platform's modules afresh in the worker's VM context, and the heap of a long-lived worker
  // grows with every file; a worker past this after a file is replaced by a fresh one instead of running out of memory.
  workerIdleMemoryLimit: '1.5GB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.mjs'],
};
