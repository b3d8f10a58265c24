// Where Redis is: one server (redis:// or rediss://, ioredis' own URL form) or a Redis Cluster, named by the
// cluster form redis+cluster://[user:password@]host:port,host:port (rediss+cluster:// for TLS). The cluster's other
// nodes are discovered from these seeds (CLUSTER SLOTS), so a few of them are enough.

export interface ClusterTarget {
  seeds: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

const clusterForm = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#@]+)\/?$/;

/** Whether url names a cluster (the redis+cluster:// or rediss+cluster:// form). */
export function isClusterUrl(url: string): boolean {
  return /^rediss?\+cluster:\/\//.test(url);
}

/** The seeds and credentials of a cluster URL; throws with the reason on a malformed one. */
export function parseClusterUrl(url: string): ClusterTarget {
  const m = clusterForm.exec(url);
  if (!m)
    throw new Error(
      'a cluster URL has the form redis+cluster://[user:password@]host:port,host:port (no database: a cluster has only database 0)',
    );
  const [, scheme, credentials, hosts] = m;
  const target: ClusterTarget = { seeds: parseClusterNodes(hosts!), tls: scheme === 'rediss' };
  if (credentials) {
    const colon = credentials.indexOf(':');
    const user = decodeURIComponent(colon < 0 ? credentials : credentials.slice(0, colon));
    if (user) target.username = user;
    if (colon >= 0) target.password = decodeURIComponent(credentials.slice(colon + 1));
  }
  return target;
}

/** host:port,host:port (IPv6 hosts in brackets) as seeds; throws on an entry without a valid port. */
export function parseClusterNodes(list: string): Array<{ host: string; port: number }> {
  const entries = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('a cluster needs at least one host:port seed');
  return entries.map((entry) => {
    const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(entry);
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65_535) throw new Error(`"${entry}" is not host:port`);
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

/**
 * The URL of REDIS_CLUSTER_NODES's seeds, taking the scheme (redis or rediss) and the credentials of REDIS_URL when
 * that is given too.
 */
export function clusterUrlFromNodes(nodes: string, redisUrl: string | undefined): string {
  const seeds = parseClusterNodes(nodes).map((s) => (s.host.includes(':') ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`));
  let scheme = 'redis';
  let credentials = '';
  if (redisUrl && !isClusterUrl(redisUrl)) {
    const base = new URL(redisUrl);
    scheme = base.protocol === 'rediss:' ? 'rediss' : 'redis';
    if (base.username || base.password) credentials = `${base.username}${base.password ? `:${base.password}` : ''}@`;
  } else if (redisUrl) {
    const base = parseClusterUrl(redisUrl);
    scheme = base.tls ? 'rediss' : 'redis';
    if (base.username !== undefined || base.password !== undefined) {
      credentials = `${encodeURIComponent(base.username ?? '')}${base.password !== undefined ? `:${encodeURIComponent(base.password)}` : ''}@`;
    }
  }
  return `${scheme}+cluster://${credentials}${seeds.join(',')}`;
}
