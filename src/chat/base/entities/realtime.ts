// The realtime event log: events relayed from the outbox (under the outbox row's id) and each account's numbered
// share of them; an account's newest row holds its newest seq (kept through pruning).
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const EventLogEntity = defineEntity({
  name: 'EventLog',
  tableName: 'event_log',
  properties: {
    id: p.bigint('number').autoincrement(false).primary(), // the outbox row's id, not a sequence of its own
    topic: p.text(),
    payload: p.json<unknown>(),
    createdAt: p.datetime().fieldName('created_at'),
  },
  indexes: [{ name: 'event_log_created', properties: ['createdAt'] }],
});
export type EventLog = InferEntity<typeof EventLogEntity>;

export const UserEventEntity = defineEntity({
  name: 'UserEvent',
  tableName: 'user_events',
  properties: {
    accountId: p.uuid().primary().fieldName('account_id'),
    seq: p.bigint('number').primary(),
    eventId: p.bigint('number').fieldName('event_id'),
  },
  indexes: [{ name: 'user_events_event', properties: ['eventId'] }],
});
export type UserEvent = InferEntity<typeof UserEventEntity>;
