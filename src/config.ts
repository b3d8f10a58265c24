// Environment schema, validated once at start so that a bad value fails with a clear message.
import { availableParallelism } from 'node:os';
import type { DependencyTimeouts } from './platform/dependency-timeouts.js';
import type { SchemaCompilation } from './platform/http/schema-compilation.js';
import { clusterUrlFromNodes, isClusterUrl, parseClusterUrl } from './platform/redis-target.js';

export type ServiceName = 'chat' | 'partner' | 'workspace' | 'workers';

export interface Config {
  services: ServiceName[];
  host: string;
  chatPort: number;
  partnerPort: number;
  workspacePort: number;
  /** The operations listener (GET /metrics): off when unset; METRICS_PORT=0 takes a free port. */
  metricsPort: number | undefined;
  /** Where the operations listener binds (METRICS_HOST): loopback unless set otherwise. */
  metricsHost: string;
  /** Unset: an embedded PostgreSQL is started with its data under dataDir. */
  databaseUrl: string | undefined;
  /** Unset: a local redis-server is started on a free port. */
  redisUrl: string | undefined;
  /** Streaming replicas of the primary some reads go to (DATABASE_READ_URLS; none: every read on the primary). */
  readReplicas: ReadReplicaConfig;
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
  /** Least time between the starts of two outbox drains of one node while sends keep coming (0: right after each). */
  relayIntervalMs: number;
  /** Partner API requests allowed per calling IP address per minute and per day, shared by all nodes. */
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  /** How often each node writes the API keys' last-used times it collected. */
  lastUsedFlushMs: number;
  /** Fastify trustProxy: false, true, or the number of proxy hops whose X-Forwarded-For is trusted. */
  trustProxy: boolean | number;
  /** HMAC secret of pagination cursors, shared by every node; unset: one generated and kept in PostgreSQL. */
  cursorSecret: string | undefined;
  /** Longest bearer-token lifetime accepted (both exp - iat and exp - now). */
  maxTokenLifetimeSeconds: number;
  /** Messages one account may send per minute, counted in Redis across every node. */
  sendRateLimitPerMinute: number;
  /** Upper bound on how long a node trusts its cached account status when an invalidation is lost. */
  accountCacheTtlMs: number;
  /** How long a node may serve a key gate's row from its cache should an invalidation be lost; 0 turns the cache off. */
  keyCacheTtlMs: number;
  /** How often each node writes the workspace API's buffered audit entries (and key last-used times). */
  svcAuditFlushMs: number;
  /** Browser origins (scheme://host:port) allowed to call the partner and workspace listeners; empty: the chat listener's. */
  consoleOrigins: string[];
  /** Where the console's browser reaches the partner and workspace listeners; unset: the page's host, that listener's port. */
  consolePartnerUrl: string | undefined;
  consoleWorkspaceUrl: string | undefined;
  /**
   * The address callers reach each listener at (behind a proxy or a host name): the `servers` of the OpenAPI
   * documents it serves and of its /docs page. Unset: relative ("/"), the address the document was fetched from.
   */
  chatPublicUrl: string | undefined;
  partnerPublicUrl: string | undefined;
  workspacePublicUrl: string | undefined;
  /** Realtime (docs/realtime.md): hours the per-account event log keeps events for resume-after (at least 24). */
  realtimeRetentionHours: number;
  realtimeMaxFrameBytes: number;
  realtimeMaxSubscriptions: number;
  realtimeMaxFramesPerSecond: number;
  realtimeMaxSessionsPerAccount: number;
  realtimeHeartbeatMs: number;
  realtimeConnectTimeoutMs: number;
  realtimeMaxBufferedBytes: number;
  realtimeSweepMs: number;
  /** One typing notice per account and room in this window (docs/realtime.md "Presence and typing"). */
  realtimeTypingIntervalMs: number;
  /** Largest file an upload session accepts. */
  uploadMaxBytes: number;
  /** Media types an upload may declare: type/subtype or type/* entries, lower case. */
  uploadAllowedTypes: string[];
  /** How long an upload session lives: an upload not complete and sent in a message by then is deleted. */
  uploadSessionTtlSeconds: number;
  /** How often a worker deletes expired upload sessions and files of recalled messages. */
  uploadCleanupIntervalMs: number;
  /** Where uploaded files are stored: a folder under dataDir, or an S3-compatible bucket. */
  media: MediaStoreConfig;
  /** Public base URL of the media service (upload URLs); unset: the origin the client called. */
  mediaPublicUrl: string | undefined;
  /** How often a worker fires due scheduled messages and reminders whose delayed job went missing. */
  scheduleSweepMs: number;
  /** Messages (sends, edits, deletions) one bot may make per second through the Bot API, across every node. */
  botSendRatePerSecond: number;
  /** The longest getUpdates wait; a larger timeout is shortened to this. */
  botLongPollMaxSeconds: number;
  /** Whether bot webhooks may use http:// (otherwise https only). */
  botWebhookAllowHttp: boolean;
  /** Whether bot webhooks may reach loopback, private and link-local addresses. */
  botWebhookAllowPrivate: boolean;
  /** How long one webhook delivery may take before it counts as failed. */
  botWebhookTimeoutMs: number;
  /** Delay before the first retry of a failed delivery; it doubles per failure up to botWebhookRetryMaxMs. */
  botWebhookRetryBaseMs: number;
  botWebhookRetryMaxMs: number;
  /** Outbound webhooks of the workspace API: targets, retries, secrets at rest, the Owner's warning mail. */
  webhooks: WebhookConfig;
  /** Longest time a client may take to send a whole request, headers and body (408 after it). */
  requestTimeoutMs: number;
  /** Longest time a client may take to send the request line and headers (408 after it). */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Processes serving the listeners on one machine (node:cluster, one port); 1 runs a single process. */
  workers: number;
  /** Longest a SIGTERM/SIGINT drain may take before the process exits anyway (with status 1). */
  shutdownTimeoutMs: number;
  /** Bounded waits on PostgreSQL and Redis (src/platform/dependency-timeouts.ts). */
  dependencyTimeouts: DependencyTimeouts;
  /** When request validators and response serializers are compiled (SCHEMA_COMPILATION, src/platform/http/schema-compilation.ts). */
  schemaCompilation: SchemaCompilation;
}

