// Outbox rows of the message, reaction, pin and snap changes; written by the caller inside its transaction.
// Topics and payloads are listed in docs/events.md.
import type { SqlClient } from '../../platform/db/sql.js';

export type Audience = { kind: 'room'; roomId: string } | { kind: 'accounts'; accountIds: string[] };

export const roomAudience = (roomId: string): Audience => ({ kind: 'room', roomId });
export const accountsAudience = (...accountIds: string[]): Audience => ({ kind: 'accounts', accountIds });

export async function emit(client: SqlClient, topic: string, audience: Audience, fields: Record<string, unknown>): Promise<void> {
  await client.query('insert into outbox (topic, payload) values ($1, $2)', [topic, JSON.stringify({ audience, ...fields })]);
}
