// Tokens, request and send limits, caches, the outbox's timers, the console and the listeners' public addresses.
import { ConfigError, int, origins, url, type Env } from './env.js';

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

/** Tokens, request and send limits, caches, the outbox's timers, the console and the public addresses of the listeners. */
export function apiSettings(env: Env) {
  return {
    jwtAudience: env.JWT_AUDIENCE ?? 'chat',
    platformModule: env.PLATFORM_MODULE ?? 'platform',
    inlineMembersMax: int(env, 'INLINE_MEMBERS_MAX', 50, 0, 10_000),
    messageEditWindowSeconds: int(env, 'MESSAGE_EDIT_WINDOW_SECONDS', 900, 0, 2_592_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    verifyKeyCacheTtlMs: int(env, 'VERIFY_KEY_CACHE_TTL_MS', 60_000, 0, 86_400_000),
    outboxPollMs: int(env, 'OUTBOX_POLL_MS', 5_000, 100, 3_600_000),
    relayIntervalMs: int(env, 'RELAY_INTERVAL_MS', 10, 0, 1_000),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 100_000_000),
    rateLimitPerDay: int(env, 'RATE_LIMIT_PER_DAY', 100_000, 1, 1_000_000_000),
    lastUsedFlushMs: int(env, 'LAST_USED_FLUSH_MS', 5_000, 100, 3_600_000),
    trustProxy: trustProxy(env),
    cursorSecret: cursorSecret(env),
    maxTokenLifetimeSeconds: int(env, 'MAX_TOKEN_LIFETIME_SECONDS', 86_400, 60, 31_536_000),
    sendRateLimitPerMinute: int(env, 'SEND_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    accountCacheTtlMs: int(env, 'ACCOUNT_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    svcAuditFlushMs: int(env, 'SVC_AUDIT_FLUSH_MS', 2_000, 100, 3_600_000),
    consoleOrigins: origins(env, 'CONSOLE_ORIGINS'),
    consolePartnerUrl: url(env, 'CONSOLE_PARTNER_URL', ['http', 'https']),
    consoleWorkspaceUrl: url(env, 'CONSOLE_WORKSPACE_URL', ['http', 'https']),
    chatPublicUrl: url(env, 'CHAT_PUBLIC_URL', ['http', 'https']),
    partnerPublicUrl: url(env, 'PARTNER_PUBLIC_URL', ['http', 'https']),
    workspacePublicUrl: url(env, 'WORKSPACE_PUBLIC_URL', ['http', 'https']),
  };
}