export interface WebhookConfig {
  /** Deliver to loopback, private and link-local addresses too (tests, single-host setups); default false. */
  allowPrivateTargets: boolean;
  /** PEM file of extra CAs trusted for receivers with a private certificate. */
  caFile: string | undefined;
  /** Delay in seconds before each attempt (the first usually 0); its length is the number of attempts. */
  retrySchedule: number[];
  /** AES-256-GCM key of webhook secrets at rest; unset: one generated and kept in PostgreSQL. */
  secretKey: Buffer | undefined;
  /** Receiver time-out of one attempt. */
  timeoutMs: number;
  /** How often each worker node re-enqueues due deliveries whose job was lost, and sends pending notices. */
  sweepMs: number;
  /** Deliveries one worker node sends at the same time. */
  concurrency: number;
  /** Where the Owner's warning mail goes out (smtp:// or smtps://); unset: the notice is logged, not mailed. */
  smtpUrl: string | undefined;
  smtpFrom: string;
}

export type MediaStoreConfig =
  | { kind: 'file' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible service other than AWS (MinIO, R2, ...). */
      endpoint: string | undefined;
      /** Both or neither; neither: the AWS SDK's default credential chain. */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

/** DATABASE_READ_URLS and the bounds that take a replica out of rotation (docs/operations.md, read replicas). */
export interface ReadReplicaConfig {
  urls: string[];
  /** REPLICA_POLL_MS: how often each node reads the primary's and every replica's WAL position. */
  pollMs: number;
  /** REPLICA_MAX_LAG_MS: a replica missing data older than this leaves the rotation. */
  maxLagMs: number;
  /** REPLICA_MAX_LAG_BYTES: a replica this many WAL bytes behind the primary leaves the rotation. */
  maxLagBytes: number;
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

/**
 * REDIS_URL: one server (redis, rediss) or a cluster (redis+cluster://host:port,host:port); REDIS_CLUSTER_NODES
 * (host:port,host:port) names a cluster's seeds, with the scheme and credentials of REDIS_URL when that is set too.
 */
function redisTarget(env: Env): string | undefined {
  const raw = env.REDIS_URL;
  const nodes = env.REDIS_CLUSTER_NODES;
  try {
    if (raw && isClusterUrl(raw)) parseClusterUrl(raw);
    if (nodes !== undefined && nodes.trim() !== '')
      return clusterUrlFromNodes(nodes, raw && isClusterUrl(raw) ? raw : url(env, 'REDIS_URL', ['redis', 'rediss']));
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${nodes ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL'}: ${(err as Error).message}`);
  }
  return raw && isClusterUrl(raw) ? raw : url(env, 'REDIS_URL', ['redis', 'rediss']);
}

/** A comma-separated list of origins: scheme, host and optional port, nothing else (the Origin header's form). */
function origins(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
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

function urlList(env: Env, name: string, schemes: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((one) => url({ [name]: one }, name, schemes)!);
}

const allServices: ServiceName[] = ['chat', 'partner', 'workspace', 'workers'];

function services(env: Env): ServiceName[] {
  const raw = env.SERVICES;
  if (raw === undefined || raw.trim() === '') return allServices;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!allServices.includes(name as ServiceName)) {
      throw new ConfigError(`SERVICES lists unknown service "${name}"; known: ${allServices.join(', ')}`);
    }
  }
  return names as ServiceName[];
}

/** The one reading of a boolean setting: true/false, 1/0 or yes/no, in any case. */
export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  throw new ConfigError(`${name} must be true or false (or 1/0, yes/no), got "${raw}"`);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return parseBoolean(name, raw);
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

// Kinds people send in a work chat; image/*, audio/* and video/* are served as downloads (never rendered inline).
const defaultUploadTypes = [
  'image/*',
  'audio/*',
  'video/*',
  'text/plain',
  'text/csv',
  'application/pdf',
  'application/zip',
  'application/json',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];
const mediaTypeEntry = /^([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126}|\*)$/;

function uploadTypes(env: Env): string[] {
  const raw = env.UPLOAD_ALLOWED_TYPES;
  if (raw === undefined || raw.trim() === '') return defaultUploadTypes;
  const entries = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) throw new ConfigError('UPLOAD_ALLOWED_TYPES must list at least one media type');
  for (const entry of entries) {
    if (entry !== '*/*' && !mediaTypeEntry.test(entry)) {
      throw new ConfigError(`UPLOAD_ALLOWED_TYPES entries must be type/subtype, type/* or */*, got "${entry}"`);
    }
  }
  return entries;
}

function mediaStore(env: Env): MediaStoreConfig {
  const kind = env.MEDIA_STORE ?? 'file';
  if (kind === 'file' || kind === '') return { kind: 'file' };
  if (kind !== 's3') throw new ConfigError(`MEDIA_STORE must be file or s3, got "${kind}"`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('MEDIA_STORE=s3 needs S3_BUCKET');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`S3_BUCKET is not a valid bucket name: "${bucket}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return {
    kind: 's3',
    bucket,
    region: env.S3_REGION || 'us-east-1',
    endpoint: url(env, 'S3_ENDPOINT', ['http', 'https']),
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

function publicUrl(env: Env, name: string): string | undefined {
  const raw = url(env, name, ['http', 'https']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must be a base URL without query or fragment, got "${raw}"`);
  return withoutTrailingSlashes(raw);
}

/** "a//" → "a", by a scan from the end (the regular expression /\/+$/ backtracks quadratically on "////…x"). */
function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}

