// Room and member events: each payload names its audience (docs/events.md), and each is written in the
// transaction of the change it reports.
import type { SqlClient } from '../../platform/db/sql.js';

export type Audience = { kind: 'room'; roomId: string } | { kind: 'accounts'; accountIds: string[] };

export const roomAudience = (roomId: string): Audience => ({ kind: 'room', roomId });
export const accountsAudience = (accountIds: string[]): Audience => ({ kind: 'accounts', accountIds });

export async function emit(client: SqlClient, topic: string, payload: Record<string, unknown>, audience: Audience): Promise<void> {
  await client.query('insert into outbox (topic, payload) values ($1, $2)', [topic, JSON.stringify({ ...payload, audience })]);
}
