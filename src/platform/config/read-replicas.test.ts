// DATABASE_READ_URLS and the replica bounds: none listed is no replica at all; a bad entry stops the start by name.
import { ConfigError, loadConfig } from './index.js';

test('unset lists no replica', () => {
  expect(loadConfig({}).readReplicas).toEqual({ urls: [], pollMs: 200, maxLagMs: 30_000, maxLagBytes: 16 * 1024 * 1024 });
  expect(loadConfig({ DATABASE_READ_URLS: ' ' }).readReplicas.urls).toEqual([]);
});

test('a comma-separated list of postgres URLs, spaces around entries ignored', () => {
  const config = loadConfig({
    DATABASE_READ_URLS: 'postgres://u:p@replica-1:5432/chat, postgresql://u:p@replica-2/chat',
    REPLICA_POLL_MS: '100',
    REPLICA_MAX_LAG_MS: '5000',
    REPLICA_MAX_LAG_BYTES: '1048576',
  });
  expect(config.readReplicas).toEqual({
    urls: ['postgres://u:p@replica-1:5432/chat', 'postgresql://u:p@replica-2/chat'],
    pollMs: 100,
    maxLagMs: 5000,
    maxLagBytes: 1048576,
  });
});

test('an entry that is not a postgres URL names the setting', () => {
  expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://u:p@a/chat,redis://b:6379' })).toThrow(ConfigError);
  expect(() => loadConfig({ DATABASE_READ_URLS: 'not a url' })).toThrow(/DATABASE_READ_URLS/);
  expect(() => loadConfig({ REPLICA_POLL_MS: '5' })).toThrow(/REPLICA_POLL_MS/);
});