/** The seed's limit: at most 6 delivery attempts, after which the webhook is paused. */
export const maxWebhookAttempts = 6;

function retrySchedule(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE;
  if (raw === undefined || raw.trim() === '') return [0, 60, 300, 1800, 7200, 43200];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > maxWebhookAttempts || parts.some((p) => !/^\d{1,7}$/.test(p) || Number(p) > 604_800)) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be 1 to ${maxWebhookAttempts} comma-separated whole seconds (each at most 604800; one per delivery attempt), got "${raw}"`,
    );
  }
  return parts.map(Number);
}

function flag(env: Env, name: string): boolean {
  return bool(env, name, false);
}

function webhookSecretKey(env: Env): Buffer | undefined {
  const raw = env.WEBHOOK_SECRET_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined;
  if (key?.length !== 32) throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex digits or base64');
  return key;
}

function webhookConfig(env: Env): WebhookConfig {
  return {
    allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    caFile: env.WEBHOOK_CA_FILE === '' ? undefined : env.WEBHOOK_CA_FILE,
    retrySchedule: retrySchedule(env),
    secretKey: webhookSecretKey(env),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    sweepMs: int(env, 'WEBHOOK_SWEEP_MS', 5_000, 100, 3_600_000),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1_000),
    smtpUrl: url(env, 'SMTP_URL', ['smtp', 'smtps']),
    smtpFrom: env.SMTP_FROM || 'Webhooks <webhooks@localhost>',
  };
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!logLevels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  // Read group by group in this order, so that of several bad variables the same one is reported first as before.
  return {
    ...addresses(env),
    logLevel,
    ...apiSettings(env),
    ...realtimeSettings(env),
    ...mediaSettings(env),
    scheduleSweepMs: int(env, 'SCHEDULE_SWEEP_MS', 5_000, 100, 3_600_000),
    ...botSettings(env),
    webhooks: webhookConfig(env),
    ...httpTimeouts(env),
    ...processSettings(env),
  };
}

/** What runs here and where: services, ports, PostgreSQL (and its replicas), Redis, the data directory. */
function addresses(env: Env) {
  return {
    services: services(env),
    host: env.HOST ?? '127.0.0.1',
    chatPort: int(env, 'CHAT_PORT', 8080, 0, 65535),
    partnerPort: int(env, 'PARTNER_PORT', 8081, 0, 65535),
    workspacePort: int(env, 'WORKSPACE_PORT', 8082, 0, 65535),
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: redisTarget(env),
    readReplicas: {
      urls: urlList(env, 'DATABASE_READ_URLS', ['postgres', 'postgresql']),
      pollMs: int(env, 'REPLICA_POLL_MS', 200, 20, 10_000),
      maxLagMs: int(env, 'REPLICA_MAX_LAG_MS', 30_000, 100, 3_600_000),
      maxLagBytes: int(env, 'REPLICA_MAX_LAG_BYTES', 16 * 1024 * 1024, 0, Number.MAX_SAFE_INTEGER),
    },
    dataDir: env.DATA_DIR ?? '.data',
  };
}

/** Tokens, request and send limits, caches, the outbox's timers, the console and the public addresses of the listeners. */
function apiSettings(env: Env) {
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

/** The STOMP gateway's limits and timers (docs/realtime.md). */
function realtimeSettings(env: Env) {
  return {
    realtimeRetentionHours: int(env, 'REALTIME_RETENTION_HOURS', 24, 24, 720),
    realtimeMaxFrameBytes: int(env, 'REALTIME_MAX_FRAME_BYTES', 65_536, 1_024, 16_777_216),
    realtimeMaxSubscriptions: int(env, 'REALTIME_MAX_SUBSCRIPTIONS', 8, 1, 100),
    realtimeMaxFramesPerSecond: int(env, 'REALTIME_MAX_FRAMES_PER_SECOND', 50, 1, 10_000),
    realtimeMaxSessionsPerAccount: int(env, 'REALTIME_MAX_SESSIONS_PER_ACCOUNT', 20, 1, 1_000),
    realtimeHeartbeatMs: int(env, 'REALTIME_HEARTBEAT_MS', 10_000, 100, 3_600_000),
    realtimeConnectTimeoutMs: int(env, 'REALTIME_CONNECT_TIMEOUT_MS', 10_000, 100, 600_000),
    realtimeMaxBufferedBytes: int(env, 'REALTIME_MAX_BUFFERED_BYTES', 4_194_304, 65_536, 1_073_741_824),
    realtimeSweepMs: int(env, 'REALTIME_SWEEP_MS', 10_000, 100, 3_600_000),
    realtimeTypingIntervalMs: int(env, 'REALTIME_TYPING_INTERVAL_MS', 2_000, 500, 60_000),
  };
}

/** Uploads and where their files are kept. */
function mediaSettings(env: Env) {
  return {
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 100 * 1024 * 1024, 1, 1024 ** 4),
    uploadAllowedTypes: uploadTypes(env),
    uploadSessionTtlSeconds: int(env, 'UPLOAD_SESSION_TTL_SECONDS', 86_400, 60, 2_592_000),
    uploadCleanupIntervalMs: int(env, 'UPLOAD_CLEANUP_INTERVAL_MS', 600_000, 1_000, 86_400_000),
    media: mediaStore(env),
    mediaPublicUrl: publicUrl(env, 'MEDIA_PUBLIC_URL'),
  };
}

/** The Bot API's send limit, long polls and webhook deliveries. */
function botSettings(env: Env) {
  return {
    botSendRatePerSecond: int(env, 'BOT_SEND_RATE_PER_SECOND', 30, 1, 1_000_000),
    botLongPollMaxSeconds: int(env, 'BOT_LONG_POLL_MAX_SECONDS', 50, 0, 3_600),
    botWebhookAllowHttp: bool(env, 'BOT_WEBHOOK_ALLOW_HTTP', false),
    botWebhookAllowPrivate: bool(env, 'BOT_WEBHOOK_ALLOW_PRIVATE', false),
    botWebhookTimeoutMs: int(env, 'BOT_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    botWebhookRetryBaseMs: int(env, 'BOT_WEBHOOK_RETRY_BASE_MS', 1_000, 10, 3_600_000),
    botWebhookRetryMaxMs: int(env, 'BOT_WEBHOOK_RETRY_MAX_MS', 300_000, 10, 86_400_000),
  };
}

const schemaCompilations: SchemaCompilation[] = ['startup', 'first-use'];

function schemaCompilation(env: Env): SchemaCompilation {
  const mode = env.SCHEMA_COMPILATION || 'startup';
  if (!schemaCompilations.includes(mode as SchemaCompilation)) {
    throw new ConfigError(`SCHEMA_COMPILATION must be one of ${schemaCompilations.join(', ')}, got "${mode}"`);
  }
  return mode as SchemaCompilation;
}

/** The process itself: cluster workers, the shutdown bound and the time-outs of calls to PostgreSQL and Redis. */
function processSettings(env: Env) {
  return {
    workers: env.WORKERS === 'auto' ? availableParallelism() : int(env, 'WORKERS', 1, 1, 256),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 1_000, 600_000),
    schemaCompilation: schemaCompilation(env),
    dependencyTimeouts: {
      databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 4_000, 100, 600_000),
      databaseLockTimeoutMs: int(env, 'DATABASE_LOCK_TIMEOUT_MS', 2_000, 100, 600_000),
      databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
      redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 2_000, 100, 600_000),
    },
  };
}

/**
 * Without these a client that sends its body (or headers) a byte at a time holds a connection and a request slot for
 * as long as it likes. The headers must arrive within the whole request's time, as Node requires.
 */
function httpTimeouts(env: Env): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  // Above the 60 s idle timeout of common load balancers, which must close first to avoid a race on reuse.
  const keepAliveTimeoutMs = int(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 100, 3_600_000);
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}
