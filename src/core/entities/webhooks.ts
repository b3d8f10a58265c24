// The tables core/webhooks owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

export const WebhookEntity = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'webhooks_workspace_id_fkey'),
    environment: p.text(),
    name: p.text(),
    url: p.text(),
    events: p.array().columnType('text[]'),
    description: p.text().nullable(),
    headers: p.json<unknown>().defaultRaw("'{}'::jsonb"),
    secretCiphertext: p.blob().fieldName('secret_ciphertext'),
    secretLastFour: p.text().fieldName('secret_last_four'),
    status: p.text(),
    /** Whether the URL has ever answered 2xx: resume returns to Active only then, else to Unverified. */
    verified: p.boolean().defaultRaw('false'),
    pausedReason: p.text().fieldName('paused_reason').nullable(),
    consecutiveFailures: p.integer().fieldName('consecutive_failures').defaultRaw('0'),
    noticePending: p.boolean().fieldName('notice_pending').defaultRaw('false'),
    noticeLeaseUntil: p.datetime().fieldName('notice_lease_until').nullable(),
    createdVia: p.text().fieldName('created_via'),
    createdByKey: p.uuid().fieldName('created_by_key').nullable(),
    createdByAccount: p.uuid().fieldName('created_by_account').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
    pausedAt: p.datetime().fieldName('paused_at').nullable(),
    disabledAt: p.datetime().fieldName('disabled_at').nullable(),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'webhooks_workspace',
      expression: 'CREATE INDEX webhooks_workspace ON webhooks USING btree (workspace_id, environment, id DESC)',
    },
    { name: 'webhooks_notice', properties: ['id'], where: 'notice_pending' },
  ],
  checks: [
    {
      name: 'webhooks_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
    {
      name: 'webhooks_status_check',
      expression: "((status = ANY (ARRAY['Active'::text, 'Unverified'::text, 'Paused'::text, 'Disabled'::text])))",
    },
    {
      name: 'webhooks_paused_reason_check',
      expression: "((paused_reason = ANY (ARRAY['manual'::text, 'failures'::text])))",
    },
    {
      name: 'webhooks_created_via_check',
      expression: "((created_via = ANY (ARRAY['svc_key'::text, 'api_key'::text, 'account'::text])))",
    },
  ],
});
export type Webhook = InferEntity<typeof WebhookEntity>;

export const WebhookDeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.uuid().primary(),
    webhookId: reference(p.uuid().fieldName('webhook_id'), 'Webhook', 'webhook_deliveries_webhook_id_fkey', 'cascade'),
    workspaceId: p.uuid().fieldName('workspace_id'),
    environment: p.text(),
    kind: p.text(),
    event: p.text(),
    eventId: p.text().fieldName('event_id'),
    envelope: p.text(),
    status: p.text(),
    attemptCount: p.integer().fieldName('attempt_count').defaultRaw('0'),
    round: p.integer().defaultRaw('0'),
    nextAttemptAt: p.datetime().fieldName('next_attempt_at').nullable(),
    leaseUntil: p.datetime().fieldName('lease_until').nullable(),
    lastAttemptAt: p.datetime().fieldName('last_attempt_at').nullable(),
    responseStatus: p.integer().fieldName('response_status').nullable(),
    latencyMs: p.integer().fieldName('latency_ms').nullable(),
    responseExcerpt: p.text().fieldName('response_excerpt').nullable(),
    error: p.text().nullable(),
    replayOf: p.uuid().fieldName('replay_of').nullable(),
    outboxId: p.bigint('number').fieldName('outbox_id').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    completedAt: p.datetime().fieldName('completed_at').nullable(),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'webhook_deliveries_log',
      expression: 'CREATE INDEX webhook_deliveries_log ON webhook_deliveries USING btree (webhook_id, id DESC)',
    },
    {
      name: 'webhook_deliveries_workspace',
      expression: 'CREATE INDEX webhook_deliveries_workspace ON webhook_deliveries USING btree (workspace_id, environment, id DESC)',
    },
    {
      name: 'webhook_deliveries_due',
      properties: ['nextAttemptAt'],
      where: "(status = ANY (ARRAY['pending'::text, 'sending'::text]))",
    },
    { name: 'webhook_deliveries_held', properties: ['webhookId'], where: "(status = 'held'::text)" },
  ],
  uniques: [{ name: 'webhook_deliveries_intake', properties: ['webhookId', 'outboxId'], where: '(outbox_id IS NOT NULL)' }],
  checks: [
    {
      name: 'webhook_deliveries_kind_check',
      expression: "((kind = ANY (ARRAY['event'::text, 'ping'::text, 'test'::text, 'replay'::text])))",
    },
    {
      name: 'webhook_deliveries_status_check',
      expression:
        "((status = ANY (ARRAY['pending'::text, 'sending'::text, 'succeeded'::text, 'failed'::text, 'held'::text, 'cancelled'::text])))",
    },
  ],
});
export type WebhookDelivery = InferEntity<typeof WebhookDeliveryEntity>;
