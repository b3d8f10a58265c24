// What a started node offers its caller (src/main.ts, tests): its listeners and their addresses, the jobs a test
// may run now instead of waiting for their period, and its stop.
import type { FastifyInstance } from 'fastify';
import type { RealtimeGateway } from '../chat/realtime/gateway.js';
import type { WebhookWorkers } from '../core/webhooks/workers.js';
import type { ReadRouter } from '../platform/db/read-router.js';

export interface Platform {
  chat?: FastifyInstance;
  /** Base URL of the chat listener, when it runs. */
  chatUrl?: string;
  /** Address of the settings console (served by the chat listener), when it runs. */
  consoleUrl?: string;
  /** STOMP over WebSocket at /ws on the chat listener (docs/realtime.md). */
  realtime?: RealtimeGateway;
  partner?: FastifyInstance;
  /** Base URL of the partner listener, when it runs. */
  partnerUrl?: string;
  /** Writes the collected API-key last-used times now (normally every LAST_USED_FLUSH_MS). */
  flushKeyUsage?: () => Promise<void>;
  workspace?: FastifyInstance;
  /** Base URL of the workspace listener, when it runs. */
  workspaceUrl?: string;
  /** Writes the buffered workspace audit entries and key last-used times now (normally every SVC_AUDIT_FLUSH_MS). */
  flushSvcAudit?: () => Promise<void>;
  /** Fires the scheduled messages and reminders due by the platform's clock now (what the periodic sweep does). */
  sweepTime: () => Promise<{ scheduled: number; reminders: number }>;
  /** Deletes expired upload sessions and files of recalled messages now (what the cleanup job does). */
  cleanupUploads: () => Promise<{ expired: number; purged: number }>;
  /** Base URL of the operations listener (GET /metrics), when METRICS_PORT is set and this process serves it. */
  metricsUrl?: string;
  /** The webhook workers of this node (with `workers`): sweep() runs one sweeper pass now. */
  webhookWorkers?: WebhookWorkers;
  databaseUrl: string;
  /** The read router of DATABASE_READ_URLS; absent without replicas. */
  reads?: ReadRouter;
  redisUrl: string;
  /**
   * Registers work to run first when the platform stops, while listeners, pools and Redis are still up: e.g. telling
   * WebSocket clients to reconnect elsewhere (close code 1012) before the listeners drain. Hooks run together; one that
   * fails is logged and does not stop the others.
   */
  onDrain(hook: () => Promise<void>): void;
  /**
   * The drain: drain hooks, then every listener stops accepting connections and finishes its in-flight requests,
   * then the queue workers finish their current job (the outbox relay runs a last drain), then pools and servers close.
   */
  stop(): Promise<void>;
}
