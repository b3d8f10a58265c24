// Workspace events in the outbox: each one is inserted in the transaction of the change that caused it (through the
// platform's outbox writer), as the internal topic svc.event with the payload { environment, envelope } that the
// webhook delivery engine consumes. The envelope is the seed's: evt_ id, event, occurred_at (UTC, milliseconds),
// workspace_id, api_version v1, data, and changes on events that change an existing record.
import type { ReadRouter } from '../../platform/db/read-router.js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Queryable } from '../../platform/db/queryable.js';
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { writeOutboxRows } from '../../platform/outbox-writer.js';
import type { Changes, PendingEvent, WorkspaceEvent } from './catalogue.js';
import type { InternalTopic } from './internal-topics.js';

export const svcEventTopic = 'svc.event' satisfies InternalTopic;
export const apiVersion = 'v1';

export interface Envelope {
  id: string;
  event: WorkspaceEvent;
  occurred_at: string;
  workspace_id: string;
  api_version: string;
  data: unknown;
  changes?: Changes;
}

export interface SvcEventPayload {
  environment: 'live' | 'test';
  envelope: Envelope;
}

/** The workspace and key environment a change happened in. */
export interface EventScope {
  workspaceId: string;
  environment: string;
}

export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

function envelopeOf(scope: EventScope, e: PendingEvent, at: Date): Envelope {
  const envelope: Envelope = {
    id: newEventId(),
    event: e.event,
    occurred_at: at.toISOString(),
    workspace_id: scope.workspaceId,
    api_version: apiVersion,
    data: e.data,
  };
  if (e.changes) envelope.changes = e.changes;
  return envelope;
}

/**
 * Inserts the events on `db`, which must be the transaction of the change. Only live and test records have
 * webhooks: a partner dev_ key's records emit nothing.
 */
export async function writeEvents(db: Queryable, scope: EventScope, events: readonly PendingEvent[], at: Date): Promise<number> {
  if (events.length === 0 || (scope.environment !== 'live' && scope.environment !== 'test')) return 0;
  const payloads: SvcEventPayload[] = events.map((e) => ({
    environment: scope.environment as 'live' | 'test',
    envelope: envelopeOf(scope, e, at),
  }));
  return writeOutboxRows(
    db,
    payloads.map((payload) => ({ topic: svcEventTopic, payload })),
  );
}

/** What a write collects while it runs: its events, and work to do once it has committed. */
export interface EventSink {
  emit(event: WorkspaceEvent, data: unknown, changes?: Changes): void;
  afterCommit(work: () => void): void;
}

export interface EventDeps {
  sql: SqlPool;
  /** Routes the read-only operations to replicas (readPool); absent without DATABASE_READ_URLS. */
  reads?: ReadRouter | undefined;
  clock: Clock;
}

/**
 * Runs a write in a transaction of its own (or in the caller's, when `db` is already a transaction's client),
 * inserts the events it emitted before the commit (whose commit asks for the drain), then runs its after-commit work.
 */
export async function withEvents<T>(
  deps: EventDeps,
  db: Queryable,
  scope: EventScope,
  work: (tx: Queryable, sink: EventSink, now: Date) => Promise<T>,
): Promise<T> {
  const events: PendingEvent[] = [];
  const after: Array<() => void> = [];
  const sink: EventSink = {
    emit: (event, data, changes) => events.push(changes ? { event, data, changes } : { event, data }),
    afterCommit: (fn) => after.push(fn),
  };
  const now = deps.clock.now();
  const run = async (tx: Queryable) => {
    const result = await work(tx, sink, now);
    await writeEvents(tx, scope, events, now);
    return result;
  };
  // A pool gets a transaction of its own; a client is already inside the caller's (an Idempotency-Key record's),
  // which commits or rolls back the events with everything else.
  const result = db instanceof pg.Pool ? await inTransaction(db as SqlPool, (tx: SqlClient) => run(tx)) : await run(db);
  for (const fn of after) fn();
  return result;
}

/** Adds a list of events to a sink (the shared CRM functions return lists). */
export function emitAll(sink: EventSink, events: readonly PendingEvent[]): void {
  for (const e of events) sink.emit(e.event, e.data, e.changes);
}
