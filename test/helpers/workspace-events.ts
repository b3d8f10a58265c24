// The workspace events an action wrote to the outbox: rows of topic svc.event for one workspace, newer than a mark
// taken before the action, with assertions on the seed's envelope.
import type pg from 'pg';

export interface OutboxEvent {
  id: number;
  topic: string;
  environment: string;
  envelope: {
    id: string;
    event: string;
    occurred_at: string;
    workspace_id: string;
    api_version: string;
    data: any;
    changes?: Record<string, { from: unknown; to: unknown }>;
  };
}

export async function outboxMark(db: pg.Pool): Promise<number> {
  const { rows } = await db.query<{ id: string | null }>('select max(id) as id from outbox');
  return Number(rows[0]?.id ?? 0);
}

/** Every outbox row after the mark whose payload is an event of the workspace (whatever its topic), in order. */
export async function eventsSince(db: pg.Pool, mark: number, workspaceId: string): Promise<OutboxEvent[]> {
  const { rows } = await db.query<{ id: string; topic: string; payload: { environment: string; envelope: OutboxEvent['envelope'] } }>(
    "select id, topic, payload from outbox where id > $1 and payload->'envelope'->>'workspace_id' = $2 order by id",
    [mark, workspaceId],
  );
  return rows.map((r) => ({ id: Number(r.id), topic: r.topic, environment: r.payload.environment, envelope: r.payload.envelope }));
}

/** Runs the action and returns its result with the events it wrote for the workspace. */
export async function during<T>(db: pg.Pool, workspaceId: string, action: () => Promise<T>): Promise<{ result: T; events: OutboxEvent[] }> {
  const mark = await outboxMark(db);
  const result = await action();
  return { result, events: await eventsSince(db, mark, workspaceId) };
}

/** The seed's envelope: evt_ id, the event, UTC milliseconds, the workspace, v1, data, changes only when given. */
export function expectEnvelope(
  e: OutboxEvent,
  expected: { event: string; workspaceId: string; environment?: string; data?: unknown; changes?: unknown },
): void {
  expect(e.topic).toBe('svc.event');
  expect(e.environment).toBe(expected.environment ?? 'live');
  const env = e.envelope;
  expect(Object.keys(env).sort()).toEqual(
    expected.changes === undefined
      ? ['api_version', 'data', 'event', 'id', 'occurred_at', 'workspace_id']
      : ['api_version', 'changes', 'data', 'event', 'id', 'occurred_at', 'workspace_id'],
  );
  expect(env.id).toMatch(/^evt_[0-9a-f]{32}$/);
  expect(env.event).toBe(expected.event);
  expect(env.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(env.workspace_id).toBe(expected.workspaceId);
  expect(env.api_version).toBe('v1');
  if (expected.data !== undefined) expect(env.data).toEqual(expected.data);
  if (expected.changes !== undefined) expect(env.changes).toEqual(expected.changes);
}

/** The names of the events, in the order they were written. */
export function names(events: OutboxEvent[]): string[] {
  return events.map((e) => e.envelope.event);
}

/** The one event of that name (fails when there are none or several). */
export function only(events: OutboxEvent[], event: string): OutboxEvent {
  const found = events.filter((e) => e.envelope.event === event);
  expect(found).toHaveLength(1);
  return found[0]!;
}

export const leadDataKeys = ['created_at', 'custom_fields', 'email', 'id', 'name', 'owner_id', 'phone', 'source', 'status'];
export const dealDataKeys = ['amount', 'id', 'name', 'owner_id', 'stage'];
