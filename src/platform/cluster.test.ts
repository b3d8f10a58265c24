// The cluster's shutdown times all derive from SHUTDOWN_TIMEOUT_MS: a worker's own bound comes first, the primary's
// SIGKILL after it, the primary's own exit last, and with the default bound the whole node fits Kubernetes' default
// grace period of 30 s.
import { loadConfig } from './config/index.js';
import { primaryShutdownBoundMs, workerKillAfterMs, workerKillMarginMs } from './cluster.js';

test('the primary kills a worker only after the worker’s own bound, and exits only after that', () => {
  for (const shutdownTimeoutMs of [1_000, 25_000, 600_000]) {
    expect(workerKillAfterMs(shutdownTimeoutMs)).toBe(shutdownTimeoutMs + workerKillMarginMs);
    expect(primaryShutdownBoundMs(shutdownTimeoutMs)).toBe(shutdownTimeoutMs + 2 * workerKillMarginMs);
  }
  expect(workerKillMarginMs).toBeGreaterThan(0);
});

test('SHUTDOWN_TIMEOUT_MS moves every bound of the node, and the default fits a 30 s grace period', () => {
  const byDefault = loadConfig({});
  expect(byDefault.shutdownTimeoutMs).toBe(25_000);
  expect(primaryShutdownBoundMs(byDefault.shutdownTimeoutMs)).toBeLessThan(30_000);
  const set = loadConfig({ SHUTDOWN_TIMEOUT_MS: '10000' });
  expect(workerKillAfterMs(set.shutdownTimeoutMs)).toBe(12_000);
  expect(primaryShutdownBoundMs(set.shutdownTimeoutMs)).toBe(14_000);
});
