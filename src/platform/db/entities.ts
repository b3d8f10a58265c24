// The platform's own tables: the outbox the relay drains, and the secrets the platform keeps (cursor and webhook
// secret keys).
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const OutboxEntity = defineEntity({
  name: 'Outbox',
  tableName: 'outbox',
  properties: {
    id: p.bigint('number').autoincrement().generated('identity').primary(),
    topic: p.text(),
    payload: p.json<unknown>(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    publishedAt: p.datetime().fieldName('published_at').nullable(),
    // The producer's W3C traceparent (src/platform/tracing/pg.ts sets the setting it defaults to).
    traceContext: p
      .text()
      .fieldName('trace_context')
      .nullable()
      .defaultRaw("NULLIF(current_setting('platform.traceparent'::text, true), ''::text)"),
  },
  indexes: [{ name: 'outbox_unpublished', properties: ['id'], where: '(published_at IS NULL)' }],
});
export type Outbox = InferEntity<typeof OutboxEntity>;

export const PlatformSecretEntity = defineEntity({
  name: 'PlatformSecret',
  tableName: 'platform_secrets',
  properties: {
    name: p.text().primary(),
    value: p.text(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
});
export type PlatformSecret = InferEntity<typeof PlatformSecretEntity>;
