// The settings every process reads once at start (loadConfig in ./index.ts), as the rest of the code sees them.
import type { DependencyTimeouts } from '../dependency-timeouts.js';

/** When request validators and response serializers are compiled (src/platform/http/schema-compilation.ts). */
export type SchemaCompilation = 'startup' | 'first-use';

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
