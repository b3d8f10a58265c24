// REDIS_URL names one server or a cluster (redis+cluster://host:port,host:port); REDIS_CLUSTER_NODES names a
// cluster's seeds and takes the scheme and credentials of REDIS_URL. A malformed value stops the start with its name.
import { ConfigError, loadConfig } from './index.js';
import { parseClusterUrl } from '../redis-target.js';

test('a server URL is kept as it is', () => {
  expect(loadConfig({ REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl).toBe('redis://10.0.0.5:6379/2');
});

test('the cluster URL form is taken as it is and read into seeds, credentials and TLS', () => {
  const url = 'rediss+cluster://app:s%3Acret@10.0.0.1:6379,10.0.0.2:6380,[::1]:7000';
  expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
  expect(parseClusterUrl(url)).toEqual({
    seeds: [
      { host: '10.0.0.1', port: 6379 },
      { host: '10.0.0.2', port: 6380 },
      { host: '::1', port: 7000 },
    ],
    username: 'app',
    password: 's:cret',
    tls: true,
  });
});

test('REDIS_CLUSTER_NODES makes a cluster URL, with the scheme and credentials of REDIS_URL', () => {
  expect(loadConfig({ REDIS_CLUSTER_NODES: 'a.example:6379, b.example:6379' }).redisUrl).toBe(
    'redis+cluster://a.example:6379,b.example:6379',
  );
  const withBase = loadConfig({ REDIS_CLUSTER_NODES: 'a.example:6379', REDIS_URL: 'rediss://:pw@ignored.example:1' }).redisUrl!;
  expect(withBase).toBe('rediss+cluster://:pw@a.example:6379');
  expect(parseClusterUrl(withBase)).toEqual({ seeds: [{ host: 'a.example', port: 6379 }], password: 'pw', tls: true });
});

test('malformed values name the setting', () => {
  expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a.example' })).toThrow(
    new ConfigError('REDIS_CLUSTER_NODES: "a.example" is not host:port'),
  );
  expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a.example:99999' })).toThrow(ConfigError);
  expect(() => loadConfig({ REDIS_URL: 'redis+cluster://a.example:6379/3' })).toThrow(/REDIS_URL: a cluster URL has the form/);
  expect(() => loadConfig({ REDIS_URL: 'memcached://a.example' })).toThrow(ConfigError);
});
