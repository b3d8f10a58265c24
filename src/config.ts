// Environment schema, validated once at start so that a bad value fails with a clear message.

export type ServiceName = 'chat' | 'partner' | 'workspace' | 'workers';

export interface Config {
  services: ServiceName[];
  host: string;
  chatPort: number;
  partnerPort: number;
  workspacePort: number;
  /** Unset: an embedded PostgreSQL is started with its data under dataDir. */
  databaseUrl: string | undefined;
  /** Unset: a local redis-server is started on a free port. */
  redisUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  jwtAudience: string;
  /** Module whose tokens may carry the platform-admin claim. */
  platformModule: string;
  inlineMembersMax: number;
  /** How long after sending its sender may edit a message; 0 turns editing off. */
  messageEditWindowSeconds: number;
  bodyLimitBytes: number;
  verifyKeyCacheTtlMs: number;
  outboxPollMs: number;
  /** Partner API requests allowed per calling IP address per minute and per day, shared by all nodes. */
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  /** How often each node writes the API keys' last-used times it collected. */
  lastUsedFlushMs: number;
  /** Fastify trustProxy: false, true, or the number of proxy hops whose X-Forwarded-For is trusted. */
  trustProxy: boolean | number;
  /** HMAC secret of pagination cursors, shared by every node; unset: one generated and kept in PostgreSQL. */
  cursorSecret: string | undefined;
  /** Longest bearer-token lifetime accepted (exp - iat, or exp - now without iat). */
  maxTokenLifetimeSeconds: number;
  /** Messages one account may send per minute, counted in Redis across every node. */
  sendRateLimitPerMinute: number;
  /** Upper bound on how long a node trusts its cached account status when an invalidation is lost. */
  accountCacheTtlMs: number;
  /** How often each node writes the workspace API's buffered audit entries (and key last-used times). */
  svcAuditFlushMs: number;
  /** Browser origins (scheme://host:port) allowed to call the partner and workspace listeners; empty: the chat listener's. */
  consoleOrigins: string[];
  /** Where the console's browser reaches the partner and workspace listeners; unset: the page's host, that listener's port. */
  consolePartnerUrl: string | undefined;
  consoleWorkspaceUrl: string | undefined;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${schemes.join(' or ')}), got "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} must use ${schemes.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/** A comma-separated list of origins: scheme, host and optional port, nothing else (the Origin header's form). */
function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((s) => s.trim()).filter(Boolean).map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`${name} must list origins such as https://console.example.com, got "${origin}"`);
    }
    return origin;
  });
}

const allServices: ServiceName[] = ['chat', 'partner', 'workspace', 'workers'];

function services(env: Env): ServiceName[] {
  const raw = env.SERVICES;
  if (raw === undefined || raw.trim() === '') return allServices;
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!allServices.includes(name as ServiceName)) {
      throw new ConfigError(`SERVICES lists unknown service "${name}"; known: ${allServices.join(', ')}`);
    }
  }
  return names as ServiceName[];
}

function cursorSecret(env: Env): string | undefined {
  const raw = env.CURSOR_SECRET;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new ConfigError(`CURSOR_SECRET must be at least 32 characters, got ${raw.length}`);
  return raw;
}

function trustProxy(env: Env): boolean | number {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  throw new ConfigError(`TRUST_PROXY must be false, true or a number of proxy hops (0-10), got "${raw}"`);
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!logLevels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  return {
    services: services(env),
    host: env.HOST ?? '127.0.0.1',
    chatPort: int(env, 'CHAT_PORT', 8080, 0, 65535),
    partnerPort: int(env, 'PARTNER_PORT', 8081, 0, 65535),
    workspacePort: int(env, 'WORKSPACE_PORT', 8082, 0, 65535),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    dataDir: env.DATA_DIR ?? '.data',
    logLevel,
    jwtAudience: env.JWT_AUDIENCE ?? 'chat',
    platformModule: env.PLATFORM_MODULE ?? 'platform',
    inlineMembersMax: int(env, 'INLINE_MEMBERS_MAX', 50, 0, 10_000),
    messageEditWindowSeconds: int(env, 'MESSAGE_EDIT_WINDOW_SECONDS', 900, 0, 2_592_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    verifyKeyCacheTtlMs: int(env, 'VERIFY_KEY_CACHE_TTL_MS', 60_000, 0, 86_400_000),
    outboxPollMs: int(env, 'OUTBOX_POLL_MS', 5_000, 100, 3_600_000),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 100_000_000),
    rateLimitPerDay: int(env, 'RATE_LIMIT_PER_DAY', 100_000, 1, 1_000_000_000),
    lastUsedFlushMs: int(env, 'LAST_USED_FLUSH_MS', 5_000, 100, 3_600_000),
    trustProxy: trustProxy(env),
    cursorSecret: cursorSecret(env),
    maxTokenLifetimeSeconds: int(env, 'MAX_TOKEN_LIFETIME_SECONDS', 86_400, 60, 31_536_000),
    sendRateLimitPerMinute: int(env, 'SEND_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    accountCacheTtlMs: int(env, 'ACCOUNT_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    svcAuditFlushMs: int(env, 'SVC_AUDIT_FLUSH_MS', 2_000, 100, 3_600_000),
    consoleOrigins: origins(env, 'CONSOLE_ORIGINS'),
    consolePartnerUrl: url(env, 'CONSOLE_PARTNER_URL', ['http', 'https']),
    consoleWorkspaceUrl: url(env, 'CONSOLE_WORKSPACE_URL', ['http', 'https']),
  };
}
